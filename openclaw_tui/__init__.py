"""openclaw-tui: run and supervise the shell jobs AI agents start.

The public Python API is :class:`ToolHost`: ``await host.call({"tool": "exec", ...}, agent="main")``.
It is imported on first use, so a command that needs none of the host (``openclaw-tui call``, which
scripts run in loops) starts without loading it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: importing it costs a script a few ms per call

if TYPE_CHECKING:
    from .toolhost import ToolHost

from .core.version import __version__

__all__ = ["ToolHost", "__version__"]


def __getattr__(name: str) -> object:
    if name == "ToolHost":
        from .toolhost import ToolHost

        return ToolHost
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
