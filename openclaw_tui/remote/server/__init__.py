"""The host's side of the socket, and ``openclaw-tui serve``.

``hostserver`` answers tool calls, the event stream and raw output for every frontend; ``rpcparams`` checks a
request's params before anything runs; ``callers`` knows who is on the other end, so a caller inside a session
acts only as that session's agent; ``listener`` holds the socket's lock. ``serve`` runs the host with no UI
until a signal ends it, and ``reexec`` moves it onto new code in place.

**Serving** (``hostserver``). Each connection is served independently; each request runs in its own task so a
30-second timed poll never holds up another request on the same connection. A request goes to its handler by
name through ``HANDLERS``, one row per method of ``wire.protocol.METHODS``, whose parameters are checked first
(``rpcparams``: the names the method takes, then each value, checked by the handler that reads it; every
problem is an invalid-params error, -32602, that names the parameter and shows a bad value only cut short, so
an error never echoes a megabyte back). Event and raw-output pushes never buffer without bound: output events
are coalesced per session (the core's ``OutputCoalescer``, sent at most every ``OUTPUT_EVENTS_S``), and a raw
subscriber that cannot keep up simply resumes from the ring later (the offsets tell it what it missed), so a
slow frontend never slows a job down. Operator input takes the core's one input path.

**Who is calling** (``callers``). The peer's pid (``SO_PEERCRED``, taken when it connects) is looked up in the
host's containment: its cgroup, its ancestry (a session's leader or process group), its marker. A connection
from a process inside a session is *confined* to that session's agent. A call naming no agent is taken as that
agent's (``null`` cannot mean the operator here, so it means "whoever I am", and asks for nothing more);
naming another agent is refused rather than quietly rewritten, so a wrong ``--agent`` (``openclaw-tui call``'s
default ``cli`` included) is told, not obeyed as someone else. Inside a session the operator started there is
no agent to act as: calls must name one, and the operator-wide views (events, raw output, input, resize) are
refused. Elsewhere those views reach only the agent's sessions.

**One host per path** (``listener``). The lock file beside the socket (``host.sock.lock``, ``flock``) decides
which of two hosts starting at once serves, and is held for the host's whole life; a socket a crashed host
left behind is detected (nothing answers it) and replaced.

**serve** (``serve``): the host with no UI, outliving any dashboard, until a signal ends it. SIGTERM, SIGINT
and SIGHUP start a graceful shutdown: every process of every session gets SIGTERM, the grace period, then
SIGKILL, and the host exits only once the OS confirms they are gone. A second signal forces it: SIGKILL to
every session at once. At start it says how gateway sessions are contained, and, once the sweep of dead hosts'
records is done, one line per dead host whose processes it (or that host's watchdog) ended, then what it
brought back from the journal of the last host on this socket. Whenever sessions stop being saved to disk (a
full disk, an unwritable state directory, a damaged journal), a line on stderr says why; the host goes on with
them in memory. SIGUSR2, like ``openclaw-tui serve --reexec``, re-executes the host in place on the code
installed now, keeping every session; the new image starts in ``serve`` too, with ``--resume FD``, and says
what it kept. Exit status 1 when another host already serves the socket, 2 when the socket's path or directory
cannot be used (the message says why: too long, not ours, open to others, not a socket); 70 when a re-executed
host cannot resume.

**A re-exec in place** (``reexec``): an upgrade or restart that ends no session (``serve --reexec``, SIGUSR2).
Asked to (the ``host.reexec`` method, or SIGUSR2 from a service manager), the host first makes sure the code
installed now can take over: a preflight runs ``python -m openclaw_tui serve --check-resume FORMAT`` with this
host's interpreter, environment and directory, so a broken upgrade (it does not import) or one that cannot
read this host's state is refused while nothing has been touched. Then the handover: the socket stops
accepting but stays bound and locked (``HostServer.hand_over``), connections are dropped, the core writes
itself down (``openclaw_tui.core.host.reexec_state``) into a memory file, every fd to keep is made inheritable
(PTY masters, pipe read ends, the listening socket and its lock, the watchdog's pipe, the memory file), the
signals that would end or re-exec the host are blocked (a blocked signal stays pending across ``exec`` and
reaches the new image once it can handle it) and the process execs ``python -m openclaw_tui serve --resume
FD`` on the main thread, so it stays the parent of every child. The new image reads the state, adopts it all
(``reexec.resume``, ``HostServer.adopt``) and serves on the same socket: since the socket never stops being
bound, no other host can take the path meanwhile and a client connecting meanwhile waits in the backlog, while
connected clients are dropped and reconnect. If the exec itself fails, this image goes on as before. If the
new image cannot resume (a state it cannot read, a bug in the new code), it says why and exits at once: that
is a host dying, which containment already covers (every session's leader dies with the host, the watchdog
ends the rest, and the next host sweeps the live record and reports it), so nothing runs on unseen.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .serve import check_resume as check_resume, run_serve as run_serve

__all__, __getattr__ = lazy_exports(__name__, __file__)
