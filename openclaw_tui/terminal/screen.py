"""The terminal screen: what a session's PTY output looks like right now.

``TerminalScreen`` is a ``pyte.Screen`` (no scrollback: that comes from the session's retained text; the
short history in :mod:`.scroll` only serves resizes) with its own byte parser (:mod:`.parser`, several
times faster than pyte's) and the fixes listed in :mod:`.grid`, :mod:`.scroll`, :mod:`.rows` and
:mod:`.modeswitch`, so that it draws what tmux draws for the same bytes (the fidelity tests hold it to
that): zero-width characters, wide characters, the alternate screen, background colour erase,
``CSI S/T/b/Z/s/u``, DEC line drawing, and resizes as tmux does them (:mod:`.reflow`). Given
``on_reply``, it answers the queries programs send (cursor position, device status and attributes); the
host uses that through :mod:`.replies`, views never do. Painters read it through ``display()``,
``row_runs()``, ``cursor_xy``, ``cursor_visible``, ``modes`` and ``take_dirty()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyte
from pyte import modes as mo
from pyte.screens import Cursor

from .cells import DEFAULT_CELL, Cell, CellCache, Row, cells_of, new_grid
from .dispatch import dispatch_tables
from .grid import GridOps
from .modeswitch import ModeSwitching, TerminalModes, _SavedCursor
from .parser import ByteParser, int_params
from .reflow import Lines
from .rows import RowOps
from .runs import RunsMixin
from .scroll import HISTORY_LINES, ScrollOps
from .style import DEFAULT_STYLE, Style, apply_sgr

_SGR_CELLS: dict[tuple[int, str], tuple[Style, CellCache]] = {}
PRIMARY_DA = b"\x1b[?62;22c"  # a VT220 with ANSI colour: what programs need to know, nothing exotic
SECONDARY_DA = b"\x1b[>1;10;0c"


class TerminalScreen(RunsMixin, ModeSwitching, GridOps, ScrollOps, RowOps, pyte.Screen):  # type: ignore[misc]  # display() is a method
    """A ``cols`` x ``rows`` screen fed with raw bytes.

    Args:
        cols: width in cells.
        rows: height in cells.
        on_reply: receives the bytes a terminal would send back for queries (``ESC[6n``, ``ESC[c`` ...).
    """

    def __init__(self, cols: int, rows: int, on_reply: Callable[[bytes], None] | None = None) -> None:
        self.on_reply = on_reply
        self._graphics = [False, False]
        self._shift = 0
        self._joining = False
        self._last_char = ""
        self._saved: _SavedCursor | None = None
        self._saved_for_alt: _SavedCursor | None = None
        self._main_buffer: Any = None
        self._main_size = (cols, rows)
        self.history: list[Row] = []
        self.hscrolled = 0
        self.private_modes: dict[int, bool] = {}
        self.app_keypad = False
        self._cells = cells_of(DEFAULT_STYLE)
        super().__init__(cols, rows)
        self._parser = ByteParser(self)

    @property
    def default_char(self) -> Cell:  # type: ignore[override]
        return DEFAULT_CELL

    def _new_buffer(self) -> list[Row]:
        return new_grid(self.lines)

    def feed(self, data: bytes) -> None:
        """Parse a piece of raw output; sequences and characters split across pieces are fine."""
        self._parser.feed(data)

    # -- state -----------------------------------------------------------------------------------

    @property
    def cols(self) -> int:
        return self.columns

    @property
    def rows(self) -> int:
        return self.lines

    @property
    def cursor_xy(self) -> tuple[int, int]:
        """Cursor cell (x, y); a cursor waiting to wrap past the last column is shown on that column."""
        return min(self.cursor.x, self.columns - 1), self.cursor.y

    @property
    def cursor_visible(self) -> bool:
        return mo.DECTCEM in self.mode

    def take_dirty(self) -> set[int]:
        """Rows changed since the last call (all rows after a reset or resize); clears the set."""
        dirty = {y for y in self.dirty if 0 <= y < self.lines}
        self.dirty.clear()
        return dirty

    # -- dispatch from the parser ----------------------------------------------------------------

    def csi(self, lead: str, params: str, inter: str, final: str) -> None:
        if not lead and not inter:
            if final == "m":
                self.sgr(params)
                return
            entry = _CSI.get(final)
            if entry is not None:
                handler, arity = entry
                args = int_params(params)
                handler(self, *(args if arity < 0 else args[:arity]))
            return
        if lead == "?" and not inter:
            if final == "h":
                self.set_mode(*int_params(params), private=True)
            elif final == "l":
                self.reset_mode(*int_params(params), private=True)
            elif final == "n":
                self.report_device_status((int_params(params) or (0,))[0], private=True)
            elif final in "JK":
                _CSI[final][0](self, *int_params(params)[:1])
        elif lead == ">" and final == "c" and not inter:
            self._reply(SECONDARY_DA)
        elif inter == "!" and final == "p":
            self.soft_reset()

    def sgr(self, params: str) -> None:
        """``CSI <params> m``: the commonest sequence of all, so its outcome is cached per (style, params)."""
        style = self.cursor.attrs.style
        key = (id(style), params)  # ints and strs hash in C; the identity check below guards reused ids
        entry = _SGR_CELLS.get(key)
        if entry is None or entry[0] is not style:
            if len(_SGR_CELLS) > 4096:
                _SGR_CELLS.clear()
            entry = _SGR_CELLS[key] = (style, cells_of(apply_sgr(style, params)))
        self._cells = entry[1]
        self.cursor.attrs = entry[1][" "]

    def esc(self, inter: str, final: str) -> None:
        if not inter:
            handler = _ESC.get(final)
            if handler is not None:
                handler(self)
        elif inter in "()" and len(inter) == 1:
            self._graphics[0 if inter == "(" else 1] = final == "0"
        elif inter == "#" and final == "8":
            self.alignment_display()

    def osc(self, payload: str) -> None:
        code, _, text = payload.partition(";")
        if code in ("0", "2"):
            self.title = text
        if code in ("0", "1"):
            self.icon_name = text

    def shift_in(self) -> None:
        self._shift = 0

    def shift_out(self) -> None:
        self._shift = 1

    def carriage_return_linefeed(self) -> None:
        """CR LF in one call: it ends nearly every line a program prints."""
        self.cursor.x = 0
        self.index()
        if mo.LNM in self.mode:
            self.cursor.x = 0

    def next_line(self) -> None:
        self.carriage_return()
        self.index()

    # -- resets and size -------------------------------------------------------------------------

    def reset(self) -> None:
        """RIS (``ESC c``): everything back to power-on, main screen blank."""
        super().reset()  # pyte's reset empties the old grid in place; the screen gets a fresh one
        self._main_buffer = None
        self.buffer = self._new_buffer()
        self.cursor = Cursor(0, 0, DEFAULT_CELL)  # type: ignore[arg-type]  # our cells stand in for pyte's Char
        self.mode = {mo.DECAWM, mo.DECTCEM}
        self.private_modes = {}
        self.app_keypad = False
        self._graphics, self._shift, self._joining, self._last_char = [False, False], 0, False, ""
        self._saved = self._saved_for_alt = None

    def restart(self) -> None:
        """Blank power-on state, forgetting any half-read input and the history: the view rebuilds from here."""
        self.reset()
        self.clear_history()
        self._parser.reset()

    def skip(self) -> None:
        """Forget half-read input because the stream jumps ahead; the grid stays."""
        self._parser.reset()

    def resize(self, cols: int | None = None, rows: int | None = None) -> None:
        """New size in cells, as tmux resizes a pane (see :mod:`.reflow`): the main screen is rewrapped and
        keeps its history, the alternate screen is cut or extended and left for the program to redraw."""
        cols, rows = cols or self.columns, rows or self.lines
        if (cols, rows) == (self.columns, self.lines):
            return
        main = self._main_buffer is None
        lines = Lines(self.history, self.buffer, self.hscrolled, main, self.cursor.x, self.cursor.y)
        lines.resize(self.columns, cols, rows, reflow=main)
        self._take_lines(lines, cols, rows)

    def _take_lines(self, lines: Lines, cols: int, rows: int) -> None:
        """Adopt the rows and cursor of a resize (tmux resets tab stops on a new width, margins on a new height)."""
        self.history = lines.history[-HISTORY_LINES:]
        self.hscrolled = min(lines.hscrolled, len(self.history))
        self.buffer = lines.visible
        self.cursor.x, self.cursor.y = lines.cursor  # x may be past a narrower width: tmux keeps it there
        if cols != self.columns:
            self.tabstops = set(range(8, cols, 8))
        if rows != self.lines:
            self.margins = None
        self.columns, self.lines = cols, rows
        self.dirty.update(range(rows))

    # -- replies ---------------------------------------------------------------------------------

    def _reply(self, data: bytes) -> None:
        if self.on_reply is not None:
            self.on_reply(data)

    def report_device_attributes(self, mode: int = 0, **kwargs: Any) -> None:
        if mode == 0:
            self._reply(PRIMARY_DA)

    def report_device_status(self, mode: int = 0, *_: int, private: bool = False) -> None:
        if mode == 5 and not private:
            self._reply(b"\x1b[0n")
        elif mode == 6:
            x, y = self.cursor_xy
            if mo.DECOM in self.mode and self.margins is not None:
                y -= self.margins.top
            if private:
                self._reply(b"\x1b[?%d;%d;1R" % (y + 1, x + 1))  # DECXCPR, with xterm's page field
            else:
                self._reply(b"\x1b[%d;%dR" % (y + 1, x + 1))


_CSI, _ESC = dispatch_tables(TerminalScreen)
__all__ = ["DEFAULT_STYLE", "TerminalModes", "TerminalScreen"]
