"""Raw output pushed to one connection: a session's bytes and terminal sizes from an offset, at the pace the
client reads (the ring is the buffer, so a slow client never makes the host hold more)."""

from __future__ import annotations

import asyncio
import base64
from typing import Protocol

from openclaw_tui.core.session import Session

from ..wire import protocol as p

HIGH_WATER = 4 << 20  # bytes queued to a client before raw pushes wait
RAW_CHUNK = 256 << 10


class Pushed(Protocol):
    """What a push needs of its connection."""

    closed: bool

    @property
    def backlog(self) -> int: ...

    def send(self, data: bytes) -> None: ...


class RawSubscription:
    """Pushes a session's raw bytes and terminal sizes to one connection from an offset, never more than it
    can take. Each push says the size in force where its bytes start and every resize among them, so the
    client's copy of the ring replays exactly as the host's (a resize with no output is pushed too)."""

    def __init__(self, conn: Pushed, session: Session, offset: int) -> None:
        self.conn = conn
        self.session = session
        self.offset = offset
        self.sizes_sent = -1  # mark number the client has every size up to; the first push always goes
        self.scheduled = False
        self.unsubscribe = session.add_raw_listener(self.schedule)

    def schedule(self) -> None:
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.push)

    def push(self) -> None:
        self.scheduled = False
        if self.conn.closed:
            return
        if self.conn.backlog > HIGH_WATER:  # the client is behind: look again shortly, from the ring
            self.scheduled = True
            asyncio.get_running_loop().call_later(0.02, self.push)
            return
        ring = self.session.raw
        start, data = ring.read(self.offset, RAW_CHUNK)
        if not data and self.sizes_sent >= ring.marks_end:
            return
        end = start + len(data)
        if self.sizes_sent < 0 or start > self.offset:  # the first push, or bytes were lost: start afresh
            self.sizes_sent = ring.first_mark_after(start)
        marks = [m for m in ring.marks_from(self.sizes_sent) if m.offset <= end]
        self.sizes_sent = max(self.sizes_sent, ring.marks_base) + len(marks)
        self.offset = end
        payload = {"sessionId": self.session.id, "offset": start, "data": base64.b64encode(data).decode(),
                   "size": ring.size_at(start), "sizes": [list(m) for m in marks]}
        self.conn.send(p.notification("raw", payload))
        if self.offset < ring.end:
            self.schedule()

    def stop(self) -> None:
        self.unsubscribe()
