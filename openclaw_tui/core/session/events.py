"""What happened to sessions, for whoever watches: the dashboard, the socket server, the MCP server.

A consumer that cannot keep up with output listens through an :class:`OutputCoalescer`.
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
HOST_LINK = "host-link"  # from such a mirror: its link changed, data {"link": connecting|live|reconnecting|gone, "why"}
MUTED = "session-muted"  # the operator muted or unmuted it (its details say which)
ATTENTION = "host-attention"  # the host notified the operator: data the batch's fields, "text", "count", "bell"
APPROVAL_REQUESTED = "approval-requested"  # a run waits for the operator's approval (exec approvals)
NODE_UNREACHABLE = "node-unreachable"  # a node's link dropped: data {"node", "why"}


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

        def enqueue(event: Event) -> None:
            if queue.qsize() < max_queue:
                queue.put_nowait(event)

        coalesced = OutputCoalescer(enqueue)
        unsubscribe = self.subscribe(coalesced)
        try:
            while True:
                event = await queue.get()
                if event.kind == OUTPUT and event.session_id is not None:
                    coalesced.handled(event.session_id)
                yield event
        finally:
            unsubscribe()


class OutputCoalescer:
    """A listener that passes every event on to ``listener``, except that a session's output is passed once
    and then held back until :meth:`handled` says the consumer has caught up with that session.

    Output events carry no data (the consumer reads what is new from the session), so the ones held back
    lose nothing: one pending event per session says all they would have said.
    """

    def __init__(self, listener: Listener) -> None:
        self._listener = listener
        self._pending: set[str] = set()

    def __call__(self, event: Event) -> None:
        if event.kind == OUTPUT and event.session_id is not None:
            if event.session_id in self._pending:
                return
            self._pending.add(event.session_id)
        self._listener(event)

    def handled(self, session_id: str) -> None:
        """The consumer has caught up with ``session_id``'s output: its next output is news again."""
        self._pending.discard(session_id)
