"""What the tools work on, and nothing more: the narrow side of the host that ``exec`` and ``process`` see.

The host's :class:`~openclaw_tui.core.host.supervisor.Supervisor` is the one implementation; a test could give
the tools another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ..approvals import Approvals
from ..config import ExecSettings, Settings
from ..journal import Journal
from ..session import Recording, Registry, Replier, Session, Window
from .exitnotices import Notices

if TYPE_CHECKING:
    from .nodecalls import Nodes


class TerminalEngine(Protocol):
    """What a terminal engine does for the host. The core knows no terminal: without an engine, PTY
    programs' queries go unanswered and the ``screen`` action is refused."""

    def replier(self, session: Session) -> Replier:
        """The function that answers ``session``'s terminal queries."""
        ...

    def screen(self, session: Session) -> str:
        """``session``'s screen now, as text."""
        ...

    def last_line(self, session: Session) -> str:
        """The last non-empty row of ``session``'s screen now (what a waiting program asks)."""
        ...

    def cast(self, recording: Recording, window: Window) -> str:
        """``recording`` within ``window`` as asciicast v2 (thread-safe: it touches only the copy)."""
        ...


class ToolCore(Protocol):
    """The sessions as the tools see them."""

    settings: Settings
    registry: Registry
    notices: Notices
    terminal: TerminalEngine | None
    nodes: Nodes | None
    journal: Journal
    approvals: Approvals

    def spawn(self, command: str, agent: str | None, cwd: str, pty: bool, env: Mapping[str, str],
              timeout_s: float, settings: ExecSettings, script: str | None = None) -> Session:
        """Start a session and its supervision (running ``script`` instead of ``command`` when given); raises
        ``LaunchError`` (nothing registered) when refused."""
        ...

    def reserve(self, command: str, agent: str | None, cwd: str, pty: bool, settings: ExecSettings) -> Session:
        """Register a session that has not started: it waits for the operator's approval."""
        ...

    def background(self, session: Session) -> None:
        """The run leaves its exec call's yield window: listed, kept after it ends, notified on exit."""
        ...

    async def look(self, sessions: Sequence[Session]) -> None:
        """A call reads these sessions: refresh their figures (``details.resources``) if older than 2 s."""
        ...
