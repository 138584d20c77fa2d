"""Bad requests on the raw socket: each one answered with a JSON-RPC error naming the problem, and the
connection keeps serving."""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

from openclaw_tui.remote.server.hostserver import HANDLERS
from openclaw_tui.remote.wire import protocol as p
from openclaw_tui.remote.wire.client import HostClient

DEADLINE_S = 20.0


class Wire:
    """One raw connection: send any JSON, read the answers by id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def send(self, message: Any) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    async def answer(self) -> dict[str, Any]:
        """The next answer (notifications skipped); the connection must still be open."""
        while True:
            line = await asyncio.wait_for(self.reader.readline(), DEADLINE_S)
            assert line, "the host closed the connection"
            msg = json.loads(line)
            if "method" not in msg:
                return msg


async def _wire(sock) -> Wire:
    return Wire(*await asyncio.open_unix_connection(str(sock)))


async def _pty_session(sock) -> str:
    async with await HostClient.connect(sock) as client:
        r = await client.call({"tool": "exec", "command": "cat", "pty": True, "background": True}, agent="a")
        return str(r["details"]["sessionId"])


async def _error_for(wire: Wire, method: str, params: Any) -> dict[str, Any]:
    wire.send({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
    reply = await wire.answer()
    assert reply["id"] == 7 and "error" in reply, reply
    return dict(reply["error"])


async def test_bad_params_are_invalid_params_errors_naming_the_parameter(served) -> None:
    host, sock = served
    sid = await _pty_session(sock)
    wire = await _wire(sock)
    bad = [
        ("session.input", {"sessionId": sid, "data": "%%% not base64"}, "data"),
        ("session.input", {"sessionId": sid, "data": 5}, "data"),
        ("session.input", {"sessionId": sid, "data": "eA==", "source": ["x"]}, "source"),
        ("session.resize", {"sessionId": sid, "cols": "abc", "rows": 30}, "cols"),
        ("session.resize", {"sessionId": sid, "cols": -5, "rows": 30}, "cols"),
        ("session.resize", {"sessionId": sid, "cols": 80, "rows": 1000000}, "rows"),
        ("session.resize", {"sessionId": sid, "cols": True, "rows": 30}, "cols"),
        ("raw.subscribe", {"sessionId": sid, "offset": 1.5}, "offset"),
        ("raw.subscribe", {"sessionId": ["x"]}, "sessionId"),
        ("raw.unsubscribe", {"sessionId": {"a": 1}}, "sessionId"),
        ("session.output", {"sessionId": sid, "since": "yesterday"}, "since"),
        ("call", {"call": {"tool": "process", "action": "list"}, "agent": 3}, "agent"),
        ("hello", {"client": None}, "client"),
    ]
    for method, params, name in bad:
        error = await _error_for(wire, method, params)
        assert error["code"] == -32602 and name in error["message"], (method, params, error)
    assert host.session(sid).pty_size != (-5, 30)
    wire.send({"jsonrpc": "2.0", "id": 8, "method": "session.resize", "params": {"sessionId": sid, "cols": 100,
                                                                                   "rows": 40}})
    assert (await wire.answer()) == {"jsonrpc": "2.0", "id": 8, "result": {}}
    wire.writer.close()


async def test_an_id_that_is_not_a_string_number_or_null_is_an_invalid_request(served) -> None:
    _, sock = served
    wire = await _wire(sock)
    for id_ in ([1], {"a": 1}, True):
        wire.send({"jsonrpc": "2.0", "id": id_, "method": "hello", "params": {}})
        reply = await wire.answer()
        assert reply["id"] is None and reply["error"]["code"] == -32600, reply
    wire.send({"jsonrpc": "2.0", "method": "cancel", "params": {"id": [1]}})  # a notification: no answer
    wire.send({"jsonrpc": "2.0", "id": "last", "method": "hello", "params": {}})
    reply = await wire.answer()
    assert reply["id"] == "last" and reply["result"]["protocol"] == 1
    wire.writer.close()


async def test_deeply_nested_json_is_a_parse_error(served) -> None:
    _, sock = served
    wire = await _wire(sock)
    wire.writer.write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    reply = await wire.answer()
    assert reply["error"]["code"] == -32700
    wire.send({"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {}})
    assert (await wire.answer())["result"]["protocol"] == 1
    wire.writer.close()


def test_the_server_handles_exactly_the_protocols_methods_with_their_params() -> None:
    assert HANDLERS.keys() == p.METHODS.keys()
    for method, handler in HANDLERS.items():
        required, optional = p.METHODS[method]
        params = list(inspect.signature(handler).parameters.values())[1:]  # after the connection
        assert [q.name for q in params if q.default is q.empty] == list(required), method
        assert [q.name for q in params if q.default is not q.empty] == list(optional), method


async def test_a_missing_or_unknown_param_is_named_with_what_the_method_takes(served) -> None:
    _, sock = served
    wire = await _wire(sock)
    error = await _error_for(wire, "session.resize", {"sessionId": "x", "cols": 80})
    assert error["code"] == -32602 and "missing param 'rows'" in error["message"], error
    assert "sessionId, cols, rows" in error["message"]
    error = await _error_for(wire, "hello", {"client": "x", "colour": "blue"})
    assert error["code"] == -32602 and "unknown param 'colour'" in error["message"] and "client?" in error["message"]
    error = await _error_for(wire, "session.resize", ["x", 80, 24])
    assert error["code"] == -32602 and "params must be an object" in error["message"]
    wire.writer.close()
