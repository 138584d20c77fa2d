"""Which handler answers which escape sequence, by the names of :mod:`openclaw_tui.core.vt.sequences`.

The tables map a CSI's final byte to its handler and to how many parameters it takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openclaw_tui.core.vt import sequences as vt

from .editing import (
    delete_characters,
    erase_characters,
    erase_in_display,
    erase_in_line,
    insert_characters,
    repeat_last_character,
)
from .modeswitch import reset_mode, restore_cursor, save_cursor, set_mode
from .moves import (
    back_tab,
    clear_tab_stop,
    cursor_back,
    cursor_down,
    cursor_down1,
    cursor_forward,
    cursor_position,
    cursor_to_column,
    cursor_to_line,
    cursor_up,
    cursor_up1,
    set_tab_stop,
    tab,
)
from .scrolling import delete_lines, index, insert_lines, next_line, reverse_index, scroll_down, scroll_up
from .state import Margins, ScreenState

VARIADIC = -1
PRIMARY_DA = b"\x1b[?62;22c"  # a VT220 with ANSI colour: what programs need to know, nothing exotic
SECONDARY_DA = b"\x1b[>1;10;0c"
STATUS_OK = b"\x1b[0n"


def set_margins(screen: ScreenState, top: int = 0, bottom: int = 0) -> None:
    """DECSTBM; like xterm and tmux (unlike pyte) the cursor goes home even when margins are reset."""
    height = screen.grid.height
    top = max(top, 1) - 1
    bottom = (min(bottom, height) or height) - 1
    if bottom - top >= 1:
        full = top == 0 and bottom == height - 1
        screen.margins = None if full else Margins(top, bottom)
        cursor_position(screen)


def report_device_attributes(screen: ScreenState, mode: int = 0) -> None:
    """``CSI c`` (DA): what terminal this is."""
    if mode == 0:
        screen.reply(PRIMARY_DA)


def report_device_status(screen: ScreenState, mode: int = 0, private: bool = False) -> None:
    """``CSI n`` (DSR): "are you fine" (5) and "where is the cursor" (6; ``CSI ? 6 n`` is DECXCPR)."""
    if mode == vt.STATUS_REPORT and not private:
        screen.reply(STATUS_OK)
    elif mode == vt.CURSOR_REPORT:
        x, y = min(screen.cursor.x, screen.grid.width - 1), screen.cursor.y
        if screen.origin and screen.margins is not None:
            y -= screen.margins.top
        if private:
            screen.reply(b"\x1b[?%d;%d;1R" % (y + 1, x + 1))  # DECXCPR, with xterm's page field
        else:
            screen.reply(b"\x1b[%d;%dR" % (y + 1, x + 1))


def _set_keypad(on: bool) -> Callable[[ScreenState], None]:
    def switch(screen: ScreenState) -> None:
        screen.app_keypad = on

    return switch


CSI: dict[str, tuple[Callable[..., None], int]] = {
    vt.ICH: (insert_characters, 1),
    vt.CUU: (cursor_up, 1),
    vt.CUD: (cursor_down, 1),
    vt.CUF: (cursor_forward, 1),
    vt.CUB: (cursor_back, 1),
    vt.CNL: (cursor_down1, 1),
    vt.CPL: (cursor_up1, 1),
    vt.CHA: (cursor_to_column, 1),
    vt.CUP: (cursor_position, 2),
    vt.CHT: (tab, 1),
    vt.ED: (erase_in_display, 1),
    vt.EL: (erase_in_line, 1),
    vt.IL: (insert_lines, 1),
    vt.DL: (delete_lines, 1),
    vt.DCH: (delete_characters, 1),
    vt.SU: (scroll_up, 1),
    vt.SD: (scroll_down, VARIADIC),
    vt.ECH: (erase_characters, 1),
    vt.CBT: (back_tab, 1),
    vt.HPA: (cursor_to_column, 1),
    vt.HPR: (cursor_forward, 1),
    vt.REP: (repeat_last_character, 1),
    vt.DA: (report_device_attributes, 1),
    vt.VPA: (cursor_to_line, 1),
    vt.VPR: (cursor_down, 1),
    vt.HVP: (cursor_position, 2),
    vt.TBC: (clear_tab_stop, 1),
    vt.SM: (set_mode, VARIADIC),
    vt.RM: (reset_mode, VARIADIC),
    vt.DSR: (report_device_status, 1),
    vt.DECSTBM: (set_margins, 2),
    vt.SCOSC: (save_cursor, 0),
    vt.SCORC: (restore_cursor, 0),
}
"""CSI final byte -> (handler, how many parameters it takes)."""

ESC: dict[str, Callable[[Any], None]] = {
    vt.RIS: ScreenState.reset,
    vt.IND: index,
    vt.NEL: next_line,
    vt.RI: reverse_index,
    vt.HTS: set_tab_stop,
    vt.DECSC: save_cursor,
    vt.DECRC: restore_cursor,
    vt.DECKPAM: _set_keypad(True),
    vt.DECKPNM: _set_keypad(False),
}
"""ESC final byte -> handler."""
