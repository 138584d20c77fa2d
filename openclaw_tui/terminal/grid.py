"""Putting characters on the grid: drawing, erasing, inserting and deleting characters.

These replace stock pyte's versions, for speed and for correctness. Runs of narrow characters are
written with one dict update instead of one call per character; wide characters wrap before the last
column and never leave half of themselves behind; zero-width characters (combining marks, variation
selectors, zero-width space, and whatever follows a zero-width joiner) attach to the cell before the
cursor instead of ending the draw; erasing, inserting and deleting leave blanks in the background colour
(as xterm and tmux do); ``ESC[3J`` clears only the history kept for resizes, as in xterm and tmux;
``CSI b`` repeats the last character. Each row records how far programs wrote into it and whether an
autowrap ran it on, tmux's marks for rewrapping after a resize (see :mod:`.reflow`). Mixed into
:class:`TerminalScreen`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyte import modes as mo

from .cells import DEC_GRAPHICS, DEFAULT_CELL, STUB, ZWJ, Cell, blank_of, blank_row, cells_of, char_width
from .style import DEFAULT_STYLE

_MAX_CELL_DATA = 32  # a cell stops collecting combining marks past this (zalgo text)


class GridOps:
    """Drawing and editing of the character grid (``self.buffer``: a list of rows, each {column: Cell})."""

    buffer: Any
    cursor: Any
    columns: int
    lines: int
    margins: Any
    mode: set[int]
    dirty: set[int]
    tabstops: set[int]
    _graphics: list[bool]
    _shift: int
    _joining: bool
    _last_char: str
    _cells: Any
    history: list[Any]

    if TYPE_CHECKING:

        def wrap_line(self) -> None: ...

        def _blank(self) -> Cell: ...

        def _clear_to_history(self) -> int: ...

        def clear_history(self) -> None: ...

        def _unwrap_above(self, y: int) -> None: ...


    # -- text ------------------------------------------------------------------------------------

    def draw(self, text: str) -> None:
        """Write printable text at the cursor (the parser never passes control characters here)."""
        if self._graphics[self._shift]:
            text = text.translate(DEC_GRAPHICS)
        elif text.isascii():
            cursor = self.cursor
            x = cursor.x
            end = x + len(text)
            if end < self.columns and mo.IRM not in self.mode:
                # The common case, kept short: ASCII that fits on the cursor's row.
                line = self.buffer[cursor.y]
                cells = self._cells
                if cells.style is not cursor.attrs.style:
                    cells = self._current_cells()
                if STUB in (line.get(x, DEFAULT_CELL).data, line.get(end, DEFAULT_CELL).data):
                    self._split_wide(line, x, end)
                line.update(zip(range(x, end), map(cells.__getitem__, text)))
                if end > line.used:
                    line.used = end
                cursor.x = end
                self.dirty.add(cursor.y)
                self._joining = False
                self._last_char = text[-1]
                return
            self._draw_narrow(text)
            return
        if text.isascii():
            self._draw_narrow(text)
            return
        widths = list(map(char_width, text))
        if not self._joining and widths.count(1) == len(widths):
            self._draw_narrow(text)
        else:
            self._draw_mixed(text, widths)

    def _current_cells(self) -> Any:
        """Cells in the cursor's style; remembered, since the style changes far less often than text runs."""
        cells = self._cells
        style = self.cursor.attrs.style
        if cells.style is not style:
            cells = self._cells = cells_of(style)
        return cells

    def _draw_narrow(self, text: str) -> None:
        cursor, columns, buffer = self.cursor, self.columns, self.buffer
        cells = self._current_cells()
        wrap = mo.DECAWM in self.mode
        insert = mo.IRM in self.mode
        pos, length = 0, len(text)
        while pos < length:
            x = cursor.x
            if x >= columns:
                if wrap:
                    self.wrap_line()
                    x = 0
                else:
                    x = columns - 1
                    pos = length - 1  # without autowrap every further character lands on the last column
            chunk = text[pos : pos + columns - x]
            end = x + len(chunk)
            if insert:
                cursor.x = x
                self.insert_characters(len(chunk))
            line = buffer[cursor.y]
            self._split_wide(line, x, end)
            line.update(zip(range(x, end), map(cells.__getitem__, chunk)))
            if end > line.used:
                line.used = end
            cursor.x = end
            pos += len(chunk)
            self.dirty.add(cursor.y)
        self._joining = False
        self._last_char = text[-1]

    def _draw_mixed(self, text: str, widths: list[int]) -> None:
        cursor, columns = self.cursor, self.columns
        cells = self._current_cells()
        wrap = mo.DECAWM in self.mode
        for char, width in zip(text, widths):
            if width == 0 or self._joining:
                self._combine(char)
                continue
            x = cursor.x
            if x + width > columns:
                if wrap:
                    self.wrap_line()
                    x = 0
                else:
                    x = columns - width
            if mo.IRM in self.mode:
                cursor.x = x
                self.insert_characters(width)
            line = self.buffer[cursor.y]
            self._split_wide(line, x, x + width)
            line[x] = cells[char]
            if width == 2:
                line[x + 1] = cells[STUB]
            line.used = max(line.used, x + width)
            cursor.x = x + width
            self._last_char = char
            self.dirty.add(cursor.y)

    def _combine(self, char: str) -> None:
        """Attach a zero-width character to the cell before the cursor (dropped at column 0, like tmux)."""
        self._joining = char == ZWJ
        x = min(self.cursor.x, self.columns) - 1
        if x < 0:
            return
        line = self.buffer[self.cursor.y]
        cell = line.get(x, DEFAULT_CELL)
        if cell.data == STUB and x > 0:
            x -= 1
            cell = line.get(x, DEFAULT_CELL)
        if len(cell.data) < _MAX_CELL_DATA:
            line[x] = Cell(cell.data + char, cell.style)
            line.used = max(line.used, x + 1)
            self.dirty.add(self.cursor.y)

    def _split_wide(self, line: dict[int, Cell], start: int, end: int) -> None:
        """Blank the halves of wide characters that writing ``[start, end)`` would cut in two."""
        if start > 0:
            cell = line.get(start)
            if cell is not None and cell.data == STUB:
                left = line.get(start - 1, DEFAULT_CELL)
                line[start - 1] = cells_of(left.style)[" "]
        cell = line.get(end)
        if cell is not None and cell.data == STUB:
            line[end] = cells_of(cell.style)[" "]

    def repeat_last_character(self, count: int = 1) -> None:
        """``CSI b`` (REP): draw the previous graphic character ``count`` more times."""
        if self._last_char:
            self.draw(self._last_char * min(max(count, 1), self.columns * self.lines))

    # -- erasing ---------------------------------------------------------------------------------

    def _erase(self, y: int, start: int, end: int) -> None:
        end = min(end, self.columns)
        if start >= end:
            return
        blank = blank_of(self.cursor.attrs.style)
        if start <= 0 and end >= self.columns:
            self._clear_row(y, blank)
        else:
            line = self.buffer[y]
            self._split_wide(line, start, end)
            line.update(dict.fromkeys(range(start, end), blank))
        self.dirty.add(y)

    def _clear_row(self, y: int, blank: Cell) -> None:
        """A whole row erased is a fresh row, and the row above no longer runs on into it (tmux)."""
        self.buffer[y] = blank_row(blank, self.columns)
        self._unwrap_above(y)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        # A cursor waiting to wrap (x == columns) erases nothing to its right, as in tmux (xterm would
        # erase the last column); top relies on it to keep its reverse-video header full width.
        x = self.cursor.x
        span = {0: (x, self.columns), 1: (0, x + 1), 2: (0, self.columns)}.get(how)
        if span is None:
            return
        if span == (0, self.columns) and not self.buffer[self.cursor.y] and self.cursor.attrs.style.bg is None:
            return  # tmux leaves a row nothing was ever written to alone, marks included
        self._erase(self.cursor.y, *span)

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        y = self.cursor.y
        if how == 0 and (self.cursor.x, y) == (0, 0):
            how = 2  # the whole screen: it goes to the history first, as in tmux
        if how == 0:
            self.erase_in_line(0)
            rows = range(y + 1, self.lines)
        elif how == 1:
            self.erase_in_line(1)
            rows = range(y)
        elif how == 2:
            if self._clear_to_history() == self.lines:
                return  # every row went to the history and fresh rows came in
            rows = range(self.lines)
        else:
            self.clear_history()  # 3 clears the history only (xterm and tmux)
            return
        for row in rows:
            self._erase(row, 0, self.columns)

    def erase_characters(self, count: int | None = None) -> None:
        x = self.cursor.x
        if x < self.columns:
            self._erase(self.cursor.y, x, min(x + (count or 1), self.columns))

    # -- inserting and deleting characters ---------------------------------------------------------

    def insert_characters(self, count: int | None = None) -> None:
        """``CSI @`` (ICH): blanks in the background colour at the cursor, the rest of the row moves right."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return
        count = min(count or 1, columns - x)
        line = self.buffer[self.cursor.y]
        moved = {k + count: cell for k, cell in line.items() if k >= x and k + count < columns}
        for k in [k for k in line if k >= x]:
            del line[k]
        line.update(moved)
        line.update(dict.fromkeys(range(x, x + count), self._blank()))
        if x + count < columns:  # tmux counts the cells it moved as used
            line.used = columns
        self.dirty.add(self.cursor.y)

    def delete_characters(self, count: int | None = None) -> None:
        """``CSI P`` (DCH): the rest of the row moves left, blanks in the background colour enter at its end."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return
        count = min(count or 1, columns - x)
        line = self.buffer[self.cursor.y]
        moved = {k - count: cell for k, cell in line.items() if k >= x + count}
        for k in [k for k in line if k >= x]:
            del line[k]
        line.update(moved)
        line.update(dict.fromkeys(range(columns - count, columns), self._blank()))
        if x + count < columns:
            line.used = max(line.used, columns - count)
        self.dirty.add(self.cursor.y)

    def alignment_display(self) -> None:
        """DECALN (``ESC # 8``): the screen filled with ``E``."""
        cells = cells_of(DEFAULT_STYLE)
        for line in self.buffer:
            line.update(dict.fromkeys(range(self.columns), cells["E"]))
            line.used = self.columns
        self.dirty.update(range(self.lines))
