"""Which screen method answers which escape sequence.

The parser hands the screen a CSI's final byte and parameters; these tables map the final byte to the
handler and to how many parameters it takes, so a sequence with extra parameters (they happen) never
reaches a handler that cannot take them. A few handlers live here because they adapt a sequence to a
screen method: DECSTBM homes the cursor even when it resets the margins (as xterm and tmux do, unlike
pyte), and ``CSI T`` with five parameters is xterm's mouse highlight, not a scroll.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyte.screens import Margins


def _scroll_up(screen: Any, count: int = 1) -> None:
    screen.scroll_up(count)


def _scroll_down(screen: Any, *params: int) -> None:
    if len(params) <= 1:  # with five parameters CSI T is xterm's mouse highlight tracking
        screen.scroll_down(params[0] if params else 1)


def _report_status(screen: Any, mode: int = 0) -> None:
    screen.report_device_status(mode)


def _set_margins(screen: Any, top: int = 0, bottom: int = 0) -> None:
    """DECSTBM; like xterm and tmux (unlike pyte) the cursor goes home even when margins are reset."""
    top = max(top, 1) - 1
    bottom = (min(bottom, screen.lines) or screen.lines) - 1
    if bottom - top >= 1:
        full = top == 0 and bottom == screen.lines - 1
        screen.margins = None if full else Margins(top, bottom)
        screen.cursor_position()


VARIADIC = -1


def dispatch_tables(
    screen_class: Any,
) -> tuple[dict[str, tuple[Callable[..., None], int]], dict[str, Callable[[Any], None]]]:
    """``(csi, esc)``: CSI final byte -> (handler, how many parameters it takes); ESC final byte -> handler."""
    S = screen_class
    csi: dict[str, tuple[Callable[..., None], int]] = {
        "@": (S.insert_characters, 1),
        "A": (S.cursor_up, 1),
        "B": (S.cursor_down, 1),
        "C": (S.cursor_forward, 1),
        "D": (S.cursor_back, 1),
        "E": (S.cursor_down1, 1),
        "F": (S.cursor_up1, 1),
        "G": (S.cursor_to_column, 1),
        "H": (S.cursor_position, 2),
        "I": (S.tab, 1),
        "J": (S.erase_in_display, 1),
        "K": (S.erase_in_line, 1),
        "L": (S.insert_lines, 1),
        "M": (S.delete_lines, 1),
        "P": (S.delete_characters, 1),
        "S": (_scroll_up, 1),
        "T": (_scroll_down, VARIADIC),
        "X": (S.erase_characters, 1),
        "Z": (S.back_tab, 1),
        "`": (S.cursor_to_column, 1),
        "a": (S.cursor_forward, 1),
        "b": (S.repeat_last_character, 1),
        "c": (S.report_device_attributes, 1),
        "d": (S.cursor_to_line, 1),
        "e": (S.cursor_down, 1),
        "f": (S.cursor_position, 2),
        "g": (S.clear_tab_stop, 1),
        "h": (S.set_mode, VARIADIC),
        "l": (S.reset_mode, VARIADIC),
        "n": (_report_status, 1),
        "r": (_set_margins, 2),
        "s": (S.save_cursor, 0),
        "u": (S.restore_cursor, 0),
    }
    esc: dict[str, Callable[[Any], None]] = {
        "c": S.reset,
        "D": S.index,
        "E": S.next_line,
        "M": S.reverse_index,
        "H": S.set_tab_stop,
        "7": S.save_cursor,
        "8": S.restore_cursor,
        "=": lambda s: setattr(s, "app_keypad", True),
        ">": lambda s: setattr(s, "app_keypad", False),
    }
    return csi, esc
