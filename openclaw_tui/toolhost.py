"""The product's host: the core's ``ToolHost`` with the terminal engine (``openclaw_tui.ToolHost``)."""

from __future__ import annotations

from .core.host import ToolHost as CoreHost
from .terminal.engine import Engine


class ToolHost(CoreHost):
    """The product's host: the core's :class:`~openclaw_tui.core.host.ToolHost` with the terminal engine,
    which answers PTY programs' terminal queries (cursor position, status, attributes) as a terminal would,
    whether or not a dashboard is watching, and draws their screens for the ``screen`` action. Every
    frontend (dashboard, ``serve``) runs this one."""

    terminal = Engine()
