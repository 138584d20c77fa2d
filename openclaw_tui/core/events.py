"""What happened to sessions, for whoever watches: the dashboard, the socket server, the MCP server.

Subscribers get a snapshot first and then every change, through a plain callback called on the loop
(no Textual here: the UI turns callbacks into its own messages). Output arrives far faster than anyone
can look at it, so ``watch()`` queues for async consumers coalesce output events per session instead of
piling them up; everything else is delivered in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

SNAPSHOT = "snapshot"
ADDED = "session-added"
BACKGROUNDED = "session-backgrounded"
OUTPUT = "session-output"
WAITING = "session-waiting"
INPUT = "session-input"
EXITED = "session-exited"
REMOVED = "session-removed"
NOTIFICATION = "exit-notification"
JOURNAL = "host-journal"  # whether sessions are saved to disk changed: data {"saving", "problem"}
HOST_GONE = "host-gone"  # from a mirror of a host in another process (attach) whose connection was lost


@dataclass(frozen=True)
class Event:
    kind: str
    session_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[Event], None]


class EventBus:
    """Fan-out of session events to callbacks; a failing listener is dropped, never the host."""

    def __init__(self, snapshot: Callable[[], Event]) -> None:
        self._listeners: list[Listener] = []
        self._snapshot = snapshot

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with a snapshot now and with every event from now on."""
        listener(self._snapshot())
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    @property
    def active(self) -> bool:
        return bool(self._listeners)

    def publish(self, event: Event) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken subscriber must not break ingest
                self._listeners.remove(listener)

    async def watch(self, max_queue: int = 10_000) -> AsyncIterator[Event]:
        """Async iteration over events (snapshot first), coalescing output events per session."""
        queue: asyncio.Queue[Event] = asyncio.Queue()
        pending_output: set[str] = set()

        def listener(event: Event) -> None:
            if event.kind == OUTPUT and event.session_id is not None:
                if event.session_id in pending_output:
                    return
                pending_output.add(event.session_id)
            if queue.qsize() < max_queue:
                queue.put_nowait(event)

        unsubscribe = self.subscribe(listener)
        try:
            while True:
                event = await queue.get()
                if event.kind == OUTPUT and event.session_id is not None:
                    pending_output.discard(event.session_id)
                yield event
        finally:
            unsubscribe()
