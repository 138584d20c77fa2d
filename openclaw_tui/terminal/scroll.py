"""Moving rows: scrolling, inserted and deleted lines, and the history, as tmux moves them.

Rows are list entries, so scrolling a region is one list splice instead of stock pyte's row-by-row dict
shuffle (the largest cost when output scrolls). ``index`` fixes a pyte slip: a line feed below the scroll
region moves the cursor down, where pyte pulled it back up to the region's bottom. ``CSI S``/``T``, which
pyte lacks, live here.

Rows that scrolling, inserting and deleting bring in are filled with the current background colour
(background colour erase), except the row an autowrap scrolls in. On the main screen the rows scrolled off
the top are kept in a short history, as tmux keeps them, only so that a resize can pull them back or
rewrap them (see :mod:`.reflow`); they are never shown: scrollback comes from the session's retained text.
Moves and clears also drop the ``wrapped`` mark of the rows next to where they cut, exactly where tmux's
line moves and clears drop it (an inserted line inside a scroll region included, quirks and all), because
that mark decides how rows are rewrapped after a resize. Mixed into :class:`TerminalScreen`.
"""

from __future__ import annotations

from typing import Any

from .cells import DEFAULT_CELL, Cell, Row, blank_of, blank_row

HISTORY_LINES = 1000  # rows kept for resizes; a tenth is dropped at once when full, as tmux trims its history


class ScrollOps:
    """Row moves on the grid (``self.buffer``: a list of rows, each {column: Cell})."""

    buffer: Any
    cursor: Any
    columns: int
    lines: int
    margins: Any
    dirty: set[int]
    history: list[Row]
    hscrolled: int
    _main_buffer: Any

    def _region(self) -> tuple[int, int]:
        return (self.margins.top, self.margins.bottom) if self.margins else (0, self.lines - 1)

    def _blank(self) -> Cell:
        return blank_of(self.cursor.attrs.style)

    def _fresh(self, fill: Cell) -> Row:
        return Row() if fill is DEFAULT_CELL else blank_row(fill, self.columns)

    # -- tmux's two primitives -------------------------------------------------------------------

    def _move_rows(self, dest: int, src: int, count: int, fill: Cell) -> None:
        """Move ``count`` rows from ``src`` to ``dest``; rows left behind become fresh rows of ``fill``."""
        if count <= 0 or src == dest:
            return
        buffer = self.buffer
        self._unwrap_above(dest)
        moving = buffer[src : src + count]
        for y in range(src, src + count):
            if not dest <= y < dest + count:
                buffer[y] = self._fresh(fill)
        buffer[dest : dest + count] = moving
        if not dest <= src < dest + count:
            self._unwrap_above(src)
        self._touch(min(src, dest), max(src, dest) + count)

    def _clear_rows(self, first: int, count: int, fill: Cell) -> None:
        """Fresh rows of ``fill`` at ``first`` onwards; the row above no longer runs on into them."""
        if count <= 0:
            return
        self.buffer[first : first + count] = [self._fresh(fill) for _ in range(count)]
        self._unwrap_above(first)
        self._touch(first, first + count)

    def _unwrap_above(self, y: int) -> None:
        """The row above row ``y`` (the newest history row, above the top row) no longer runs on into it."""
        above = self.buffer[y - 1] if y > 0 else (self.history[-1] if self.history else None)
        if above is not None and above.wrapped:
            above.wrapped = False

    def _touch(self, start: int, end: int) -> None:
        if len(self.dirty) < self.lines:
            self.dirty.update(range(start, end))

    # -- scrolling -------------------------------------------------------------------------------

    def _scroll_region_up(self, count: int, fill: Cell) -> None:
        """Scroll the region up; on the main screen the rows leaving its top go to the history."""
        top, bottom = self._region()
        count = min(count, bottom - top + 1)
        buffer = self.buffer
        if self._main_buffer is None:
            self._to_history(buffer[top : top + count])
            buffer[top : bottom + 1] = buffer[top + count : bottom + 1] + [self._fresh(fill) for _ in range(count)]
            self._touch(top, bottom + 1)
            return
        for _ in range(count):  # tmux moves the rows and nothing else: the bottom row is the one left behind
            self._move_rows(top, top + 1, bottom - top, fill)

    def _scroll_region_down(self, count: int, fill: Cell) -> None:
        top, bottom = self._region()
        for _ in range(min(count, bottom - top + 1)):
            self._move_rows(top + 1, top, bottom - top, fill)
            self._clear_rows(top, 1, fill)

    def scroll_up(self, count: int = 1) -> None:
        """``CSI S`` (SU): move the scroll region's rows up, blank rows entering at the bottom."""
        self._scroll_region_up(max(count, 1), self._blank())

    def scroll_down(self, count: int = 1) -> None:
        """``CSI T`` (SD): move the scroll region's rows down, blank rows entering at the top."""
        self._scroll_region_down(max(count, 1), self._blank())

    def index(self) -> None:
        """Down a row, scrolling at the bottom margin; below the region it just moves (pyte moved it up)."""
        self._down(self._blank())

    def wrap_line(self) -> None:
        """Autowrap: the text runs on at the start of the next row, and the row is marked as running on."""
        self.buffer[self.cursor.y].wrapped = True
        self.cursor.x = 0
        self._down(DEFAULT_CELL)  # tmux scrolls in a default blank row here, whatever the colour

    def _down(self, fill: Cell) -> None:
        margins, y = self.margins, self.cursor.y
        if margins is None and y == self.lines - 1 and self._main_buffer is None:
            # The commonest scroll of all (output running off the bottom), kept short: the top row goes
            # to the history and a fresh one comes in at the bottom.
            buffer, history = self.buffer, self.history
            history.append(buffer.pop(0))
            buffer.append(Row() if fill is DEFAULT_CELL else blank_row(fill, self.columns))
            if len(history) > HISTORY_LINES:
                del history[: HISTORY_LINES // 10]
            self.hscrolled = min(self.hscrolled + 1, len(history))
            if len(self.dirty) < self.lines:
                self.dirty.update(range(self.lines))
        elif y == (margins.bottom if margins else self.lines - 1):
            self._scroll_region_up(1, fill)
        elif y < self.lines - 1:
            self.cursor.y = y + 1

    def reverse_index(self) -> None:
        if self.cursor.y == self._region()[0]:
            self._scroll_region_down(1, self._blank())
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    # -- inserted and deleted lines (the cursor stays, as in tmux) -------------------------------

    def insert_lines(self, count: int | None = None) -> None:
        """``CSI L``: blank rows at the cursor's row, pushing the rest down to the region's bottom (to the
        screen's bottom when the cursor is outside the region, as tmux does)."""
        y, fill = self.cursor.y, self._blank()
        top, bottom = self._region()
        if not top <= y <= bottom:
            count = min(count or 1, self.lines - y)
            self._move_rows(y + count, y, self.lines - y - count, fill)
            self._clear_rows(y, count, fill)
            return
        count = min(count or 1, bottom + 1 - y)
        kept = bottom + 1 - y - count
        self._move_rows(y + count, y, kept, fill)
        if kept < count:
            self._clear_rows(y + kept, count - kept, fill)
        elif kept > count:
            self._unwrap_above(y + kept)  # what tmux's clear of a negative count leaves behind

    def delete_lines(self, count: int | None = None) -> None:
        """``CSI M``: remove rows at the cursor's row, pulling the rest up (see :meth:`insert_lines`)."""
        y, fill = self.cursor.y, self._blank()
        top, bottom = self._region()
        if not top <= y <= bottom:
            bottom = self.lines - 1
        count = min(count or 1, bottom + 1 - y)
        kept = bottom + 1 - y - count
        self._move_rows(y, y + count, kept, fill)
        self._clear_rows(y + kept, count, fill)

    # -- the history -----------------------------------------------------------------------------

    def _to_history(self, rows: list[Row]) -> None:
        history = self.history
        if len(history) + len(rows) > HISTORY_LINES:
            del history[: len(history) + len(rows) - HISTORY_LINES + HISTORY_LINES // 10]
        history.extend(rows)
        self.hscrolled = min(self.hscrolled + len(rows), len(history))

    def clear_history(self) -> None:
        """``CSI 3 J``: forget the rows scrolled off the top."""
        self.history = []
        self.hscrolled = 0

    def _clear_to_history(self) -> int:
        """A full clear of the main screen first scrolls its used rows into the history, as tmux does, and
        then they cannot be pulled back by a taller screen. Returns how many rows went (fresh ones replace
        them at the bottom)."""
        if self._main_buffer is not None:
            return 0
        last = 0
        for y, row in enumerate(self.buffer):
            if row.used:
                last = y + 1
        if last:
            fill = self._blank()
            self._to_history(self.buffer[:last])
            self.buffer[:last] = []
            self.buffer.extend(self._fresh(fill) for _ in range(last))
            self.hscrolled = 0
        return last
