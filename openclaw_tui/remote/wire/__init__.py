"""The host protocol and the clients' side of it: JSON-RPC 2.0 over newline-delimited JSON on a Unix socket.

``protocol`` encodes messages and holds the method table, ``socketpaths`` finds the per-user socket,
``client`` is the asyncio client (requests with futures, notifications to listeners), ``oneshot`` the
blocking one, for commands that must start fast, and ``autostart`` starts a host for a client that found none.
``retry`` and ``backoff`` say how clients meet a lost connection (below).

**The protocol, version 1.** Requests (client → host), each answered with a result or a JSON-RPC error;
:data:`.protocol.METHODS` is this table as data, and the server dispatches by it:

=================  ==========================================  =========================================
method             params                                      result
=================  ==========================================  =========================================
hello              {client?: str}                              {protocol: 1, server, version, pid,
                                                               hostId, generation}
call               {call: object, agent?: str | null,         the tool result {text, details}
                   operator?: bool}
events.subscribe   {approver?: bool, operator?: bool}          {} — then ``event`` notifications,
                                                               a ``snapshot`` first; ``approver``: an
                                                               operator frontend that answers exec
                                                               approvals (``operatorAttached``)
events.unsubscribe {}                                          {}
figures.watch      {on?: bool}                                 {} — while on (and subscribed), the host
                                                               reads every running session's figures
                                                               every 2 s: ``session-resources`` events
raw.subscribe      {sessionId, offset?: int}                   {start, end} — then ``raw`` notifications
raw.unsubscribe    {sessionId}                                 {}
session.input      {sessionId, data: base64, source?: str,     {bytesWritten, bytesQueued} (operator
                   action?: str}                               keystrokes; recorded with who sent them)
session.resize     {sessionId, cols, rows}                     {}
session.output     {sessionId, since?: int, after?: int}      {chunks: [{stream, text}], totalChars,
                                                               incremental, inputs, rawEnd} — when not
                                                               incremental, the whole retained text
                                                               (``Output.to_json``: head, headMax,
                                                               maxChars, tailDropped ...); ``after``
                                                               (ms since the epoch): what came from
                                                               then on, with ``rawFrom``
session.export     {sessionId, format?: cast | text, since?,   a result {text, details: {status, path,
                   until?, idleLimit?, inputs?: bool}          format, bytes}}: the process tool's
                                                               ``export``, in the caller's scope
host.reexec        {}                                          {pid, version, generation, sessions} —
                                                               then the host re-executes itself (below)
approvals.list     {}                                          {text, details: {status, approvals: [...]}}
approvals.history  {}                                          {text, details: {status, approvals: [...]}}
approvals.decide   {approvalId, decision: allow-once |         {text, details: {status, approval}}: the
                   allow-always | deny, reason?, patterns?:    decision, or a failed result saying why
                   [{pattern, argPattern?}], tty?: str}        not (the request then waits on)
notify.mute        {muted: bool, sessionId?: str,              a result {text, details: {status, muted,
                   agent?: str}                                sessions, mutes}} (one of the two)
notify.test        {}                                          a result {text, details: {status,
                                                               outcomes: [{hook, ok, attempts, detail}]}}
=================  ==========================================  =========================================

The ``approvals.*`` methods are the operator's (exec approvals: ``core/approvals``): answered like tool
results, and refused with a ``failed`` result of ``failureKind: "caller-confined"`` to a connection from a
process inside a session, which never sees a request either (no ``approval-*`` event, no ``approvals`` in its
snapshot). ``approvalId`` may also be the reserved ``sessionId``. A decision records who took it: the
operator, through this connection's ``hello`` client, its peer pid and the ``tty`` the client names.

``operator: true`` says the caller acts as the operator (the operator's command line does): a connection
from a process inside a session is refused then (a ``call`` gets a failed result, ``failureKind:
"caller-confined"``; ``events.subscribe`` the error -32001), instead of being taken as that session's agent,
and so are ``notify.mute`` and ``notify.test`` always. ``call`` with ``operator`` takes no ``agent``.

``hostId`` names the host for as long as it lives, across re-execs; ``generation`` counts its re-execs.
``host.reexec`` (what ``openclaw-tui serve --reexec`` sends; SIGUSR2 does the same) first checks that the code
installed now can resume this host (it runs ``python -m openclaw_tui serve --check-resume``), and refuses with
error -32000 (``REFUSED``) naming why when it cannot, when a re-exec is already under way, when the host is
not a ``serve`` (a dashboard's), or when the caller runs inside a session. Otherwise it answers, then hands
over: the socket stays bound (a client connecting meanwhile waits until the new image serves), every
connection is closed without answering what it still had in flight (clients reconnect; a read can be retried,
anything else must be checked with ``list``/``poll``), and the same process, on the new code, answers
``hello`` with the same ``pid`` and ``hostId`` and ``generation`` one higher.

Every request is answered, with its result or an error, unless it is cancelled (below). Params are checked
before anything runs: a missing, unknown or mistyped parameter is an invalid-params error (-32602) naming it
(``sessionId``, ``source`` and ``client`` are strings of valid Unicode, with no lone surrogate, ``data`` is
base64, ``offset`` and ``since`` are integers from 0, ``cols`` and ``rows`` integers from 1 to 1000). A line
that is not JSON is a parse error (-32700) with id null; so are ``NaN``, ``Infinity``, numbers no float holds,
nesting too deep, and a message over 256 KB holding more than 10,000 values (such a message is decoded off the
host's event loop). A reply never fails to encode: text that UTF-8 cannot carry is escaped as JSON writes it
(``\\udc80``). A request whose ``id`` is not a string, a number or null is an invalid request (-32600),
answered with id null. Anything that goes wrong inside the host is an internal error (-32603), logged on the
host's stderr; the connection keeps serving either way. Input the session cannot take (its stdin closed, or
its input queue full, when nothing of it is taken) is refused with -32001 and the words the ``process`` tool's
failure uses, since ``session.input`` goes the same one way into a session as the tool's ``write``.

The host itself answers the terminal queries PTY programs send (cursor position, device status and
attributes), whether or not any client views the session, so clients never send replies.

A ``cancel`` notification {id} from the client cancels its request with that id if it still runs (a cancelled
foreground ``exec`` ends its run, as in-process); the cancelled request gets no answer.

Notifications (host → client): ``event`` {kind, sessionId, data}, ``data`` the payload of that kind as
``Event.to_json`` writes it (``core/session/events.py``, which reads it back too), and ``raw`` {sessionId,
offset, data: base64, size: [cols, rows] | null, sizes: [[offset, cols, rows], ...]}. A ``raw`` offset larger than the previous end
means bytes were dropped in between (the subscriber was too slow for the ring): terminal views catch up from
the tail. ``size`` is the PTY size the bytes at ``offset`` were written for and ``sizes`` every resize among
them, at its offset: the client's copy of the ring replays them where they happened (a resize with no output
comes as a ``raw`` with no data). A session's details carry its PTY's current size as ``ptySize`` {cols, rows}
(null for a pipe session).

**Where the socket lives** (``socketpaths``): a per-user directory nobody else can enter, found from facts.
``$OPENCLAW_TUI_SOCKET`` names the socket directly (tests, several hosts side by side). Otherwise it is
``openclaw-tui/host.sock`` in the user's runtime directory: ``$XDG_RUNTIME_DIR``, or ``/run/user/<uid>`` when
that exists and is the user's, even when the environment does not name it (the official MCP SDK starts servers
with a reduced environment without ``XDG_RUNTIME_DIR``, and that must not put the agent's host somewhere else
than the operator's); with no runtime directory, ``/tmp/openclaw-tui-<uid>/host.sock``. Clients (``mcp``,
``call``, ``attach``, the dashboard) look for a host serving at any of these candidates (``find_host``) before
they start one, so one user has one host whatever each caller's environment. A missing directory is created
with mode 0700; an existing one is used only if it is already ours and closed to group and others, and is
never changed (``$OPENCLAW_TUI_SOCKET`` may name a shared directory such as ``/tmp``, whose mode is not ours
to tighten). The socket itself is made 0600, and its path must fit a Unix socket address.

**Clients.** ``client`` is used by the MCP server and the attached dashboard: one reader task matches
responses to their requests by id and hands ``event`` and ``raw`` notifications to whoever listens.
``oneshot`` serves commands that must start fast or need no event loop (``openclaw-tui call``, ``--version``,
``serve --reexec``), importing nothing heavy (``tests/remote/test_call_startup.py`` guards it). ``autostart`` starts ``openclaw-tui serve`` for a
client that found no host (an MCP server, a node's bridge, the dashboard), in a session of its own (stdin
``/dev/null``, output appended to ``serve.log`` next to the socket, no controlling terminal) so it outlives
whoever started it: background jobs survive the agent's client restarting, and the dashboard quitting or its
terminal closing. Waiting for it never blocks the loop, and a host that cannot start is reported with the
reason its log gives.

**A lost connection** is met the same way by every client that meets it: ``retry`` says how one call rides
through its host re-executing itself in place (which calls are sent again, how many times, how long the host
may take to be back, and the words when they are not), for ``openclaw-tui call`` and the MCP server alike;
``backoff`` spaces the tries of a link that keeps its host over time (the dashboard's, a node's, the fleet's)
to connect again.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import oneshot as oneshot, protocol as protocol
    from .autostart import (
        HostUnavailable as HostUnavailable,
        host_opener as host_opener,
        start_host as start_host,
    )
    from .backoff import ReconnectBackoff as ReconnectBackoff
    from .client import HostClient as HostClient, NoHost as NoHost
    from .retry import BACK_S as BACK_S, RideThrough as RideThrough
    from .socketpaths import (
        SocketPathError as SocketPathError,
        check_length as check_length,
        ensure_private_dir as ensure_private_dir,
        find_host as find_host,
        socket_path as socket_path,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
