"""Moving the cursor: along and across rows, to a position, and between tab stops, as tmux does."""

from __future__ import annotations

from .state import ScreenState


def cursor_up(screen: ScreenState, count: int | None = None) -> None:
    """``CSI A``: up, stopping at the top margin (if the cursor is below it)."""
    top = screen.margins.top if screen.margins and screen.cursor.y >= screen.margins.top else 0
    screen.cursor.x = min(screen.cursor.x, screen.grid.width - 1)
    screen.cursor.y = max(screen.cursor.y - (count or 1), top)


def cursor_down(screen: ScreenState, count: int | None = None) -> None:
    """``CSI B``: down, stopping at the bottom margin (if the cursor is above it)."""
    margins = screen.margins
    bottom = margins.bottom if margins and screen.cursor.y <= margins.bottom else screen.grid.height - 1
    screen.cursor.x = min(screen.cursor.x, screen.grid.width - 1)
    screen.cursor.y = min(screen.cursor.y + (count or 1), bottom)


def cursor_up1(screen: ScreenState, count: int | None = None) -> None:
    """``CSI F``: up, to the first column."""
    cursor_up(screen, count)
    screen.cursor.x = 0


def cursor_down1(screen: ScreenState, count: int | None = None) -> None:
    """``CSI E``: down, to the first column."""
    cursor_down(screen, count)
    screen.cursor.x = 0


def cursor_back(screen: ScreenState, count: int | None = None) -> None:
    """``CSI D``: left, counted from the wrap point itself."""
    screen.cursor.x = max(0, min(screen.cursor.x - (count or 1), screen.grid.width - 1))


def cursor_forward(screen: ScreenState, count: int | None = None) -> None:
    """``CSI C``: right, stopping at the last column."""
    screen.cursor.x += count or 1
    screen.ensure_hbounds()


def backspace(screen: ScreenState) -> None:
    cursor_back(screen, 1)


def carriage_return(screen: ScreenState) -> None:
    screen.cursor.x = 0


def cursor_position(screen: ScreenState, line: int | None = None, column: int | None = None) -> None:
    """``CSI H``: to a row and column (1-based); with origin mode relative to the scroll region, and ignored
    when that would leave it."""
    x, y = (column or 1) - 1, (line or 1) - 1
    if screen.margins is not None and screen.origin:
        y += screen.margins.top
        if not screen.margins.top <= y <= screen.margins.bottom:
            return
    screen.cursor.x, screen.cursor.y = x, y
    screen.ensure_hbounds()
    screen.ensure_vbounds()


def cursor_to_column(screen: ScreenState, column: int | None = None) -> None:
    """``CSI G``: to a column (1-based)."""
    screen.cursor.x = (column or 1) - 1
    screen.ensure_hbounds()


def cursor_to_line(screen: ScreenState, line: int | None = None) -> None:
    """``CSI d``: to a row (1-based), relative to the scroll region with origin mode."""
    screen.cursor.y = (line or 1) - 1
    if screen.origin and screen.margins is not None:
        screen.cursor.y += screen.margins.top
    screen.ensure_vbounds()


# -- tabs ------------------------------------------------------------------------------------------


def tab(screen: ScreenState, count: int = 1) -> None:
    """``HT``, ``CSI I``: to the next tab stop, ``count`` times (the last column if none is left)."""
    x = screen.cursor.x
    for _ in range(max(count, 1)):
        x = min((stop for stop in screen.tabstops if stop > x), default=screen.grid.width - 1)
    screen.cursor.x = min(x, screen.grid.width - 1)


def back_tab(screen: ScreenState, count: int = 1) -> None:
    """``CSI Z`` (CBT): back to the previous tab stop, ``count`` times."""
    x = min(screen.cursor.x, screen.grid.width - 1)
    for _ in range(max(count, 1)):
        x = max((stop for stop in screen.tabstops if stop < x), default=0)
    screen.cursor.x = x


def set_tab_stop(screen: ScreenState) -> None:
    """``ESC H`` (HTS): a tab stop at the cursor's column."""
    screen.tabstops.add(screen.cursor.x)


def clear_tab_stop(screen: ScreenState, how: int = 0) -> None:
    """``CSI g`` (TBC): the stop at the cursor (0) or all of them (3)."""
    if how == 0:
        screen.tabstops.discard(screen.cursor.x)
    elif how == 3:
        screen.tabstops = set()
