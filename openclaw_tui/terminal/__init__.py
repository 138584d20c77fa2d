"""The layer between a session's raw PTY bytes and what a dashboard draws.

``TerminalScreen`` turns bytes into a grid of styled cells; ``LiveView`` binds a screen to a session's raw
output ring (a ``RawSource``) and feeds it on a per-frame time budget, at the PTY sizes recorded in the
ring, catching up from the tail when the child writes faster than the screen can parse. Painters read rows of ``(text, Style)`` runs. Nothing here
imports Textual or Rich, so the engine can be tested, benchmarked and swapped on its own.
"""

from .screen import TerminalModes, TerminalScreen
from .source import RawSource
from .style import DEFAULT_STYLE, Style
from .view import LiveView

__all__ = ["DEFAULT_STYLE", "LiveView", "RawSource", "Style", "TerminalModes", "TerminalScreen"]
