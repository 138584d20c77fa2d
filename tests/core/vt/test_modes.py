"""Private modes read from raw output by the core's grammar, as the screen reads them."""

from __future__ import annotations

import pytest

from openclaw_tui.core.vt import ModeTracker
from openclaw_tui.core.vt.sequences import ALT_SCREEN_SAVE_CURSOR, APP_CURSOR_KEYS, BRACKETED_PASTE
from openclaw_tui.terminal import TerminalScreen

STREAM = (
    b"\x1b[?2004h"  # bracketed paste on
    b"\x1bPtmux;\x1b\x1b[?1h\x1b\\"  # application cursor keys, but inside a DCS string: not a mode
    b"\x1b[?1049\x1b[?1h"  # an ESC aborts the first; the second sets application cursor keys
    b"\x1b]0;\x1b[?2004l"  # the OSC ends at the ESC, so bracketed paste goes off
    b"\x1b[?10\x0049h"  # a control inside acts; the sequence still sets the alternate screen
)


def modes_after(*pieces: bytes) -> dict[int, bool]:
    tracker = ModeTracker()
    for piece in pieces:
        tracker.feed(piece)
    return {mode: tracker.is_set(mode) for mode in (APP_CURSOR_KEYS, BRACKETED_PASTE, ALT_SCREEN_SAVE_CURSOR)}


def test_modes_are_the_ones_the_screen_sets() -> None:
    screen = TerminalScreen(20, 5)
    screen.feed(STREAM)
    expected = {APP_CURSOR_KEYS: True, BRACKETED_PASTE: False, ALT_SCREEN_SAVE_CURSOR: True}
    assert modes_after(STREAM) == expected
    assert (screen.modes.app_cursor, screen.modes.bracketed_paste, screen.alt_screen) == (True, False, True)


@pytest.mark.parametrize("cut", range(1, len(STREAM)))
def test_modes_do_not_depend_on_where_reads_split(cut: int) -> None:
    assert modes_after(STREAM[:cut], STREAM[cut:]) == modes_after(STREAM)


def test_a_reset_inside_a_dcs_string_resets_nothing() -> None:
    assert modes_after(b"\x1b[?1h\x1bPq\x1bc\x1b\\")[APP_CURSOR_KEYS]
    assert not modes_after(b"\x1b[?1h\x1bc")[APP_CURSOR_KEYS]
