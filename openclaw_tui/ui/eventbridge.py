"""From host events to Textual messages (:mod:`.messages`).

It listens through the core's :class:`~openclaw_tui.core.session.events.OutputCoalescer`, so a flooding child
costs the UI one message per frame at most.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message_pump import MessagePump

from openclaw_tui.core.session import (
    Event,
    EventKind,
    LinkGone,
    LinkState,
    OutputCoalescer,
    SessionState,
    Snapshot,
)
from openclaw_tui.remote.mirror import HostView

from .messages import HostGone, HostLinkChanged, SessionExited, SessionOutput, SessionsChanged

_LIST_KINDS = frozenset({EventKind.SNAPSHOT, EventKind.ADDED, EventKind.BACKGROUNDED, EventKind.INPUT,
                         EventKind.REMOVED, EventKind.WAITING, EventKind.EXITED})


class HostBridge:
    """Subscribes ``target`` to ``host`` events until :meth:`close`."""

    def __init__(self, host: HostView, target: MessagePump) -> None:
        self.host = host
        self.target = target
        self._list_pending = False
        self._events = OutputCoalescer(self._on_event)
        self.link, self.where = "live", ""  # the link to the host as last heard (the snapshot says it at once)
        self._unsubscribe: Callable[[], None] | None = host.subscribe(self._events)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def output_handled(self, session_id: str) -> None:
        """Call when a :class:`SessionOutput` was handled, so the next output posts a new one."""
        self._events.handled(session_id)

    def list_handled(self) -> None:
        """Call when a :class:`SessionsChanged` was handled, so the next list change posts a new one."""
        self._list_pending = False

    def _on_event(self, event: Event) -> None:
        sid, payload = event.session_id, event.payload
        if isinstance(payload, LinkGone):
            self.target.post_message(HostGone(payload.why))
            return
        link = payload.link if isinstance(payload, Snapshot) else payload
        if isinstance(link, LinkState):
            self.link, self.where = link.link, link.where
            self.target.post_message(HostLinkChanged(link.link, link.why, link.where))
            if event.kind == EventKind.HOST_LINK:
                return
        if event.kind == EventKind.OUTPUT and sid is not None:
            self.target.post_message(SessionOutput(sid))
            return
        if event.kind == EventKind.EXITED and sid is not None and isinstance(payload, SessionState):
            session = self.host.session(sid)
            listed = session is not None and session.backgrounded
            self.target.post_message(SessionExited(sid, dict(payload.details), listed))
        if event.kind in _LIST_KINDS and not self._list_pending:
            self._list_pending = True
            self.target.post_message(SessionsChanged())
