"""TerminalScreen: the fixes over stock pyte, the replies to queries, and the read-out for painters."""

from __future__ import annotations

import random
import tracemalloc

import pyte
import pytest

from openclaw_tui.core.vt.grammar import MAX_HELD
from openclaw_tui.terminal import Style, TerminalScreen
from openclaw_tui.terminal.emulator.style import DEFAULT_STYLE

from ..support.rawsources import ANSWERS, ANSWERS_AFTER


def screen_after(data: bytes | str, cols: int = 20, rows: int = 5, **kw) -> TerminalScreen:
    screen = TerminalScreen(cols, rows, **kw)
    screen.feed(data.encode() if isinstance(data, str) else data)
    return screen


def row(screen: TerminalScreen, y: int = 0) -> str:
    return screen.display()[y].rstrip()


# -- zero-width characters: stock pyte drops everything after them -----------------------------------


def test_text_after_variation_selector_16_is_kept_and_placed_after_the_heart() -> None:
    screen = screen_after("a\u2764\ufe0fb|")
    assert row(screen) == "a\u2764\ufe0fb|"
    assert screen.cursor_xy == (4, 0)


def test_zwj_emoji_sequence_fills_one_wide_cell_and_text_after_it_follows() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    screen = screen_after(family + "c")
    assert row(screen) == family + "c"
    assert screen.cursor_xy == (3, 0)


def test_zero_width_space_does_not_swallow_the_rest_of_the_line() -> None:
    screen = screen_after("x\u200by and more")
    assert row(screen) == "x\u200by and more"
    assert screen.cursor_xy == (11, 0)


def test_stock_pyte_loses_text_after_zero_width_space() -> None:
    """The bug being fixed, shown on stock pyte so the test above means something."""
    stock = pyte.Screen(20, 5)
    pyte.ByteStream(stock).feed("x\u200by and more".encode())
    assert stock.display[0].rstrip() != "x\u200by and more"


def test_combining_mark_stays_on_its_base_cell() -> None:
    screen = screen_after("e\u0301z")
    assert row(screen) == "e\u0301z"
    assert screen.cursor_xy == (2, 0)


def test_combining_mark_after_a_wide_character_joins_the_wide_character_not_its_stub() -> None:
    screen = screen_after("\u4e2d\u0301x")
    assert row(screen) == "\u4e2d\u0301x"
    assert screen.row_cells(0)[0].data == "\u4e2d\u0301"
    assert screen.cursor_xy == (3, 0)


# -- wide characters --------------------------------------------------------------------------------


def test_cjk_and_emoji_take_two_cells_each_and_appear_once_in_the_row_text() -> None:
    screen = screen_after("\u4e2d\u6587\U0001f600|")
    assert screen.cursor_xy == (7, 0)
    assert screen.display()[0] == "\u4e2d\u6587\U0001f600|" + " " * 13


def test_wide_character_that_does_not_fit_wraps_to_the_next_row() -> None:
    screen = screen_after("x" * 19 + "\u4e2d", cols=20)
    assert row(screen, 0) == "x" * 19
    assert row(screen, 1) == "\u4e2d"
    assert screen.cursor_xy == (2, 1)


def test_overwriting_half_of_a_wide_character_blanks_the_other_half() -> None:
    screen = screen_after("\u4e2d\u6587\r\x1b[1Ca")
    assert row(screen) == " a\u6587"


# -- alternate screen -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [1049, 1047, 47])
def test_leaving_the_alternate_screen_restores_the_main_screen(mode: int) -> None:
    screen = screen_after("main text\r\nprompt$ ")
    screen.feed(b"\x1b[?%dh" % mode)
    assert screen.modes.alt_screen
    screen.feed(b"\x1b[2J\x1b[Hfull screen app")
    assert row(screen, 0) == "full screen app"
    screen.feed(b"\x1b[?%dl" % mode)
    assert not screen.modes.alt_screen
    assert [row(screen, 0), row(screen, 1)] == ["main text", "prompt$"]


def test_1049_restores_the_cursor_and_1047_does_not() -> None:
    screen = screen_after("prompt$ ")
    screen.feed(b"\x1b[?1049h\x1b[10;10H\x1b[?1049l")
    assert screen.cursor_xy == (8, 0)
    screen.feed(b"\x1b[?1047h\x1b[3;5H\x1b[?1047l")
    assert screen.cursor_xy == (4, 2)


def test_alternate_screen_starts_blank() -> None:
    screen = screen_after("main\x1b[?1049h")
    assert all(not line.strip() for line in screen.display())


# -- CSI sequences stock pyte ignores ---------------------------------------------------------------


def test_csi_s_scrolls_up_and_csi_t_scrolls_down_without_moving_the_cursor() -> None:
    screen = screen_after("1\r\n2\r\n3\r\n4\r\n5\x1b[2S", rows=5)
    assert [row(screen, y) for y in range(5)] == ["3", "4", "5", "", ""]
    assert screen.cursor_xy == (1, 4)
    screen.feed(b"\x1b[T")
    assert [row(screen, y) for y in range(5)] == ["", "3", "4", "5", ""]


def test_csi_b_repeats_the_previous_character() -> None:
    assert row(screen_after("ab\x1b[3b|")) == "abbbb|"


def test_csi_z_tabs_backwards() -> None:
    screen = screen_after("\t\t\tx\x1b[2Zy", cols=40)
    assert screen.cursor_xy == (17, 0)  # from 25 back to the stops at 24, then 16
    assert row(screen) == " " * 16 + "y" + " " * 7 + "x"


def test_csi_s_and_u_save_and_restore_the_cursor() -> None:
    screen = screen_after("abc\x1b[s\r\n\r\nxyz\x1b[uD")
    assert row(screen, 0) == "abcD"
    assert screen.cursor_xy == (4, 0)


def test_saved_cursor_is_one_slot_so_restoring_twice_returns_to_the_same_place() -> None:
    screen = screen_after("\x1b[2;3H\x1b7\x1b[5;5H\x1b8\x1b[5;5H\x1b8")
    assert screen.cursor_xy == (2, 1)


def test_erase_in_display_3_clears_scrollback_only_not_the_screen() -> None:
    assert row(screen_after("keep\x1b[3J")) == "keep"


def test_dec_line_drawing_characters_are_drawn_as_box_characters() -> None:
    assert row(screen_after("\x1b(0lqk\x1b(B x")) == "\u250c\u2500\u2510 x"


def test_stray_c1_controls_and_invalid_utf8_never_raise() -> None:
    screen = screen_after(b"ok\xff\xfe\xc2\x9b|\x1b[999999999999;99999999999H")
    assert screen.display()[0].startswith("ok\ufffd\ufffd|")


def test_strings_holding_other_escapes_are_skipped_whole() -> None:
    """tmux passthrough (``ESC P tmux; ... ESC \\``) doubles the escapes inside; none of it is drawn."""
    assert row(screen_after(b"a\x1bPtmux;\x1b\x1b[31mX\x1b\\b")) == "ab"


def test_an_endless_unterminated_string_is_read_to_its_end_but_not_buffered_past_the_limit() -> None:
    """As tmux: an OSC is kept up to the one hold-back limit (1 MiB) and applied; past it, it is still read
    to its terminator, whatever comes meanwhile, but its body is dropped and it is not applied."""
    assert screen_after(b"\x1b]2;" + b"t" * 100_000 + b"\x07").title == "t" * 100_000
    screen = screen_after(b"a\x1b]2;")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(2 * MAX_HELD // 65536):
            screen.feed(b"A" * 65536)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 100_000  # not the 2 MiB of the string
    screen.feed(b"B" * 1000 + b"\x07c")
    assert row(screen) == "ac"
    assert screen.title == ""


# -- input split anywhere ---------------------------------------------------------------------------

STREAM = (
    "plain \x1b[1;31mbold red\x1b[0m \u4e2d\u6587 e\u0301 \x1b]0;title\x07\x1b[38;2;1;2;3mrgb\x1b[m\r\n"
    "\x1b[?1h\x1b[?2004h\u2764\ufe0f end\x1b[2;5H!"
).encode()


def test_feeding_one_byte_at_a_time_gives_the_same_screen_as_one_feed() -> None:
    whole = screen_after(STREAM, cols=40)
    split = TerminalScreen(40, 5)
    for i in range(len(STREAM)):
        split.feed(STREAM[i : i + 1])
    assert split.display() == whole.display()
    assert [split.row_runs(y) for y in range(5)] == [whole.row_runs(y) for y in range(5)]
    assert split.title == "title"
    assert split.modes.app_cursor and split.modes.bracketed_paste


def test_random_bytes_never_raise() -> None:
    rnd = random.Random(1)
    alphabet = b"\x1b[]?;0123456789mHJKABCDhl\r\n\x07\x08\t Pabc\xe4\xb8\xad\xcc\x81\\\x9b"
    screen = TerminalScreen(20, 6)
    for _ in range(300):
        screen.feed(bytes(rnd.choice(alphabet) for _ in range(rnd.randint(1, 60))))
    assert len(screen.display()) == 6


# -- replies ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "reply"), ANSWERS)
def test_queries_are_answered_through_on_reply(query: bytes, reply: bytes) -> None:
    replies: list[bytes] = []
    screen_after(ANSWERS_AFTER + query, on_reply=replies.append)
    assert replies == [reply]


def test_queries_go_unanswered_without_on_reply() -> None:
    screen = TerminalScreen(20, 5)
    screen.feed(b"ab\x1b[6n\x1b[c")
    assert screen.display()[0].rstrip() == "ab"


# -- styles and runs --------------------------------------------------------------------------------


def test_sgr_colours_and_attributes_become_styles() -> None:
    screen = screen_after(
        "\x1b[1;2;3;4;7;9;31;42ma\x1b[0;38;5;200;48;2;16;32;48mb\x1b[0;38:2::255:0:10;95mc\x1b[0;4:0md"
    )
    runs = screen.row_runs(0, show_cursor=False)
    assert runs[0] == (
        "a",
        Style.of(
            fg=1, bg=2, bold=True, dim=True, italic=True, underline=True, reverse=True, strikethrough=True
        ),
    )
    assert runs[1] == ("b", Style.of(fg=200, bg="#102030"))
    assert runs[2] == ("c", Style.of(fg=13))
    assert runs[3][1] is DEFAULT_STYLE


def test_equal_styles_are_the_same_object() -> None:
    screen = screen_after("\x1b[31mred\x1b[0m plain \x1b[31mred again")
    runs = screen.row_runs(0, show_cursor=False)
    assert runs[0][1] is runs[2][1] is Style.of(fg=1)
    assert Style(fg=1).interned() is Style.of(fg=1)


def test_runs_cover_the_full_width_and_the_cursor_cell_is_its_own_reversed_run() -> None:
    screen = screen_after("ab\x1b[32mcd\x1b[0m\x1b[1;2H")
    runs = screen.row_runs(0)
    assert "".join(text for text, _ in runs) == "abcd" + " " * 16
    assert runs[1] == ("b", Style.of(reverse=True))
    screen.feed(b"\x1b[?25l")
    assert not screen.cursor_visible
    assert len(screen.row_runs(0)) == 3


def test_dirty_rows_are_reported_once() -> None:
    screen = screen_after("x")
    screen.take_dirty()
    screen.feed(b"\x1b[3;1Hy")
    assert screen.take_dirty() == {2}
    assert screen.take_dirty() == set()


def test_modes_report_what_the_program_switched_on() -> None:
    screen = screen_after("\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b=")
    modes = screen.modes
    assert (
        modes.app_cursor,
        modes.bracketed_paste,
        modes.mouse_tracking,
        modes.mouse_sgr,
        modes.app_keypad,
    ) == (True, True, 1002, True, True)
    screen.feed(b"\x1b[?1l\x1b[?1002l\x1bc")
    assert screen.modes.mouse_tracking is None and not screen.modes.app_cursor


def test_resize_keeps_the_cursor_row_on_screen() -> None:
    screen = screen_after("1\r\n2\r\n3\r\n4\r\n5", rows=5)
    screen.resize(10, 3)
    assert screen.display() == ["3" + " " * 9, "4" + " " * 9, "5" + " " * 9]
    assert screen.cursor_xy == (1, 2)
    screen.resize(12, 4)
    assert len(screen.display()) == 4 and len(screen.display()[0]) == 12
