"""From host events to Textual messages (:mod:`.messages`).

It listens through the core's :class:`~openclaw_tui.core.session.events.OutputCoalescer`, so a flooding child
costs the UI one message per frame at most.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message_pump import MessagePump

from openclaw_tui.core.session import events as ev
from openclaw_tui.remote.mirror import HostView

from .messages import HostAttention, HostGone, HostLinkChanged, SessionExited, SessionOutput, SessionsChanged

_LIST_KINDS = frozenset({ev.SNAPSHOT, ev.ADDED, ev.BACKGROUNDED, ev.INPUT, ev.REMOVED, ev.WAITING, ev.EXITED,
                         ev.MUTED})


class HostBridge:
    """Subscribes ``target`` to ``host`` events until :meth:`close`."""

    def __init__(self, host: HostView, target: MessagePump) -> None:
        self.host = host
        self.target = target
        self._list_pending = False
        self._events = ev.OutputCoalescer(self._on_event)
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

    def _on_event(self, event: ev.Event) -> None:
        sid = event.session_id
        if event.kind == ev.HOST_GONE:
            self.target.post_message(HostGone(event.data.get("why", "")))
            return
        if event.kind == ev.HOST_LINK or (event.kind == ev.SNAPSHOT and "link" in event.data):
            self.link, self.where = event.data["link"], event.data.get("where", "")
            self.target.post_message(HostLinkChanged(event.data["link"], event.data.get("why", ""),
                                              event.data.get("where", "")))
            if event.kind == ev.HOST_LINK:
                return
        if event.kind == ev.OUTPUT and sid is not None:
            self.target.post_message(SessionOutput(sid))
            return
        if event.kind == ev.ATTENTION:
            self.target.post_message(HostAttention(dict(event.data)))
            return
        if event.kind == ev.EXITED and sid is not None:
            session = self.host.session(sid)
            listed = session is not None and session.backgrounded
            self.target.post_message(SessionExited(sid, dict(event.data), listed))
        if event.kind in _LIST_KINDS and not self._list_pending:
            self._list_pending = True
            self.target.post_message(SessionsChanged())
