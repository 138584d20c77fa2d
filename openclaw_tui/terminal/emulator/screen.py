"""The terminal screen: what a session's PTY output looks like right now.

``TerminalScreen`` is the screen state (:mod:`.state`) fed by its own parser (:mod:`.parser`), with each
escape sequence dispatched by name (:mod:`.dispatch`), so that it draws what tmux draws for the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable

from openclaw_tui.core.vt import sequences as vt

from .cells import Cell, CellCache, cells_of, line_cells
from .dispatch import CSI, ESC, SECONDARY_DA, report_device_status
from .editing import alignment_display, draw
from .grid import HISTORY_LINES
from .modeswitch import TerminalModes, modes_of, reset_mode, set_mode, soft_reset
from .moves import backspace, carriage_return, tab
from .parser import ByteParser, int_params
from .runs import Run, history_runs, row_runs, text_rows
from .scrolling import down, linefeed
from .state import TAB_WIDTH, ScreenState
from .style import DEFAULT_STYLE, Style, apply_sgr

_SGR_CELLS: dict[tuple[int, str], tuple[Style, CellCache]] = {}
_PRIVATE_ERASES = (vt.ED, vt.EL)  # DECSED and DECSEL: erased as ED and EL (no protected cells here)
_OSC_TITLES = ("0", "2")  # OSC 0 sets the icon name and the window title, OSC 2 the title alone


class TerminalScreen(ScreenState):
    """A ``cols`` x ``rows`` screen fed with raw bytes.

    Args:
        cols: width in cells.
        rows: height in cells.
        on_reply: receives the bytes a terminal would send back for queries (``ESC[6n``, ``ESC[c`` ...).
        history: the most rows scrolled off the top that are kept (enough for resizes, by default; a
            session's scrollback keeps far more).
    """

    def __init__(self, cols: int, rows: int, on_reply: Callable[[bytes], None] | None = None,
                 history: int = HISTORY_LINES) -> None:
        super().__init__(cols, rows, on_reply, history)
        self._parser = ByteParser(self)

    def feed(self, data: bytes) -> None:
        """Parse a piece of raw output; sequences and characters split across pieces are fine."""
        self._parser.feed(data)

    # -- what the parser calls: text and controls, then sequences ----------------------------------

    draw = draw
    backspace = backspace
    tab = tab
    linefeed = linefeed
    carriage_return = carriage_return

    def bell(self) -> None:
        """BEL: nothing to ring."""

    def shift_in(self) -> None:
        self.shift = 0

    def shift_out(self) -> None:
        self.shift = 1

    def carriage_return_linefeed(self) -> None:
        """CR LF in one call: it ends nearly every line a program prints."""
        self.cursor.x = 0
        down(self, self.blank())

    def csi(self, lead: str, params: str, inter: str, final: str) -> None:
        if not lead and not inter:
            if final == vt.SGR:
                self.sgr(params)
                return
            entry = CSI.get(final)
            if entry is not None:
                handler, arity = entry
                args = int_params(params)
                handler(self, *(args if arity < 0 else args[:arity]))
            return
        if lead == "?" and not inter:
            if final == vt.SM:
                set_mode(self, *int_params(params), private=True)
            elif final == vt.RM:
                reset_mode(self, *int_params(params), private=True)
            elif final == vt.DSR:
                report_device_status(self, (int_params(params) or (0,))[0], private=True)
            elif final in _PRIVATE_ERASES:
                CSI[final][0](self, *int_params(params)[:1])
        elif lead == ">" and final == vt.DA and not inter:
            self.reply(SECONDARY_DA)
        elif inter == "!" and final == vt.DECSTR:
            soft_reset(self)

    def sgr(self, params: str) -> None:
        """``CSI <params> m``: the commonest sequence of all, so its outcome is cached per (style, params)."""
        style = self.cursor.attrs.style
        key = (id(style), params)  # ints and strs hash in C; the identity check below guards reused ids
        entry = _SGR_CELLS.get(key)
        if entry is None or entry[0] is not style:
            if len(_SGR_CELLS) > 4096:
                _SGR_CELLS.clear()
            entry = _SGR_CELLS[key] = (style, cells_of(apply_sgr(style, params)))
        self.cells = entry[1]
        self.cursor.attrs = entry[1][" "]

    def esc(self, inter: str, final: str) -> None:
        if not inter:
            handler = ESC.get(final)
            if handler is not None:
                handler(self)
        elif inter in (vt.G0, vt.G1):
            self.graphics[0 if inter == vt.G0 else 1] = final == vt.DEC_GRAPHICS
        elif inter == "#" and final == vt.DECRC:
            alignment_display(self)

    def osc(self, payload: str) -> None:
        code, _, text = payload.partition(";")
        if code in _OSC_TITLES:
            self.title = text

    # -- resets and size -------------------------------------------------------------------------

    def restart(self) -> None:
        """Blank power-on state, forgetting half-read input and the history: the view rebuilds from here."""
        self.reset()
        self.grid.clear_history()
        self._parser.reset()

    def skip(self) -> None:
        """Forget half-read input because the stream jumps ahead; the grid stays."""
        self._parser.reset()

    def resize(self, cols: int | None = None, rows: int | None = None) -> None:
        """New size in cells, as tmux resizes a pane (see :mod:`.reflow`): the main screen is rewrapped and
        keeps its history, the alternate screen is cut or extended and left for the program to redraw.
        tmux resets tab stops on a new width, margins on a new height."""
        grid = self.grid
        cols, rows = cols or grid.width, rows or grid.height
        if (cols, rows) == (grid.width, grid.height):
            return
        if cols != grid.width:
            self.tabstops = set(range(TAB_WIDTH, cols, TAB_WIDTH))
        if rows != grid.height:
            self.margins = None
        self.cursor.x, self.cursor.y = grid.resize(cols, rows, (self.cursor.x, self.cursor.y))

    # -- reading -----------------------------------------------------------------------------------

    @property
    def cols(self) -> int:
        return self.grid.width

    @property
    def rows(self) -> int:
        return self.grid.height

    @property
    def cursor_xy(self) -> tuple[int, int]:
        """Cursor cell (x, y); a cursor waiting to wrap past the last column is shown on that column."""
        return min(self.cursor.x, self.grid.width - 1), self.cursor.y

    @property
    def cursor_visible(self) -> bool:
        return self.cursor_shown

    @property
    def alt_screen(self) -> bool:
        return self.grid.alternate

    @property
    def modes(self) -> TerminalModes:
        """The modes the dashboard must honour when it sends keys, pastes or clicks."""
        return modes_of(self)

    def display(self) -> list[str]:
        """One string per row, padded to the width; a wide character appears once."""
        return text_rows(self.grid)

    def row_cells(self, y: int) -> list[Cell]:
        """The full width of row ``y`` as cells (a wide character's stub has empty ``data``)."""
        return self.grid.row_cells(y)

    def row_runs(self, y: int, show_cursor: bool = True) -> list[Run]:
        """Row ``y`` as runs of equal style; with ``show_cursor`` the visible cursor cell is its own run."""
        x, cursor_y = self.cursor_xy
        return row_runs(self.grid, y, x if show_cursor and self.cursor_shown and cursor_y == y else None)

    # -- reading the history and the screen as one list of lines (scrolling back) -----------------

    @property
    def lines(self) -> int:
        """Lines of history kept plus the screen's rows."""
        return len(self.grid.history) + self.grid.height

    @property
    def first_line(self) -> int:
        """The number of the oldest line kept, counting every line that ever scrolled into the history, so a
        line keeps its number while more arrive (until :attr:`generation` changes)."""
        return self.grid.pushed - len(self.grid.history)

    @property
    def generation(self) -> int:
        """Changes when the history is rearranged (a resize rewraps it, ``ESC[3J`` clears it)."""
        return self.grid.generation

    def line_runs(self, n: int) -> list[Run]:
        """Line ``n`` of history + screen (0: the oldest history row kept) as runs, with no cursor."""
        history = len(self.grid.history)
        return history_runs(self.grid, n) if n < history else row_runs(self.grid, n - history)

    def line_text(self, n: int) -> str:
        """Line ``n`` of history + screen as text, padded to the width; a wide character appears once."""
        history = len(self.grid.history)
        row = self.grid.history[n] if n < history else self.grid.rows[n - history]
        width = self.grid.width
        chars = [" "] * width  # only the cells a row holds are read: a search reads every line of the history
        for x, cell in row.items():
            if x < width:
                chars[x] = cell.data
        return "".join(chars)

    def line_wrapped(self, n: int) -> bool:
        """Whether line ``n`` ran on into the next by autowrap (copied text joins the two)."""
        history = len(self.grid.history)
        return (self.grid.history[n] if n < history else self.grid.rows[n - history]).wrapped

    def line_cells(self, n: int) -> list[Cell]:
        """Line ``n`` of history + screen as cells."""
        history = len(self.grid.history)
        return line_cells(self.grid.history[n], self.grid.width) if n < history else self.grid.row_cells(n - history)

    def take_dirty(self) -> set[int]:
        """Rows changed since the last call (all rows after a reset or resize); clears the set."""
        dirty = {y for y in self.grid.dirty if 0 <= y < self.grid.height}
        self.grid.dirty.clear()
        return dirty

    def touch_all(self) -> None:
        """Every row counts as changed: the painter draws them all at its next look."""
        self.grid.dirty.update(range(self.grid.height))


__all__ = ["DEFAULT_STYLE", "TerminalModes", "TerminalScreen"]
