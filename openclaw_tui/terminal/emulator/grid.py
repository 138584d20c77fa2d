"""The grid: a screen's cells, the rows scrolled off its top, and the main screen kept under the alternate.

It knows rows and cells, never the cursor, the modes or the escape sequences (those are
:class:`~.screen.TerminalScreen`'s).
"""

from __future__ import annotations

from .cells import DEFAULT_CELL, STUB, Cell, Row, blank_row, cells_of, line_cells, new_grid
from .reflow import Lines

HISTORY_LINES = 1000  # rows kept for resizes; a tenth is dropped at once when full, as tmux trims its history


class Grid:
    """The cells of one terminal screen.

    Attributes:
        width, height: size in cells.
        rows: the visible rows, top first (each a sparse {column: Cell}, see :class:`~.cells.Row`).
        history: rows scrolled off the top of the main screen, oldest first (kept for resizes, and for
            scrolling back when the screen is a session's scrollback).
        history_limit: the most rows ``history`` keeps.
        hscrolled: how many of those scrolling put there (a taller screen pulls them back).
        pushed: rows ever moved into the history, so a reader can hold on to a line while more arrive.
        generation: bumped whenever the history is rearranged (a resize rewraps it, ``ESC[3J`` clears it).
        dirty: rows changed since the painter last took them.
    """

    __slots__ = ("_main", "_main_size", "dirty", "generation", "height", "history", "history_limit", "hscrolled",
                 "pushed", "rows", "width")

    def __init__(self, width: int, height: int, history_limit: int = HISTORY_LINES) -> None:
        self.width, self.height = width, height
        self.rows: list[Row] = new_grid(height)
        self.history: list[Row] = []
        self.history_limit = history_limit
        self.hscrolled = 0
        self.pushed = 0
        self.generation = 0
        self.dirty: set[int] = set(range(height))
        self._main: list[Row] | None = None  # the main screen's rows while the alternate screen is shown
        self._main_size = (width, height)

    @property
    def alternate(self) -> bool:
        """Whether the alternate screen is shown (the main screen's rows are kept aside)."""
        return self._main is not None

    def reset(self) -> None:
        """Blank rows, main screen shown (the history stays: only ``ESC [ 3 J`` clears it)."""
        self._main = None
        self.rows = new_grid(self.height)
        self.dirty.update(range(self.height))

    # -- rows: tmux's two primitives, and scrolling ----------------------------------------------

    def fresh(self, fill: Cell) -> Row:
        return Row() if fill is DEFAULT_CELL else blank_row(fill, self.width)

    def touch(self, start: int, end: int) -> None:
        if len(self.dirty) < self.height:
            self.dirty.update(range(start, end))

    def unwrap_above(self, y: int) -> None:
        """The row above row ``y`` (the newest history row, above the top row) no longer runs on into it."""
        above = self.rows[y - 1] if y > 0 else (self.history[-1] if self.history else None)
        if above is not None and above.wrapped:
            above.wrapped = False

    def move_rows(self, dest: int, src: int, count: int, fill: Cell) -> None:
        """Move ``count`` rows from ``src`` to ``dest``; rows left behind become fresh rows of ``fill``."""
        if count <= 0 or src == dest:
            return
        rows = self.rows
        self.unwrap_above(dest)
        moving = rows[src : src + count]
        for y in range(src, src + count):
            if not dest <= y < dest + count:
                rows[y] = self.fresh(fill)
        rows[dest : dest + count] = moving
        if not dest <= src < dest + count:
            self.unwrap_above(src)
        self.touch(min(src, dest), max(src, dest) + count)

    def clear_rows(self, first: int, count: int, fill: Cell) -> None:
        """Fresh rows of ``fill`` at ``first`` onwards; the row above no longer runs on into them."""
        if count <= 0:
            return
        self.rows[first : first + count] = [self.fresh(fill) for _ in range(count)]
        self.unwrap_above(first)
        self.touch(first, first + count)

    def scroll_up(self, top: int, bottom: int, count: int, fill: Cell) -> None:
        """Scroll rows ``top..bottom`` up; on the main screen the rows leaving the top go to the history."""
        count = min(count, bottom - top + 1)
        rows = self.rows
        if self._main is None:
            self.to_history(rows[top : top + count])
            rows[top : bottom + 1] = rows[top + count : bottom + 1] + [self.fresh(fill) for _ in range(count)]
            self.touch(top, bottom + 1)
            return
        for _ in range(count):  # tmux moves the rows and nothing else: the bottom row is the one left behind
            self.move_rows(top, top + 1, bottom - top, fill)

    def scroll_down(self, top: int, bottom: int, count: int, fill: Cell) -> None:
        for _ in range(min(count, bottom - top + 1)):
            self.move_rows(top + 1, top, bottom - top, fill)
            self.clear_rows(top, 1, fill)

    def scroll_off_top(self, fill: Cell) -> None:
        """The commonest scroll of all (output running off the bottom of a main screen with no margins),
        kept short: the top row goes to the history and a fresh one comes in at the bottom."""
        rows, history = self.rows, self.history
        history.append(rows.pop(0))
        rows.append(Row() if fill is DEFAULT_CELL else blank_row(fill, self.width))
        self.pushed += 1
        if len(history) > self.history_limit:
            del history[: self.history_limit // 10]
        self.hscrolled = min(self.hscrolled + 1, len(history))
        if len(self.dirty) < self.height:
            self.dirty.update(range(self.height))

    # -- the history -----------------------------------------------------------------------------

    def to_history(self, rows: list[Row]) -> None:
        history, limit = self.history, self.history_limit
        if len(history) + len(rows) > limit:
            del history[: len(history) + len(rows) - limit + limit // 10]
        history.extend(rows)
        self.pushed += len(rows)
        self.hscrolled = min(self.hscrolled + len(rows), len(history))

    def clear_history(self) -> None:
        """``CSI 3 J``: forget the rows scrolled off the top."""
        self.history = []
        self.hscrolled = 0
        self.generation += 1

    def clear_to_history(self, fill: Cell) -> int:
        """A full clear of the main screen first scrolls its used rows into the history, as tmux does, and
        then they cannot be pulled back by a taller screen. Returns how many rows went (fresh ones replace
        them at the bottom)."""
        if self._main is not None:
            return 0
        last = 0
        for y, row in enumerate(self.rows):
            if row.used:
                last = y + 1
        if last:
            self.to_history(self.rows[:last])
            self.rows[:last] = []
            self.rows.extend(self.fresh(fill) for _ in range(last))
            self.hscrolled = 0
        return last

    # -- cells -----------------------------------------------------------------------------------

    @staticmethod
    def split_wide(line: dict[int, Cell], start: int, end: int) -> None:
        """Blank the halves of wide characters that writing ``[start, end)`` would cut in two."""
        if start > 0:
            cell = line.get(start)
            if cell is not None and cell.data == STUB:
                left = line.get(start - 1, DEFAULT_CELL)
                line[start - 1] = cells_of(left.style)[" "]
        cell = line.get(end)
        if cell is not None and cell.data == STUB:
            line[end] = cells_of(cell.style)[" "]

    def erase(self, y: int, start: int, end: int, blank: Cell) -> None:
        """Cells ``[start, end)`` of row ``y`` become ``blank``; a whole row erased is a fresh row, and the
        row above no longer runs on into it (tmux)."""
        end = min(end, self.width)
        if start >= end:
            return
        if start <= 0 and end >= self.width:
            self.rows[y] = blank_row(blank, self.width)
            self.unwrap_above(y)
        else:
            line = self.rows[y]
            self.split_wide(line, start, end)
            line.update(dict.fromkeys(range(start, end), blank))
        self.dirty.add(y)

    def insert_cells(self, y: int, x: int, count: int, blank: Cell) -> None:
        """``count`` blanks at column ``x`` of row ``y``, the rest of the row moving right (off its end)."""
        width = self.width
        line = self.rows[y]
        moved = {k + count: cell for k, cell in line.items() if k >= x and k + count < width}
        for k in [k for k in line if k >= x]:
            del line[k]
        line.update(moved)
        line.update(dict.fromkeys(range(x, x + count), blank))
        if x + count < width:  # tmux counts the cells it moved as used
            line.used = width
        self.dirty.add(y)

    def delete_cells(self, y: int, x: int, count: int, blank: Cell) -> None:
        """``count`` cells gone at column ``x`` of row ``y``: the rest moves left, ``blank`` enters at its end."""
        width = self.width
        line = self.rows[y]
        moved = {k - count: cell for k, cell in line.items() if k >= x + count}
        for k in [k for k in line if k >= x]:
            del line[k]
        line.update(moved)
        line.update(dict.fromkeys(range(width - count, width), blank))
        if x + count < width:
            line.used = max(line.used, width - count)
        self.dirty.add(y)

    def fill(self, cell: Cell) -> None:
        """Every cell ``cell`` (DECALN's screen of ``E``)."""
        for line in self.rows:
            line.update(dict.fromkeys(range(self.width), cell))
            line.used = self.width
        self.dirty.update(range(self.height))

    # -- size, and the alternate screen ----------------------------------------------------------

    def resize(self, width: int, height: int, cursor: tuple[int, int]) -> tuple[int, int]:
        """New size, as tmux resizes a pane (:mod:`.reflow`): the main screen is rewrapped and keeps its
        history, the alternate screen is cut or extended for the program to redraw. Returns where the
        cursor (at ``cursor`` before) is now; it may be past a narrower width, where tmux keeps it."""
        main = self._main is None
        lines = Lines(self.history, self.rows, self.hscrolled, main, *cursor)
        lines.resize(self.width, width, height, reflow=main)
        return self._take(lines, width, height)

    def enter_alternate(self) -> bool:
        """Show a blank alternate screen, keeping the main screen's rows aside; False if it already is."""
        if self._main is not None:
            return False
        self._main, self._main_size = self.rows, (self.width, self.height)
        self.rows = new_grid(self.height)
        self.dirty.update(range(self.height))
        return True

    def leave_alternate(self, cursor: tuple[int, int], saved: tuple[int, int] | None
                        ) -> tuple[int, int] | None:
        """Show the main screen again. If it was kept at another size it comes back as tmux brings it back:
        the alternate rows first go back to the kept size (the history may shift with them), the kept rows
        replace them, and the whole is resized to the current size with the main screen's rules; the
        cursor (at ``saved`` on the main screen, if given, else at ``cursor``) is brought through and
        returned. None when the size never changed: the cursor stays where it is."""
        main = self._main
        if main is None:
            return None
        moved = None
        width, height = self.width, self.height
        if self._main_size != (width, height):
            kept_width, kept_height = self._main_size
            lines = Lines(self.history, self.rows, self.hscrolled, False, *cursor)
            lines.resize(width, kept_width, kept_height, reflow=True)
            x, y = saved if saved is not None else lines.cursor
            lines = Lines(lines.history, main, lines.hscrolled, True, x, y)
            lines.resize(kept_width, width, height, reflow=True)
            x, y = self._take(lines, width, height)
            moved = min(x, width - 1), y
        else:
            self.rows = main
        self._main = None
        self.dirty.update(range(self.height))
        return moved

    def _take(self, lines: Lines, width: int, height: int) -> tuple[int, int]:
        """Adopt the rows of a resize; returns the cursor."""
        self.history = lines.history[-self.history_limit:]
        self.hscrolled = min(lines.hscrolled, len(self.history))
        self.generation += 1
        self.rows = lines.visible
        self.width, self.height = width, height
        self.dirty.update(range(height))
        return lines.cursor

    # -- reading ---------------------------------------------------------------------------------

    def row_cells(self, y: int) -> list[Cell]:
        """The full width of row ``y`` as cells (a wide character's stub has empty ``data``)."""
        return line_cells(self.rows[y], self.width)
