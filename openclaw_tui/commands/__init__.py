"""The command line's subcommands that talk to a running host: ``call``, ``--version``, ``serve --reexec``,
``nodes``, ``attach --node``, ``approvals``, the operator's command line (``ls``, ``logs``, ``screen``, ``send``,
``paste``, ``kill``, ``events``, ``mute``, ``unmute``, ``notify --test``); and ``sandbox``, which reads the
config and this shell's environment only.

Each is a function ``cli.py`` calls with the parsed arguments and whose return value is the exit status: 0
when it did what was asked, 1 for a failed result, 2 with one line on stderr when the call cannot be made, 130
when interrupted (each command below says what counts as which). They start fast: each imports only what it
uses, and none loads the host itself.

**call** (``call.py``). The call is the argument itself, ``-`` to read it from stdin, or ``@FILE`` to read it
from a file, so a script can send a 2 MB paste that no argument list would carry. Exit status is 0 unless the
result is ``failed`` (1); 2, with one line on stderr, when the call cannot be read (not JSON, not an object,
an unreadable file), when no host is running (start one with ``openclaw-tui serve``, or open the dashboard,
which serves the same socket), when the host cannot be reached, or when it went away during the call (its
outcome is then unknown); 130 when interrupted (Ctrl-C cancels the call on the host, as it would in-process).
When the host re-executes itself in place during the call (``serve --reexec``), the call reconnects: a read
(``process`` list, poll, log, screen) is sent again, anything else fails with status 2 saying the host
restarted and to check with list/poll, since it may or may not have run. Scripts call this in loops, so it
starts in a few tens of milliseconds: a blocking socket and the standard library's ``json``, nothing of the
host (no asyncio, pydantic or MCP); ``tests/remote/test_call_startup.py`` guards the imports.

**--version and serve --reexec** (``hostcontrol.py``): which code runs, and moving the host onto new code.
``--version`` says which version this command is and which the host serving the socket runs (it asks the
host's ``hello``), so after ``pip install -U`` one can see whether the host still runs the old code. ``serve
--reexec`` asks the running host to re-execute itself in place (the ``host.reexec`` method; SIGUSR2 does the
same), waits until the same host answers again on the new code, and says what it kept. Exit 0 when it is back;
1 when no host serves, when the host refused (the code installed now cannot take over: the host stays as it is
and the message says why), or when it did not come back (it could not resume and ended, as a host that dies
does: see its log).

**nodes and attach --node** (``nodelist.py``). ``nodes`` connects to every configured node at once (never
starting a host there: it only looks) and prints one line each: whether it answers, its version, its sessions,
the round trip of a request on the open connection (the median of a few) and how long ssh took to connect; or,
when it does not answer, what was tried and ssh's last word. Exit status 0 when every node answered, 1 when
one did not, 2 when no node is configured or the config cannot be read, 130 on Ctrl-C. ``attach --node NAME``
opens the dashboard on that node's host, over the same ssh bridge the agents' calls use; as with ``attach``,
no host is started there and quitting leaves its sessions running.

**The operator's command line** (``opclient.py`` shared; ``listing.py``: ``ls``; ``logs.py``: ``logs``;
``sessionacts.py``: ``screen``, ``send``, ``paste``, ``kill``; ``eventstream.py``: ``events``; ``muting.py``:
``mute``, ``unmute``, ``notify --test``). What tmux, docker and pm2 users expect, acting as the operator (every
agent's sessions), over the asyncio socket client: each ``call`` names ``operator: true`` and each
subscription too, so the host refuses a caller inside a session (``caller-confined``, exit 1) instead of
taking it for that session's agent. ``logs`` reads the session's retained output (``session.output``, the raw
ring for ``--raw``) and never the pending output an agent's next poll returns; ``-f`` follows the session's
events and ends, with status 0, once it ended and its last output is printed; ``--since`` uses the times the
host keeps for output (to the second). ``events`` prints every event of the host until interrupted, with
``--json`` an object a line. Exit statuses as ``call``'s: 0, 1 for a failed result, 2 with one line when the
call cannot be made, 130 on Ctrl-C.

**sandbox** (``sandboxreport.py``). It reads the same config as the host (``--config``, and ``--agent NAME``
for an agent's own ``[agents.NAME.tools.exec.sandbox]``) and this shell's environment, and prints: the
credential stores found here that runs find empty (by family, with the tool each belongs to), the other hidden
paths, the names of the variables kept out, and, apart, whatever looks like a secret yet is visible because
the operator chose so (``show``, ``passEnv``); then where runs go on this machine and what the sandbox does
not protect. Values are never printed. A config warning (a ``show`` of the state directory, say) goes to
stderr as the host would print it. Exit 0; 2 when the config cannot be read, or inside a session, whose
environment is already the filtered one."""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .approvals import run_approvals as run_approvals
    from .call import run_call as run_call
    from .eventstream import run_events as run_events
    from .hostcontrol import run_reexec as run_reexec, run_version as run_version
    from .listing import run_ls as run_ls
    from .logs import run_logs as run_logs
    from .muting import run_mute as run_mute, run_notify_test as run_notify_test
    from .nodelist import run_attach_node as run_attach_node, run_nodes as run_nodes
    from .sandboxreport import run_sandbox as run_sandbox
    from .sessionacts import (
        run_kill as run_kill,
        run_paste as run_paste,
        run_screen as run_screen,
        run_send as run_send,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
