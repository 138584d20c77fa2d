"""The host: the one object every surface talks to, tool calls in, results and events out.

``SessionHost`` (``sessionhost``) runs calls through the tool table over its ``Supervisor`` (``supervisor``),
which spawns, supervises and backgrounds sessions and publishes every change. ``reexec_state`` is the core's
half of ``serve --reexec``: the host's state written out and read back by a new image of itself, ending no
session (nor an exec approval still waiting). ``decisions`` carries out what the operator decides on a run
that waits for approval: run it, or end its reserved session as never started.

**SessionHost** reads each call (``calls.toolcall``), runs it through the tool table (``tools.table``) over
its supervisor, prepends the caller's queued exit notices, and never raises for a bad call. Leaving ``async
with`` a host ends all sessions the way a kill does, returning only once none of their processes is left. A
ticker re-checks the waiting-for-input rule (the idle rule, and the kernel's evidence for PTYs) so watchers
hear when a session starts or stops waiting. A host that serves a socket keeps its sessions across its starts
(``SessionHost.persist``, which the server calls when it binds): it journals them under the state directory,
and a new host on the same socket, even after a crash, brings back what the journal holds before it runs any
call. The ticker also watches the journal: when it stops saving (a full disk), watchers hear of it once
(``host-journal``). The host tells the operator of what needs them through its ``Attention``
(``core.attention``), a listener on its bus from ``start`` on; the ticker sets each waiting session's
``prompt`` (its last screen line, masked) as it starts waiting, and the supervisor keeps the operator's
mutes (``set_mute``), journaled and applied to every session as it is added or restored.

**Supervisor.** ``exec`` and ``process`` are functions over this object, not over the host: it holds exactly
what they need (the settings, the registry, the exit notices, the terminal engine, the nodes) and the two acts
that change a session's place (``spawn`` and ``background``), which is the ``tools.toolcore.ToolCore``
protocol. It starts one supervisor task per session, which waits for the run to end, makes sure nothing of it
survives, queues the exit notice and tells watchers (every change goes out on ``bus``). The host around it
adds the tool table, the waiting-for-input check and the lifecycle, as asyncio's ``Process`` wraps a protocol.
It also keeps the journal (``journal``, wired through ``journal.restore``): every issued id, every
backgrounded session from the moment it is listed, and what a new host restores from it.

**A re-exec in place** (``reexec_state``): handing a host over to a new image of itself, ending no session and
losing no byte. Modelled on systemd's ``daemon-reexec``: the host writes down its whole state, keeps open
across ``exec`` every file descriptor its sessions need, and the new image, the same process and so still the
parent of the same children, reads the state back and adopts them. This is the core's half. ``capture`` stops
watching every child (its output waits in the kernel's PTY and pipe buffers meanwhile, so nothing is read
twice or lost) and writes each session (its ``Session.to_json`` record and, for a running one, its child's fds
and queued input, the time left before it times out, a termination under way, what the text decoders hold
back), the registry with every id ever issued and the TTLs left, the exit notices, the poll back-off, the
settings and the containment. ``restore`` builds all of it again and supervises the running sessions anew.
Times that must carry over are monotonic: the clock is the machine's, not the process's. The socket, the exec
and the new image's start are ``openclaw_tui.remote.server.reexec``'s. The state is versioned (``format``): a
newer image reads an older state, since fields added later are optional, and a state newer than the code that
must read it is refused before anything is handed over.

**Exec approvals.** The operator answers them here (``SessionHost.pending_approvals``, ``decide_approval``,
``approval_history``): a frontend in this process directly, one in another through the socket, which offers
them to the operator only, never to a process inside a session. A request and its decision are journaled with
who decided; a request left waiting by a crash is void, its session ``failed`` / ``host-died``, never run.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .reexec_state import (
        FORMAT as FORMAT,
        MIN_FORMAT as MIN_FORMAT,
        CannotResume as CannotResume,
        check_format as check_format,
        settings_from_json as settings_from_json,
    )
    from .sessionhost import SessionHost as SessionHost

__all__, __getattr__ = lazy_exports(__name__, __file__)
