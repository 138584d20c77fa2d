"""TerminalReplies: what the host writes back to a PTY program's queries, from the output alone."""

from __future__ import annotations

import pytest

from openclaw_tui.terminal import replies as replies_module
from openclaw_tui.terminal.replies import WINDOW, TerminalReplies

from ..support.rawsources import ANSWERS, ANSWERS_AFTER, MemorySource


def ask(source: MemorySource, replies: TerminalReplies, query: bytes) -> bytes:
    source.emit(query)
    return replies(source.raw.end, query)


@pytest.mark.parametrize(("query", "reply"), ANSWERS)
def test_each_query_gets_the_answer_a_terminal_gives(query: bytes, reply: bytes) -> None:
    source = MemorySource()
    source.emit(ANSWERS_AFTER)
    assert ask(source, TerminalReplies(source), query) == reply


def test_the_cursor_is_where_the_output_before_the_query_left_it(monkeypatch) -> None:
    # a second answer from the same replies is worked out only within the parse budget, which a loaded
    # machine can spend on the first: this test is about where the cursor is (the budget has its own)
    monkeypatch.setattr(replies_module, "BUDGET_S", float("inf"))
    source = MemorySource(cols=80, rows=24)
    replies = TerminalReplies(source)
    source.emit(b"\x1b[2J\x1b[10;20Hx")
    assert ask(source, replies, b"\x1b[6n") == b"\x1b[10;21R"
    source.emit(b"\r\n" * 50 + b"tail")  # scrolls off the bottom: the cursor stays on the last row
    assert ask(source, replies, b"\x1b[6n") == b"\x1b[24;5R"


def test_output_after_the_query_does_not_move_the_answer() -> None:
    # the reads that bring the query may bring more after it; the answer is for the moment of the query
    source = MemorySource()
    source.emit(b"ab\x1b[6n\r\n\r\nlater")
    assert TerminalReplies(source)(len(b"ab\x1b[6n"), b"\x1b[6n") == b"\x1b[1;3R"


def test_the_window_size_is_the_ptys() -> None:
    source = MemorySource(cols=40, rows=10)
    source.emit(b"\r\n" * 30 + b"x" * 45)  # wraps at 40 columns on the last of 10 rows
    assert ask(source, TerminalReplies(source), b"\x1b[6n") == b"\x1b[10;6R"


def test_a_long_history_is_not_parsed_whole_but_scrolling_output_still_answers_exactly() -> None:
    source = MemorySource(capacity=8 << 20)
    source.emit(b"".join(b"line %d\r\n" % i for i in range(200_000)) + b"prompt> ")
    assert len(source.raw) > 4 * WINDOW
    assert ask(source, TerminalReplies(source), b"\x1b[6n") == b"\x1b[24;9R"


def test_over_budget_the_previous_cursor_answer_is_given_again(monkeypatch) -> None:
    source = MemorySource()
    replies = TerminalReplies(source)
    source.emit(b"abc")
    assert ask(source, replies, b"\x1b[6n") == b"\x1b[1;4R"
    monkeypatch.setattr(replies_module, "BUDGET_S", -1.0)  # every second's budget is already spent
    source.emit(b"defgh")
    assert ask(source, replies, b"\x1b[6n") == b"\x1b[1;4R"  # stale, but answered at once
    assert ask(source, replies, b"\x1b[?6n") == b"\x1b[?1;9;1R"  # no earlier answer of this kind: worked out
    monkeypatch.setattr(replies_module, "BUDGET_S", 1.0)
    assert ask(source, replies, b"\x1b[6n") == b"\x1b[1;9R"


def test_the_cursor_answer_follows_the_resizes_where_they_happened() -> None:
    # A cursor past the end of its row's text goes to that end when the width changes, as in tmux: the
    # answer needs the resize where it happened, not a replay of everything at the size in force now.
    source = MemorySource(cols=40, rows=10)
    source.emit(b"abc\x1b[5;35H")
    source.resize(80, 10)
    after = ask(source, TerminalReplies(source), b"\x1b[6n")
    assert after == b"\x1b[5;1R"
    replayed_at_the_new_size = MemorySource(cols=80, rows=10)
    replayed_at_the_new_size.emit(b"abc\x1b[5;35H")
    assert ask(replayed_at_the_new_size, TerminalReplies(replayed_at_the_new_size), b"\x1b[6n") == b"\x1b[5;35R"
