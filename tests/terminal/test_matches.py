"""Searching lines: smart case, regular expressions, counting from the newest, wrapping around."""

from __future__ import annotations

import pytest

from openclaw_tui.terminal import Found, LineIndex, SearchError, compile_search, find_all

LINES = ["error: disk full", "all fine", "Error again  ", "two errors, errors", "ERROR"]


def search(text: str, regex: bool = False, lines: list[str] = LINES) -> list[tuple[int, int, int]]:
    pattern = compile_search(text, regex)
    assert pattern is not None
    joined, starts = LineIndex().text(lines.__getitem__, len(lines), len(lines))
    return [tuple(m) for m in find_all(pattern, joined, starts)]


def test_lower_case_ignores_case_and_a_capital_makes_it_exact() -> None:
    assert [m[0] for m in search("error")] == [0, 2, 3, 3, 4]
    assert search("Error") == [(2, 0, 5)]


def test_a_regular_expression_only_when_asked() -> None:
    assert search("err.r") == []
    assert [m[0] for m in search("err.r", regex=True)] == [0, 2, 3, 3, 4]
    assert search("^all", regex=True) == []  # a pattern sees one text: ^ is its start, not each line's
    with pytest.raises(SearchError, match="not a regular expression"):
        compile_search("(", regex=True)


def test_no_match_spans_two_lines_and_trailing_blanks_are_not_text() -> None:
    assert search(r"full\s+all", regex=True) == []
    assert search(r"again\s", regex=True) == []


def test_matches_count_from_the_newest_and_wrap_around() -> None:
    pattern = compile_search("error")
    assert pattern is not None
    joined, starts = LineIndex().text(LINES.__getitem__, 5, 5)
    found = Found(find_all(pattern, joined, starts), bottom=4)
    assert found.label == "1/5" and found.current is not None and found.current.line == 4
    assert found.step(older=True).line == 3 and found.label == "2/5"  # type: ignore[union-attr]
    for _ in range(3):
        found.step(older=True)
    assert found.label == "5/5" and found.current.line == 0  # type: ignore[union-attr]
    assert found.step(older=True).line == 4 and found.label == "1/5"  # type: ignore[union-attr]
    assert found.step(older=False).line == 0  # type: ignore[union-attr]


def test_the_current_match_is_the_newest_on_or_above_the_view() -> None:
    pattern = compile_search("error")
    assert pattern is not None
    joined, starts = LineIndex().text(LINES.__getitem__, 5, 5)
    found = Found(find_all(pattern, joined, starts), bottom=2)
    assert found.current is not None and found.current.line == 2 and found.label == "4/5"
    assert [m.start for m in found.on_line(3)] == [4, 12]
    assert Found([], bottom=0).label == "0/0"


def test_the_index_joins_final_lines_once_and_rereads_the_others() -> None:
    lines = ["one", "two", "three"]
    index = LineIndex()
    reads: list[int] = []

    def line(n: int) -> str:
        reads.append(n)
        return lines[n]

    assert index.text(line, 3, 2) == ("one\ntwo\nthree", [0, 4, 8])
    reads.clear()
    lines[2] = "three!"
    lines.append("four")
    assert index.text(line, 4, 2) == ("one\ntwo\nthree!\nfour", [0, 4, 8, 15])
    assert reads == [2, 3]
    assert index.text(line, 1, 1) == ("one", [0])  # fewer final lines than before: joined again
