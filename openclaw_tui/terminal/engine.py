"""The terminal engine as the host uses it (``core.tools.TerminalEngine``): answering PTY programs' queries
and drawing a session's screen for agents, both from the session's raw output.
"""

from __future__ import annotations

from openclaw_tui.core.session import Recording, Window

from .asciicast import cast
from .ondemand import last_line, screen_text
from .replies import TerminalReplies
from .source import ScreenSource


class Engine:
    """The product's terminal engine, for ``openclaw_tui.ToolHost``."""

    def replier(self, session: ScreenSource) -> TerminalReplies:
        return TerminalReplies(session)

    def screen(self, session: ScreenSource) -> str:
        return screen_text(session)

    def last_line(self, session: ScreenSource) -> str:
        return last_line(session)

    def cast(self, recording: Recording, window: Window) -> str:
        return cast(recording, window)
