"""From host callbacks to Textual messages.

The host calls its listeners synchronously on the shared asyncio loop, once per event, and output events
arrive once per read from a child: far more often than anyone can look. The bridge turns each callback
into a message on the app's queue. Output becomes one pending :class:`SessionOutput` per session (a new
one is only posted after the previous was handled, and queued ones replace each other), so a flooding
child costs the UI one message per frame at most; the list-level :class:`SessionsChanged` coalesces the
same way, and also carries waiting changes (the app toasts new waiters when it syncs the list). Exits
stay individual: each deserves a toast of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message
from textual.message_pump import MessagePump

from ..core import events as ev
from ..core.host import SessionHost

_LIST_KINDS = frozenset({ev.SNAPSHOT, ev.ADDED, ev.BACKGROUNDED, ev.INPUT, ev.REMOVED, ev.WAITING, ev.EXITED})


class SessionsChanged(Message):
    """Something in the session list changed (membership, state or recorded input)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SessionsChanged)


class SessionOutput(Message):
    """New output arrived for ``session_id`` since the last such message was handled."""

    def __init__(self, session_id: str) -> None:
        super().__init__()
        self.session_id = session_id

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SessionOutput) and message.session_id == self.session_id


class SessionExited(Message):
    """A session ended; ``details`` is its state at exit, ``listed`` whether it was a background session."""

    def __init__(self, session_id: str, details: dict[str, Any], listed: bool) -> None:
        super().__init__()
        self.session_id = session_id
        self.details = details
        self.listed = listed


class HostGone(Message):
    """The host of an attached dashboard went away: the sessions shown are no longer live."""


class HostBridge:
    """Subscribes ``target`` to ``host`` events until :meth:`close`."""

    def __init__(self, host: SessionHost, target: MessagePump) -> None:
        self.host = host
        self.target = target
        self._output_pending: set[str] = set()
        self._list_pending = False
        self._unsubscribe: Callable[[], None] | None = host.subscribe(self._on_event)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def output_handled(self, session_id: str) -> None:
        """Call when a :class:`SessionOutput` was handled, so the next output posts a new one."""
        self._output_pending.discard(session_id)

    def list_handled(self) -> None:
        self._list_pending = False

    def _on_event(self, event: ev.Event) -> None:
        sid = event.session_id
        if event.kind == ev.HOST_GONE:
            self.target.post_message(HostGone())
            return
        if event.kind == ev.OUTPUT and sid is not None:
            if sid not in self._output_pending:
                self._output_pending.add(sid)
                self.target.post_message(SessionOutput(sid))
            return
        if event.kind == ev.EXITED and sid is not None:
            session = self.host.session(sid)
            listed = session is not None and session.backgrounded
            self.target.post_message(SessionExited(sid, dict(event.data), listed))
        if event.kind in _LIST_KINDS and not self._list_pending:
            self._list_pending = True
            self.target.post_message(SessionsChanged())
