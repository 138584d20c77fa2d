"""The host protocol, version 1: JSON-RPC 2.0 over newline-delimited JSON on a Unix socket.

Requests (client → host), each answered with a result or a JSON-RPC error; :data:`METHODS` below is this
table as data, and the server dispatches by it:

=================  ==========================================  =========================================
method             params                                      result
=================  ==========================================  =========================================
hello              {client?: str}                              {protocol: 1, server, version, pid,
                                                               hostId, generation}
call               {call: object, agent?: str | null}          the tool result {text, details}
events.subscribe   {}                                          {} — then ``event`` notifications,
                                                               a ``snapshot`` first
events.unsubscribe {}                                          {}
raw.subscribe      {sessionId, offset?: int}                   {start, end} — then ``raw`` notifications
raw.unsubscribe    {sessionId}                                 {}
session.input      {sessionId, data: base64, source?: str,     {bytesWritten, bytesQueued} (operator
                   action?: str}                               keystrokes; recorded with who sent them)
session.resize     {sessionId, cols, rows}                     {}
session.output     {sessionId, since?: int}                   {chunks: [{stream, text}], totalChars,
                                                               incremental, inputs} — when not
                                                               incremental, the whole retained text
                                                               (``Output.to_json``: head, headMax,
                                                               maxChars, tailDropped ...)
host.reexec        {}                                          {pid, version, generation, sessions} —
                                                               then the host re-executes itself (below)
=================  ==========================================  =========================================

``hostId`` names the host for as long as it lives, across re-execs; ``generation`` counts its re-execs.
``host.reexec`` (what ``openclaw-tui serve --reexec`` sends; SIGUSR2 does the same) first checks that the
code installed now can resume this host (it runs ``python -m openclaw_tui serve --check-resume``), and
refuses with error -32000 (``REFUSED``) naming why when it cannot, when a re-exec is already under way,
when the host is not a ``serve`` (a dashboard's), or when the caller runs inside a session. Otherwise it
answers, then hands over: the socket stays bound (a client connecting meanwhile waits until the new image
serves), every connection is closed without answering what it still had in flight (clients reconnect; a
read can be retried, anything else must be checked with ``list``/``poll``), and the same process, on the
new code, answers ``hello`` with the same ``pid`` and ``hostId`` and ``generation`` one higher.

Every request is answered, with its result or an error, unless it is cancelled (below). Params are
checked before anything runs: a missing, unknown or mistyped parameter is an invalid-params error
(-32602) naming it (``sessionId``, ``source`` and ``client`` are strings of valid Unicode, with no lone
surrogate, ``data`` is base64, ``offset`` and ``since`` are integers from 0, ``cols`` and ``rows``
integers from 1 to 1000). A line that is not JSON is a parse error (-32700) with id null; so are
``NaN``, ``Infinity``, numbers no float holds, nesting too deep, and a message over 256 KB holding more
than 10,000 values (such a message is decoded off the host's event loop). A reply never fails to encode:
text that UTF-8 cannot carry is escaped as JSON writes it (``\\udc80``). A request whose ``id``
is not a string, a number or null is an invalid request (-32600), answered with id null. Anything that
goes wrong inside the host is an internal error (-32603), logged on the host's stderr; the connection
keeps serving either way. Input the session cannot take (its stdin closed, or its input queue full, when
nothing of it is taken) is refused with -32001 and the words the ``process`` tool's failure uses, since
``session.input`` goes the same one way into a session as the tool's ``write``.

The host itself answers the terminal queries PTY programs send (cursor position, device status and
attributes), whether or not any client views the session, so clients never send replies.

A ``cancel`` notification {id} from the client cancels its request with that id if it still runs (a
cancelled foreground ``exec`` ends its run, as in-process); the cancelled request gets no answer.

Notifications (host → client): ``event`` {kind, sessionId, data}, ``data`` the payload of that kind as
``Event.to_json`` writes it (``core/session/events.py``, which reads it back too), and ``raw`` {sessionId,
offset, data: base64, size: [cols, rows] | null, sizes: [[offset, cols, rows], ...]}. A ``raw`` offset larger than
the previous end means bytes were dropped in between (the subscriber was too slow for the ring): terminal
views catch up from the tail. ``size`` is the PTY size the bytes at ``offset`` were written for and
``sizes`` every resize among them, at its offset: the client's copy of the ring replays them where they
happened (a resize with no output comes as a ``raw`` with no data). A session's details carry its PTY's
current size as ``ptySize`` {cols, rows} (null for a pipe session).
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from typing import Any

PROTOCOL_VERSION = 1
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
INPUT_REFUSED = -32001  # in JSON-RPC's range for the server's own errors
REFUSED = -32000  # the host will not do it (``host.reexec``: the message says why)
MAX_LINE = 64 << 20

METHODS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # method: (required params, optional params), as in the table above
    "hello": ((), ("client",)),
    "call": (("call",), ("agent",)),
    "events.subscribe": ((), ()),
    "events.unsubscribe": ((), ()),
    "raw.subscribe": (("sessionId",), ("offset",)),
    "raw.unsubscribe": (("sessionId",), ()),
    "session.input": (("sessionId", "data"), ("source", "action")),
    "session.resize": (("sessionId", "cols", "rows"), ()),
    "session.output": (("sessionId",), ("since",)),
    "host.reexec": ((), ()),
}
"""The requests, by name: the parameters each must and may have. ``cancel`` is a notification, not in it."""


class MessageTooLarge(ValueError):
    """A message longer than ``MAX_LINE``: the other side would drop the connection rather than read it."""


class RemoteError(Exception):
    """A JSON-RPC error answered by the host."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def in_callers_directory(call: dict[str, Any], cwd: str) -> dict[str, Any]:
    """``call`` with ``cwd`` as its workdir if it is an exec call that names none.

    A client in another process (an agent's MCP server, ``openclaw-tui call``) means its own working
    directory, usually the agent's project, not the one the shared host happened to start in. Not for a
    run on a node (``host: "node"``): this machine's directory means nothing there, so it runs in the node
    host's own.
    """
    if call.get("tool") == "exec" and call.get("workdir") is None and call.get("host") != "node":
        return {**call, "workdir": cwd}
    return call


READS = frozenset({"list", "poll", "log", "screen"})
"""The ``process`` actions a client may send again when the host restarted while they ran: they only read
(a poll that ran before the restart may have taken output the retry then lacks; ``log`` still has it)."""
RESTARTED = ("the openclaw-tui host restarted (re-executed itself in place, keeping its sessions) while this "
             "call ran, so its outcome is unknown; check with list/poll before retrying")


def retry_safe(call: dict[str, Any]) -> bool:
    """Whether ``call`` may be sent again after the host restarted while it ran (see ``READS``)."""
    return call.get("tool") == "process" and call.get("action") in READS


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line. Text that UTF-8 cannot carry (a lone surrogate echoed back in an error) is
    escaped as JSON writes it (``\\udc80``), so encoding never fails and every request is answered."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError:  # surrogates only ever stand inside JSON strings, where \uXXXX is their escape
        return text.encode("utf-8", "backslashreplace") + b"\n"


def request(id_: int, method: str, params: dict[str, Any]) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})


def notification(method: str, params: dict[str, Any]) -> bytes:
    return encode({"jsonrpc": "2.0", "method": method, "params": params})


def response(id_: Any, result: Any) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "result": result})


def error(id_: Any, code: int, message: str) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})
