"""What the host tells the dashboard, as Textual messages: small records, the frequent ones replaceable.

:class:`~.eventbridge.HostBridge` posts them from host events; a pending :class:`SessionOutput` or
:class:`SessionsChanged` stands for every change since the last one was handled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from openclaw_tui.core.session import Notified


@dataclass
class SessionsChanged(Message):
    """Something in the session list changed: membership, state (waiting included) or recorded input."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SessionsChanged)


@dataclass
class SessionOutput(Message):
    """New output arrived for ``session_id`` since the last such message was handled."""

    session_id: str

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SessionOutput) and message.session_id == self.session_id


@dataclass
class SessionExited(Message):
    """A session ended; ``details`` is its state at exit, ``listed`` whether it was a background session."""

    session_id: str
    details: dict[str, Any]
    listed: bool


@dataclass
class HostGone(Message):
    """The host went away for good: the sessions shown are no longer live; ``why`` says how it was found."""

    why: str = ""


@dataclass
class HostLinkChanged(Message):
    """The connection to the host changed: ``link`` is connecting, live, reconnecting or gone; ``where`` is
    its socket, once known."""

    link: str
    why: str = ""
    where: str = ""


@dataclass
class HostAttention(Message):
    """The host notified the operator (``host-attention``): the batch's fields, ``text`` among them, and
    whether to ring the terminal."""

    notified: Notified
