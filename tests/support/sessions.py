"""Sessions started and read the way an agent or the operator would, over any surface.

A surface is whatever takes a tool call: a ``ToolHost``, the socket's ``HostClient``, a ``RemoteHost`` or
``FleetHost`` mirror, a test rig's ``call``, or an MCP client session (through
:func:`tests.support.mcpclients.over_mcp`). Each has an async ``call(tool_call, agent=...)`` answering a
result with ``text`` and ``details``, so one helper starts a background session on any of them.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the benchmarks that read a ring import nothing more
    from openclaw_tui import ToolHost
    from openclaw_tui.remote.wire.client import HostClient

Call = Callable[..., Awaitable[Mapping[str, Any]]]


def background_id(result: Mapping[str, Any]) -> str:
    """The id of the session an exec call with ``background`` started, asserting it is running."""
    assert result["details"]["status"] == "running" and not result.get("isError"), result
    return str(result["details"]["sessionId"])


async def start_background(call: Call, command: str, **params: Any) -> str:
    """Start ``command`` in the background through the surface's ``call`` and return the session's id,
    asserting the run is ``running``. ``agent``, when given, is who calls (passed to ``call``, as the
    surfaces take it); every other parameter goes into the exec call."""
    caller = {"agent": params.pop("agent")} if "agent" in params else {}
    result = await call({"tool": "exec", "command": command, "background": True, **params}, **caller)
    return background_id(result)


async def poll_until(host: ToolHost, sid: str, agent: str | None, predicate: Callable[[str], bool],
                     timeout: float = 20.0) -> str:
    """Poll (timed) until the accumulated output satisfies ``predicate``; returns the output."""
    seen = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await host.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 2000}, agent=agent)
        out = r["text"]
        if r["details"].get("newOutputChars"):
            seen += out
        if predicate(seen):
            return seen
        if r["details"]["status"] != "running":
            break
    raise AssertionError(f"output never matched; got {seen!r}")


async def whole_ring(client: HostClient, sid: str, timeout: float = 60.0) -> tuple[int, bytes]:
    """``(start, bytes)``: a session's raw ring read over the socket as a terminal view's subscription gets
    it, from the ring's first offset to its end when subscribed (tests, benches)."""
    chunks: dict[int, bytes] = {}
    got = asyncio.Event()
    end = 0

    def on(method: str, params: dict) -> None:
        if method == "raw" and params.get("sessionId") == sid:
            chunks[params["offset"]] = base64.b64decode(params["data"])
            if params["offset"] + len(chunks[params["offset"]]) >= end:
                got.set()

    stop = client.listen(on)
    try:
        answer = await client.request("raw.subscribe", {"sessionId": sid, "offset": 0})
        end = answer["end"]
        if end > answer["start"]:
            await asyncio.wait_for(got.wait(), timeout)
    finally:
        stop()
    await client.request("raw.unsubscribe", {"sessionId": sid})
    return answer["start"], b"".join(chunks[k] for k in sorted(chunks))
