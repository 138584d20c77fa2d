"""What a drag, a double-click and a triple-click select, and the mouse reports a program asked for."""

from __future__ import annotations

from openclaw_tui.terminal import Act, Selection, TerminalScreen, Unit, char_at, column_of, mouse_report

LINES = ["$ ls /usr/lib/x86_64 (foo)   ", "second line", "third"]


def line(n: int) -> str:
    return LINES[n]


def test_a_drag_selects_from_the_anchor_to_the_pointer_either_way() -> None:
    assert Selection((0, 2), (0, 3)).text(line) == "ls"
    assert Selection((2, 1), (0, 25)).text(line) == ")\nsecond line\nth"


def test_a_double_click_takes_a_path_whole_and_stops_at_brackets() -> None:
    assert Selection((0, 8), (0, 8), Unit.WORD).text(line) == "/usr/lib/x86_64"
    assert Selection((0, 22), (0, 22), Unit.WORD).text(line) == "foo"
    assert Selection((0, 21), (0, 21), Unit.WORD).text(line) == "("


def test_a_triple_click_takes_lines_without_their_trailing_blanks() -> None:
    assert Selection((1, 3), (0, 1), Unit.LINE).text(line) == LINES[0].rstrip() + "\nsecond line"
    assert Selection((1, 3), (1, 3), Unit.LINE).span(1, line) == (0, 11)


def test_a_wrapped_line_copies_as_one() -> None:
    screen = TerminalScreen(10, 4)
    screen.feed(b"0123456789abcde\r\nnext")
    selection = Selection((0, 0), (2, 3))
    assert selection.text(screen.line_text, screen.line_wrapped) == "0123456789abcde\nnext"


def test_cells_and_characters_of_wide_text() -> None:
    assert [char_at("a漢b", c) for c in range(5)] == [0, 1, 1, 2, 3]
    assert column_of("a漢b", 2) == 3


def test_reports_follow_the_mode_the_program_asked_for() -> None:
    sgr = {1000: True, 1006: True}
    assert mouse_report({}, Act.PRESS, 0, 4, 2) is None
    assert mouse_report(sgr, Act.PRESS, 0, 4, 2) == b"\x1b[<0;5;3M"
    assert mouse_report(sgr, Act.RELEASE, 0, 4, 2) == b"\x1b[<0;5;3m"
    assert mouse_report(sgr, Act.PRESS, 64, 0, 0, ctrl=True) == b"\x1b[<80;1;1M"
    assert mouse_report(sgr, Act.MOTION, 0, 1, 1, held=True) is None  # 1000 reports no motion
    assert mouse_report({1002: True, 1006: True}, Act.MOTION, 0, 1, 1, held=True) == b"\x1b[<32;2;2M"
    assert mouse_report({1002: True, 1006: True}, Act.MOTION, 0, 1, 1) is None
    assert mouse_report({1003: True, 1006: True}, Act.MOTION, 0, 1, 1) == b"\x1b[<35;2;2M"


def test_without_mode_1006_reports_are_the_old_bytes_and_end_at_column_223() -> None:
    clicks = {1000: True}
    assert mouse_report(clicks, Act.PRESS, 2, 0, 0) == b"\x1b[M\x22\x21\x21"
    assert mouse_report(clicks, Act.RELEASE, 2, 0, 0) == b"\x1b[M\x23\x21\x21"
    assert mouse_report(clicks, Act.PRESS, 0, 300, 0) is None
