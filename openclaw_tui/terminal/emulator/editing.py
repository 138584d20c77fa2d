"""Putting characters on the screen: drawing text at the cursor, erasing, inserting and deleting characters.
"""

from __future__ import annotations

from .cells import DEC_GRAPHICS, DEFAULT_CELL, STUB, ZWJ, Cell, cells_of, char_width
from .scrolling import wrap_line
from .state import ScreenState
from .style import DEFAULT_STYLE

_MAX_CELL_DATA = 32  # a cell stops collecting combining marks past this (zalgo text)


def draw(screen: ScreenState, text: str) -> None:
    """Write printable text at the cursor (the parser never passes control characters here)."""
    if screen.graphics[screen.shift]:
        text = text.translate(DEC_GRAPHICS)
    elif text.isascii():
        cursor = screen.cursor
        x = cursor.x
        end = x + len(text)
        grid = screen.grid
        if end < grid.width and not screen.insert:
            # The common case, kept short: ASCII that fits on the cursor's row.
            line = grid.rows[cursor.y]
            cells = screen.cells
            if cells.style is not cursor.attrs.style:
                cells = screen.current_cells()
            if STUB in (line.get(x, DEFAULT_CELL).data, line.get(end, DEFAULT_CELL).data):
                grid.split_wide(line, x, end)
            line.update(zip(range(x, end), map(cells.__getitem__, text)))
            if end > line.used:
                line.used = end
            cursor.x = end
            grid.dirty.add(cursor.y)
            screen.joining = False
            screen.last_char = text[-1]
            return
        _draw_narrow(screen, text)
        return
    if text.isascii():
        _draw_narrow(screen, text)
        return
    widths = list(map(char_width, text))
    if not screen.joining and widths.count(1) == len(widths):
        _draw_narrow(screen, text)
    else:
        _draw_mixed(screen, text, widths)


def _draw_narrow(screen: ScreenState, text: str) -> None:
    cursor, grid = screen.cursor, screen.grid
    width = grid.width
    cells = screen.current_cells()
    pos, length = 0, len(text)
    while pos < length:
        x = cursor.x
        if x >= width:
            if screen.autowrap:
                wrap_line(screen)
                x = 0
            else:
                x = width - 1
                pos = length - 1  # without autowrap every further character lands on the last column
        chunk = text[pos : pos + width - x]
        end = x + len(chunk)
        if screen.insert:
            cursor.x = x
            insert_characters(screen, len(chunk))
        line = grid.rows[cursor.y]
        grid.split_wide(line, x, end)
        line.update(zip(range(x, end), map(cells.__getitem__, chunk)))
        if end > line.used:
            line.used = end
        cursor.x = end
        pos += len(chunk)
        grid.dirty.add(cursor.y)
    screen.joining = False
    screen.last_char = text[-1]


def _draw_mixed(screen: ScreenState, text: str, widths: list[int]) -> None:
    cursor, grid = screen.cursor, screen.grid
    cells = screen.current_cells()
    for char, width in zip(text, widths):
        if width == 0 or screen.joining:
            _combine(screen, char)
            continue
        x = cursor.x
        if x + width > grid.width:
            if screen.autowrap:
                wrap_line(screen)
                x = 0
            else:
                x = grid.width - width
        if screen.insert:
            cursor.x = x
            insert_characters(screen, width)
        line = grid.rows[cursor.y]
        grid.split_wide(line, x, x + width)
        line[x] = cells[char]
        if width == 2:
            line[x + 1] = cells[STUB]
        line.used = max(line.used, x + width)
        cursor.x = x + width
        screen.last_char = char
        grid.dirty.add(cursor.y)


def _combine(screen: ScreenState, char: str) -> None:
    """Attach a zero-width character to the cell before the cursor (dropped at column 0, like tmux)."""
    screen.joining = char == ZWJ
    x = min(screen.cursor.x, screen.grid.width) - 1
    if x < 0:
        return
    line = screen.grid.rows[screen.cursor.y]
    cell = line.get(x, DEFAULT_CELL)
    if cell.data == STUB and x > 0:
        x -= 1
        cell = line.get(x, DEFAULT_CELL)
    if len(cell.data) < _MAX_CELL_DATA:
        line[x] = Cell(cell.data + char, cell.style)
        line.used = max(line.used, x + 1)
        screen.grid.dirty.add(screen.cursor.y)


def repeat_last_character(screen: ScreenState, count: int = 1) -> None:
    """``CSI b`` (REP): draw the previous graphic character ``count`` more times."""
    if screen.last_char:
        draw(screen, screen.last_char * min(max(count, 1), screen.grid.width * screen.grid.height))


# -- erasing ---------------------------------------------------------------------------------------


def erase_in_line(screen: ScreenState, how: int = 0, private: bool = False) -> None:
    """``CSI K`` (EL): to the end of the row (0), to its start (1), or all of it (2)."""
    # A cursor waiting to wrap (x == width) erases nothing to its right, as in tmux (xterm would erase the
    # last column); top relies on it to keep its reverse-video header full width.
    x, width = screen.cursor.x, screen.grid.width
    span = {0: (x, width), 1: (0, x + 1), 2: (0, width)}.get(how)
    if span is None:
        return
    if span == (0, width) and not screen.grid.rows[screen.cursor.y] and screen.cursor.attrs.style.bg is None:
        return  # tmux leaves a row nothing was ever written to alone, marks included
    screen.grid.erase(screen.cursor.y, *span, screen.blank())


def erase_in_display(screen: ScreenState, how: int = 0, *args: int, **kwargs: bool) -> None:
    """``CSI J`` (ED): below the cursor (0), above it (1), the whole screen (2), or only the history (3)."""
    grid, y = screen.grid, screen.cursor.y
    if how == 0 and (screen.cursor.x, y) == (0, 0):
        how = 2  # the whole screen: it goes to the history first, as in tmux
    if how == 0:
        erase_in_line(screen, 0)
        rows = range(y + 1, grid.height)
    elif how == 1:
        erase_in_line(screen, 1)
        rows = range(y)
    elif how == 2:
        if grid.clear_to_history(screen.blank()) == grid.height:
            return  # every row went to the history and fresh rows came in
        rows = range(grid.height)
    else:
        grid.clear_history()  # 3 clears the history only (xterm and tmux)
        return
    for row in rows:
        grid.erase(row, 0, grid.width, screen.blank())


def erase_characters(screen: ScreenState, count: int | None = None) -> None:
    """``CSI X`` (ECH): ``count`` cells from the cursor become blanks."""
    x = screen.cursor.x
    if x < screen.grid.width:
        screen.grid.erase(screen.cursor.y, x, min(x + (count or 1), screen.grid.width), screen.blank())


# -- inserting and deleting characters ---------------------------------------------------------------


def insert_characters(screen: ScreenState, count: int | None = None) -> None:
    """``CSI @`` (ICH): blanks in the background colour at the cursor, the rest of the row moves right."""
    x = screen.cursor.x
    if x < screen.grid.width:
        screen.grid.insert_cells(screen.cursor.y, x, min(count or 1, screen.grid.width - x), screen.blank())


def delete_characters(screen: ScreenState, count: int | None = None) -> None:
    """``CSI P`` (DCH): the rest of the row moves left, blanks in the background colour enter at its end."""
    x = screen.cursor.x
    if x < screen.grid.width:
        screen.grid.delete_cells(screen.cursor.y, x, min(count or 1, screen.grid.width - x), screen.blank())


def alignment_display(screen: ScreenState) -> None:
    """DECALN (``ESC # 8``): the screen filled with ``E``."""
    screen.grid.fill(cells_of(DEFAULT_STYLE)["E"])
