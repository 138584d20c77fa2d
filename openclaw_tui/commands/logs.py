"""``openclaw-tui logs ID [-f] [--raw] [--since 5m]``: a session's output, as ``docker logs`` prints a
container's.

The retained text (head, a marker of what was dropped, tail), or with ``--raw`` the PTY's bytes from the raw
ring; ``-f`` goes on printing as output comes and exits 0 once the session has ended and its last output is
printed. It reads the session's copy of the output and never drains what an agent's next poll returns.
"""

from __future__ import annotations

import asyncio
import base64
import sys
from typing import Any

from openclaw_tui.core.session import EventKind, Output, when_ms

from .opclient import CannotCall, connect, request, run


def since_ms(value: str, now: float | None = None) -> int:
    """``--since``: a span back from now (``90s``, ``5m``, ``1h30m``) or an ISO time, in ms since the epoch."""
    try:
        return when_ms(value, now)
    except ValueError as exc:
        raise CannotCall(f"--since {exc}") from None


class _Follower:
    """One session's output on one connection: what was printed so far, and whether the session ended."""

    def __init__(self, session_id: str, raw: bool) -> None:
        self.id = session_id
        self.raw = raw
        self.seen = 0  # text characters printed, or raw offset reached
        self.ended = asyncio.Event()
        self.news = asyncio.Event()
        self.raw_end: int | None = None

    def on_message(self, method: str, params: dict[str, Any]) -> None:
        if method == "raw" and params.get("sessionId") == self.id:
            data = base64.b64decode(params["data"])
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            self.seen = params["offset"] + len(data)
            self.news.set()
        elif method == "event" and params.get("sessionId") == self.id:
            kind = params.get("kind")
            if kind in (EventKind.EXITED, EventKind.REMOVED) or (params.get("data") or {}).get("status") not in (None, "running"):
                self.ended.set()
            self.news.set()

    def print_text(self, answer: dict[str, Any]) -> None:
        if answer.get("incremental"):
            text = "".join(c["text"] for c in answer["chunks"])
        else:  # the whole retained text; a reader that fell behind the tail gets a marker of the gap
            text = Output.from_json(answer).full_text()
        sys.stdout.write(text)
        sys.stdout.flush()
        self.seen = answer["totalChars"]


def run_logs(session_id: str, follow: bool, raw: bool, since: str | None) -> int:
    async def main() -> int:
        after = since_ms(since) if since is not None else None
        async with await connect("logs") as client:
            follower = _Follower(session_id, raw)
            snapshot: list[dict[str, Any]] = []
            client.listen(lambda m, prm: snapshot.extend((prm.get("data") or {}).get("sessions", []))
                          if m == "event" and prm.get("kind") == EventKind.SNAPSHOT else None)
            client.listen(follower.on_message)
            await request(client, "events.subscribe", {"operator": True})  # refused inside a session; the
            # snapshot it sends first has been heard by now
            found = next((d for d in snapshot if d["sessionId"] == session_id), None)
            if found is None:
                print(f"openclaw-tui: no session {session_id!r} (openclaw-tui ls lists them)", file=sys.stderr)
                return 1
            if found.get("status") != "running":
                follower.ended.set()
            return await (_raw if raw else _text)(client, follower, after, follow)

    return run(main)


async def _text(client: Any, f: _Follower, after: int | None, follow: bool) -> int:
    params: dict[str, Any] = {"sessionId": f.id, **({"after": after} if after is not None else {})}
    f.print_text(await request(client, "session.output", params))
    while follow:
        ended = f.ended.is_set()
        if not ended:
            await f.news.wait()
            f.news.clear()
        f.print_text(await request(client, "session.output", {"sessionId": f.id, "since": f.seen}))
        if ended:
            break
    return 0


async def _raw(client: Any, f: _Follower, after: int | None, follow: bool) -> int:
    start = None
    if after is not None:
        start = (await request(client, "session.output", {"sessionId": f.id, "after": after}))["rawFrom"]
    answer = await request(client, "raw.subscribe", {"sessionId": f.id, **({"offset": start} if start else {})})
    end = answer["end"]
    while True:
        if follow and f.ended.is_set():  # what the ring holds now is the last of it
            end = (await request(client, "raw.subscribe", {"sessionId": f.id, "offset": f.seen}))["end"]
        if f.seen >= end and (not follow or f.ended.is_set()):
            return 0
        await f.news.wait()
        f.news.clear()
