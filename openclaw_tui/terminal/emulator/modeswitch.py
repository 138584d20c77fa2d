"""Terminal modes and the saved cursor: the switches a program flips and the dashboard must honour."""

from __future__ import annotations

from typing import NamedTuple

from openclaw_tui.core.vt import sequences as vt

from .cells import DEFAULT_CELL
from .editing import erase_in_display
from .moves import cursor_position
from .state import SavedCursor, ScreenState


class TerminalModes(NamedTuple):
    """Modes a program switched on that the dashboard must honour when it sends keys, pastes or clicks."""

    alt_screen: bool
    app_cursor: bool
    app_keypad: bool
    bracketed_paste: bool
    mouse_tracking: int | None  # one of vt.MOUSE_TRACKING when the program asked for mouse reports
    mouse_sgr: bool  # reports in the ``ESC[<b;x;yM`` form (vt.MOUSE_SGR)


def modes_of(screen: ScreenState) -> TerminalModes:
    tracking = [m for m in vt.MOUSE_TRACKING if screen.private_modes.get(m)]
    return TerminalModes(
        alt_screen=screen.grid.alternate,
        app_cursor=screen.private_modes.get(vt.APP_CURSOR_KEYS, False),
        app_keypad=screen.app_keypad,
        bracketed_paste=screen.private_modes.get(vt.BRACKETED_PASTE, False),
        mouse_tracking=tracking[-1] if tracking else None,
        mouse_sgr=screen.private_modes.get(vt.MOUSE_SGR, False),
    )


# -- modes -----------------------------------------------------------------------------------------


def set_mode(screen: ScreenState, *modes: int, private: bool = False) -> None:
    """``CSI h`` (SM), ``CSI ? h`` (DECSET)."""
    _switch(screen, modes, private, True)


def reset_mode(screen: ScreenState, *modes: int, private: bool = False) -> None:
    """``CSI l`` (RM), ``CSI ? l`` (DECRST)."""
    _switch(screen, modes, private, False)


def _switch(screen: ScreenState, modes: tuple[int, ...], private: bool, on: bool) -> None:
    if not private:
        for mode in modes:
            if mode == vt.INSERT:
                screen.insert = on
            elif mode == vt.NEWLINE:
                screen.newline = on
        return
    for mode in modes:
        screen.private_modes[mode] = on
        if mode in vt.ALT_SCREENS:
            _enter_alt(screen, mode) if on else _leave_alt(screen, mode)
        elif mode == vt.SAVE_CURSOR:
            save_cursor(screen) if on else restore_cursor(screen)
        elif mode == vt.COLUMNS_132:
            # tmux clears and homes without resizing; a pane's width is not the program's to set.
            erase_in_display(screen, 2)
            cursor_position(screen)
        elif mode == vt.ORIGIN:
            screen.origin = on
            cursor_position(screen)
        elif mode == vt.AUTOWRAP:
            screen.autowrap = on
        elif mode == vt.CURSOR_SHOWN:
            screen.cursor_shown = on


def _enter_alt(screen: ScreenState, mode: int) -> None:
    if screen.grid.alternate:
        return
    if mode == vt.ALT_SCREEN_SAVE_CURSOR:
        screen.saved_for_alt = _snapshot(screen)
    screen.grid.enter_alternate()


def _leave_alt(screen: ScreenState, mode: int) -> None:
    saved = screen.saved_for_alt if mode == vt.ALT_SCREEN_SAVE_CURSOR else None
    cursor = screen.cursor
    moved = screen.grid.leave_alternate((cursor.x, cursor.y), (saved.x, saved.y) if saved is not None else None)
    if saved is not None:
        _apply(screen, saved)
    if moved is not None:  # brought through a resize: the rest comes back as saved
        screen.cursor.x, screen.cursor.y = moved
    screen.cursor.x = min(screen.cursor.x, screen.grid.width - 1)  # tmux leaves no wrap pending, even here
    screen.cursor.y = min(screen.cursor.y, screen.grid.height - 1)


# -- saved cursor ----------------------------------------------------------------------------------


def _snapshot(screen: ScreenState) -> SavedCursor:
    c = screen.cursor
    graphics = (screen.graphics[0], screen.graphics[1])
    return SavedCursor(c.x, c.y, c.attrs, graphics, screen.shift, screen.origin, screen.autowrap)


def _apply(screen: ScreenState, saved: SavedCursor) -> None:
    screen.cursor.x, screen.cursor.y, screen.cursor.attrs = saved.x, saved.y, saved.attrs
    screen.graphics = list(saved.graphics)
    screen.shift = saved.shift
    screen.origin, screen.autowrap = saved.origin, saved.autowrap
    screen.ensure_hbounds()
    screen.ensure_vbounds()


def save_cursor(screen: ScreenState) -> None:
    """DECSC / ``CSI s``: one slot, overwritten by each save (xterm), not pyte's stack."""
    screen.saved = _snapshot(screen)


def restore_cursor(screen: ScreenState) -> None:
    """DECRC / ``CSI u``: back to the saved slot, or home with default attributes if none."""
    if screen.saved is not None:
        _apply(screen, screen.saved)
    else:
        screen.origin = False
        screen.cursor.attrs = DEFAULT_CELL
        cursor_position(screen)


def soft_reset(screen: ScreenState) -> None:
    """DECSTR (``CSI ! p``): modes, margins and attributes reset; the text stays."""
    screen.autowrap = screen.cursor_shown = True
    screen.origin = screen.insert = screen.newline = False
    screen.margins = None
    screen.cursor.attrs = DEFAULT_CELL
    screen.graphics, screen.shift, screen.saved = [False, False], 0, None
    for mode in (vt.APP_CURSOR_KEYS, vt.BRACKETED_PASTE, *vt.MOUSE_TRACKING, vt.MOUSE_SGR):
        screen.private_modes.pop(mode, None)
