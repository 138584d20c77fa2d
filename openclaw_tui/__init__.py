"""openclaw-tui: run and supervise the shell jobs AI agents start.

The public Python API is :class:`ToolHost`: ``await host.call({"tool": "exec", ...}, agent="main")``.
"""

from .core.host import ToolHost

__all__ = ["ToolHost"]
__version__ = "0.1.0"
