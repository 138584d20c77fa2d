"""Line feeds, scrolling, inserted and deleted lines, as tmux does them (rows move in :class:`~.grid.Grid`).
"""

from __future__ import annotations

from .cells import DEFAULT_CELL, Cell
from .state import ScreenState


def index(screen: ScreenState) -> None:
    """``ESC D`` (IND): down a row, scrolling at the bottom margin; below the region it just moves."""
    down(screen, screen.blank())


def linefeed(screen: ScreenState) -> None:
    """``LF``, ``VT``, ``FF``: an index, and a carriage return with the newline mode (LNM)."""
    down(screen, screen.blank())
    if screen.newline:
        screen.cursor.x = 0


def next_line(screen: ScreenState) -> None:
    """``ESC E`` (NEL): to the first column of the next row."""
    screen.cursor.x = 0
    down(screen, screen.blank())


def wrap_line(screen: ScreenState) -> None:
    """Autowrap: the text runs on at the start of the next row, and the row is marked as running on."""
    screen.grid.rows[screen.cursor.y].wrapped = True
    screen.cursor.x = 0
    down(screen, DEFAULT_CELL)  # tmux scrolls in a default blank row here, whatever the colour


def down(screen: ScreenState, fill: Cell) -> None:
    grid, margins, y = screen.grid, screen.margins, screen.cursor.y
    if margins is None and y == grid.height - 1 and not grid.alternate:
        grid.scroll_off_top(fill)
    elif y == (margins.bottom if margins else grid.height - 1):
        grid.scroll_up(*screen.region(), 1, fill)
    elif y < grid.height - 1:
        screen.cursor.y = y + 1


def reverse_index(screen: ScreenState) -> None:
    """``ESC M`` (RI): up a row, scrolling down at the top margin."""
    top, bottom = screen.region()
    if screen.cursor.y == top:
        screen.grid.scroll_down(top, bottom, 1, screen.blank())
    elif screen.cursor.y > 0:
        screen.cursor.y -= 1


def scroll_up(screen: ScreenState, count: int = 1) -> None:
    """``CSI S`` (SU): move the scroll region's rows up, blank rows entering at the bottom."""
    screen.grid.scroll_up(*screen.region(), max(count, 1), screen.blank())


def scroll_down(screen: ScreenState, *params: int) -> None:
    """``CSI T`` (SD): move the scroll region's rows down, blank rows entering at the top. With five
    parameters it is xterm's mouse highlight tracking instead, and does nothing here."""
    if len(params) <= 1:
        screen.grid.scroll_down(*screen.region(), max(params[0] if params else 1, 1), screen.blank())


def insert_lines(screen: ScreenState, count: int | None = None) -> None:
    """``CSI L``: blank rows at the cursor's row, pushing the rest down to the region's bottom (to the
    screen's bottom when the cursor is outside the region, as tmux does)."""
    grid, y, fill = screen.grid, screen.cursor.y, screen.blank()
    top, bottom = screen.region()
    if not top <= y <= bottom:
        count = min(count or 1, grid.height - y)
        grid.move_rows(y + count, y, grid.height - y - count, fill)
        grid.clear_rows(y, count, fill)
        return
    count = min(count or 1, bottom + 1 - y)
    kept = bottom + 1 - y - count
    grid.move_rows(y + count, y, kept, fill)
    if kept < count:
        grid.clear_rows(y + kept, count - kept, fill)
    elif kept > count:
        grid.unwrap_above(y + kept)  # what tmux's clear of a negative count leaves behind


def delete_lines(screen: ScreenState, count: int | None = None) -> None:
    """``CSI M``: remove rows at the cursor's row, pulling the rest up (see :func:`insert_lines`)."""
    grid, y, fill = screen.grid, screen.cursor.y, screen.blank()
    top, bottom = screen.region()
    if not top <= y <= bottom:
        bottom = grid.height - 1
    count = min(count or 1, bottom + 1 - y)
    kept = bottom + 1 - y - count
    grid.move_rows(y, y + count, kept, fill)
    grid.clear_rows(y + kept, count, fill)
