"""The terminal emulator: bytes in, a grid of styled cells out, as tmux draws them.

``parser`` splits the stream into text, controls and sequences; ``dispatch`` says which handler answers
which sequence (``editing``, ``moves``, ``scrolling``, ``modeswitch``) over the VT state (``state``) and
its cells (``grid``, ``cells``); ``reflow`` resizes as tmux does; ``screen`` is ``TerminalScreen``, and
``runs`` reads rows out as ``(text, Style)`` runs (``style``). Nothing here imports Textual or Rich.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .modeswitch import TerminalModes as TerminalModes
    from .runs import Run as Run
    from .screen import TerminalScreen as TerminalScreen
    from .style import DEFAULT_STYLE as DEFAULT_STYLE, Color as Color, Style as Style

__all__, __getattr__ = lazy_exports(__name__, __file__)
