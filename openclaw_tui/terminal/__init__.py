"""The layer between a session's raw PTY bytes and what a dashboard draws.

``TerminalScreen`` turns bytes into a grid of styled cells; ``LiveView`` binds a screen to a session's raw
output ring (a ``RawSource``) and feeds it on a per-frame time budget, at the PTY sizes recorded in the
ring, catching up from the tail when the child writes faster than the screen can parse. Painters read rows of ``(text, Style)`` runs. Nothing here
imports Textual or Rich, so the engine can be tested, benchmarked and swapped on its own.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .emulator import (
        DEFAULT_STYLE as DEFAULT_STYLE,
        Style as Style,
        TerminalModes as TerminalModes,
        TerminalScreen as TerminalScreen,
    )
    from .engine import Engine as Engine
    from .liveview import LiveView as LiveView
    from .source import RawSource as RawSource

__all__, __getattr__ = lazy_exports(__name__, __file__)
