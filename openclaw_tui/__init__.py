"""openclaw-tui: run and supervise the shell jobs AI agents start.

The public Python API is :class:`ToolHost`: ``await host.call({"tool": "exec", ...}, agent="main")``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from .core.config import Settings
from .core.host import ToolHost as CoreHost
from .core.session import Replier, Session
from .terminal.ondemand import screen_text
from .terminal.replies import TerminalReplies

__version__ = "0.1.0"


class ToolHost(CoreHost):
    """The product's host: the core's :class:`~openclaw_tui.core.host.ToolHost` with the terminal engine
    answering PTY programs' terminal queries (cursor position, status, attributes) as a terminal would,
    whether or not a dashboard is watching, and drawing their screens for the ``screen`` action. Every
    frontend (dashboard, ``serve``) runs this one."""

    def __init__(
        self,
        config_path: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        settings: Settings | None = None,
        replier: Callable[[Session], Replier] | None = TerminalReplies,
        screen_reader: Callable[[Session], str] | None = screen_text,
    ) -> None:
        super().__init__(config_path, env, settings, replier, screen_reader)


__all__ = ["ToolHost"]
