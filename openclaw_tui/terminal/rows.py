"""Moving rows: scrolling regions, inserted and deleted lines, tab stops, and fitting the grid to a new size.

Rows are list entries, so scrolling a region is one list splice instead of stock pyte's row-by-row dict
shuffle (the largest cost when output scrolls). ``index`` also fixes a pyte slip: a line feed below the
scroll region moves the cursor down, where pyte pulled it back up to the region's bottom. ``CSI S``/``T``
(scroll up/down) and ``CSI Z`` (back tab), which pyte lacks, live here. Mixed into :class:`TerminalScreen`.
"""

from __future__ import annotations

from typing import Any

from .cells import STUB, Row, cells_of, char_width


class RowOps:
    """Row-level editing of the grid (``self.buffer``: a list of rows, each {column: Cell})."""

    buffer: Any
    cursor: Any
    columns: int
    lines: int
    margins: Any
    dirty: set[int]
    tabstops: set[int]

    # -- scrolling -------------------------------------------------------------------------------

    def _region(self) -> tuple[int, int]:
        return (self.margins.top, self.margins.bottom) if self.margins else (0, self.lines - 1)

    def _shift_rows(self, first: int, last: int, count: int) -> None:
        """Move rows ``first..last`` up by ``count`` (down if negative); blank rows fill the gap."""
        if first > last or count == 0:
            return
        buffer = self.buffer
        count = max(-(last - first + 1), min(count, last - first + 1))
        if count > 0:
            buffer[first : last + 1] = buffer[first + count : last + 1] + [Row() for _ in range(count)]
        else:
            buffer[first : last + 1] = [Row() for _ in range(-count)] + buffer[first : last + 1 + count]
        if len(self.dirty) < self.lines:
            self.dirty.update(range(first, last + 1))

    def scroll_up(self, count: int = 1) -> None:
        """``CSI S`` (SU): move the scroll region's rows up, blank rows entering at the bottom."""
        top, bottom = self._region()
        self._shift_rows(top, bottom, max(count, 1))

    def scroll_down(self, count: int = 1) -> None:
        """``CSI T`` (SD): move the scroll region's rows down, blank rows entering at the top."""
        top, bottom = self._region()
        self._shift_rows(top, bottom, -max(count, 1))

    def insert_lines(self, count: int | None = None) -> None:
        """``CSI L``: blank rows at the cursor's row, pushing the rest of the region down."""
        top, bottom = self._region()
        if top <= self.cursor.y <= bottom:
            self._shift_rows(self.cursor.y, bottom, -(count or 1))
            self.cursor.x = 0

    def delete_lines(self, count: int | None = None) -> None:
        """``CSI M``: remove rows at the cursor's row, pulling the rest of the region up."""
        top, bottom = self._region()
        if top <= self.cursor.y <= bottom:
            self._shift_rows(self.cursor.y, bottom, count or 1)
            self.cursor.x = 0

    def index(self) -> None:
        """Down a row, scrolling at the bottom margin; below the region it just moves (pyte moved it up)."""
        top, bottom = self._region()
        if self.cursor.y == bottom:
            self._shift_rows(top, bottom, 1)
        elif self.cursor.y < self.lines - 1:
            self.cursor.y += 1

    def reverse_index(self) -> None:
        top, bottom = self._region()
        if self.cursor.y == top:
            self._shift_rows(top, bottom, -1)
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    # -- moves from the wrap point ---------------------------------------------------------------

    # After the last column is written the cursor waits past it (x == columns) until the next character
    # wraps. tmux, the reference here, treats moves from that point as below: up/down land on the last
    # column, while backspace/left count from the wrap point itself (stock pyte took one step extra).

    def cursor_up(self, count: int | None = None) -> None:
        top = self.margins.top if self.margins and self.cursor.y >= self.margins.top else 0
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = max(self.cursor.y - (count or 1), top)

    def cursor_down(self, count: int | None = None) -> None:
        bottom = (
            self.margins.bottom if self.margins and self.cursor.y <= self.margins.bottom else self.lines - 1
        )
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = min(self.cursor.y + (count or 1), bottom)

    def cursor_back(self, count: int | None = None) -> None:
        self.cursor.x = max(0, min(self.cursor.x - (count or 1), self.columns - 1))

    def backspace(self) -> None:
        self.cursor_back(1)

    # -- tabs ------------------------------------------------------------------------------------

    def tab(self, count: int = 1) -> None:
        x = self.cursor.x
        for _ in range(max(count, 1)):
            x = min((stop for stop in self.tabstops if stop > x), default=self.columns - 1)
        self.cursor.x = min(x, self.columns - 1)

    def back_tab(self, count: int = 1) -> None:
        """``CSI Z`` (CBT): back to the previous tab stop, ``count`` times."""
        x = min(self.cursor.x, self.columns - 1)
        for _ in range(max(count, 1)):
            x = max((stop for stop in self.tabstops if stop < x), default=0)
        self.cursor.x = x

    # -- size ------------------------------------------------------------------------------------

    def _fit_buffer(self, buffer: list[Row], cursor_y: int, cols: int, rows: int) -> int:
        """Cut or grow ``buffer`` to ``cols`` x ``rows`` keeping the cursor's row; returns how far rows moved up."""
        shift = max(0, cursor_y + 1 - rows)
        del buffer[:shift]
        del buffer[rows:]
        buffer.extend(Row() for _ in range(rows - len(buffer)))
        if cols < self.columns:
            for line in buffer:
                for x in [x for x in line if x >= cols]:
                    del line[x]
                last = line.get(cols - 1)
                if last is not None and last.data != STUB and char_width(last.data[:1]) == 2:
                    line[cols - 1] = cells_of(last.style)[" "]
        return shift
