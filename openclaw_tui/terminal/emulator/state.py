"""What a terminal screen holds: the grid, and the VT state over it (cursor, margins, modes, charsets, tabs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .cells import DEFAULT_CELL, Cell, CellCache, blank_of, cells_of
from .grid import HISTORY_LINES, Grid
from .style import DEFAULT_STYLE

TAB_WIDTH = 8  # tab stops at power-on: every eight columns


class Cursor:
    """Where the next character goes, and the cell it is drawn with (``attrs``: a blank in the pen style)."""

    __slots__ = ("attrs", "x", "y")

    def __init__(self, x: int = 0, y: int = 0, attrs: Cell = DEFAULT_CELL) -> None:
        self.x = x
        self.y = y
        self.attrs = attrs


class Margins(NamedTuple):
    """The scroll region: rows ``top`` to ``bottom``, inclusive."""

    top: int
    bottom: int


class SavedCursor(NamedTuple):
    """What DECSC (``ESC 7``, ``CSI s``, ``?1048``, ``?1049``) saves and DECRC brings back."""

    x: int
    y: int
    attrs: Cell
    graphics: tuple[bool, bool]
    shift: int
    origin: bool
    autowrap: bool


class ScreenState:
    """A ``cols`` x ``rows`` screen's grid and VT state at power-on.

    Args:
        cols: width in cells.
        rows: height in cells.
        on_reply: receives the bytes a terminal would send back for queries (``ESC[6n``, ``ESC[c`` ...).
        history: the most rows scrolled off the top that are kept (enough for resizes, by default).
    """

    def __init__(self, cols: int, rows: int, on_reply: Callable[[bytes], None] | None = None,
                 history: int = HISTORY_LINES) -> None:
        self.on_reply = on_reply
        self.grid = Grid(cols, rows, history)
        self._power_on()

    def reset(self) -> None:
        """RIS (``ESC c``): everything back to power-on, main screen blank (the history kept for resizes
        stays, as in tmux: only ``ESC [ 3 J`` clears it)."""
        self.grid.reset()
        self._power_on()

    def _power_on(self) -> None:
        self.cursor = Cursor()
        self.margins: Margins | None = None
        self.autowrap = True  # DECAWM
        self.cursor_shown = True  # DECTCEM
        self.origin = False  # DECOM
        self.insert = False  # IRM
        self.newline = False  # LNM
        self.private_modes: dict[int, bool] = {}  # as the program last set them, by number
        self.app_keypad = False
        self.graphics = [False, False]  # G0 and G1: DEC line drawing designated
        self.shift = 0  # which of them is in use (SO/SI)
        self.joining = False  # the last character drawn was a zero-width joiner
        self.last_char = ""  # for REP
        self.cells: CellCache = cells_of(DEFAULT_STYLE)  # the pen's cells, per character
        self.saved: SavedCursor | None = None
        self.saved_for_alt: SavedCursor | None = None  # ?1049's own save
        self.tabstops = set(range(TAB_WIDTH, self.grid.width, TAB_WIDTH))
        self.title = ""  # the window title a program set (OSC 0 or 2)

    def reply(self, data: bytes) -> None:
        if self.on_reply is not None:
            self.on_reply(data)

    def blank(self) -> Cell:
        """The cell an erase leaves behind: a space in the pen's background colour (xterm and tmux)."""
        return blank_of(self.cursor.attrs.style)

    def current_cells(self) -> CellCache:
        """Cells in the pen's style; remembered, since the style changes far less often than text runs."""
        cells = self.cells
        style = self.cursor.attrs.style
        if cells.style is not style:
            cells = self.cells = cells_of(style)
        return cells

    def region(self) -> tuple[int, int]:
        """The scroll region's top and bottom rows (the whole screen without margins)."""
        return (self.margins.top, self.margins.bottom) if self.margins else (0, self.grid.height - 1)

    def ensure_hbounds(self) -> None:
        """Keep the cursor on the screen horizontally."""
        self.cursor.x = min(max(0, self.cursor.x), self.grid.width - 1)

    def ensure_vbounds(self, use_margins: bool = False) -> None:
        """Keep the cursor on the screen vertically (in the scroll region: origin mode, or ``use_margins``)."""
        if (use_margins or self.origin) and self.margins is not None:
            top, bottom = self.margins
        else:
            top, bottom = 0, self.grid.height - 1
        self.cursor.y = min(max(top, self.cursor.y), bottom)
