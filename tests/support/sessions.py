"""A session's whole raw ring read over the socket, as a terminal view's subscription gets it (tests, benches)."""

from __future__ import annotations

import asyncio
import base64

from openclaw_tui.remote.wire.client import HostClient


async def whole_ring(client: HostClient, sid: str, timeout: float = 60.0) -> tuple[int, bytes]:
    """``(start, bytes)``: the ring's first offset and every byte from it to its end when subscribed."""
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
