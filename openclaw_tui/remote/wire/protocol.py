"""The host protocol, version 1: JSON-RPC 2.0 over newline-delimited JSON on a Unix socket.

It encodes and decodes messages, and :data:`METHODS` is the table of requests the package docstring documents,
which the server dispatches by.
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
    # method: (required params, optional params), as in the package docstring's table
    "hello": ((), ("client",)),
    "call": (("call",), ("agent", "operator")),
    "events.subscribe": ((), ("approver", "operator")),
    "events.unsubscribe": ((), ()),
    "figures.watch": ((), ("on",)),
    "raw.subscribe": (("sessionId",), ("offset",)),
    "raw.unsubscribe": (("sessionId",), ()),
    "session.input": (("sessionId", "data"), ("source", "action")),
    "session.resize": (("sessionId", "cols", "rows"), ()),
    "session.output": (("sessionId",), ("since", "after")),
    "session.export": (("sessionId",), ("format", "since", "until", "idleLimit", "inputs")),
    "host.reexec": ((), ()),
    "approvals.list": ((), ()),
    "approvals.history": ((), ()),
    "approvals.decide": (("approvalId", "decision"), ("reason", "patterns", "tty")),
    "notify.mute": (("muted",), ("sessionId", "agent")),
    "notify.test": ((), ()),
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


def within_limit(line: bytes) -> bytes:
    """``line``, when the other side will read it; MessageTooLarge saying how large it is, when not."""
    if len(line) >= MAX_LINE:
        raise MessageTooLarge(f"{len(line)} bytes once encoded; the host reads at most {MAX_LINE} per message")
    return line


def notification(method: str, params: dict[str, Any]) -> bytes:
    return encode({"jsonrpc": "2.0", "method": method, "params": params})


def response(id_: Any, result: Any) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "result": result})


def error(id_: Any, code: int, message: str) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})
