"""The scrollback: every line the raw ring holds, replayed through the engine with its colours and sizes."""

from __future__ import annotations

import asyncio
import sys

from openclaw_tui.terminal import Scrollback, TerminalScreen

from ..support.rawsources import MemorySource, PtySource


def numbered(count: int, start: int = 1) -> bytes:
    return b"".join(b"line %d\r\n" % i for i in range(start, start + count))


def texts(screen: TerminalScreen) -> list[str]:
    return [screen.line_text(n).rstrip() for n in range(screen.lines)]


async def test_the_history_holds_every_line_with_its_colours() -> None:
    source = MemorySource(40, 10)
    source.emit(numbered(300) + b"\x1b[1;31mred and bold\x1b[0m plain\r\n")
    history = Scrollback(source)
    await history.build()
    screen = history.screen
    assert screen is not None
    lines = texts(screen)
    assert lines[:3] == ["line 1", "line 2", "line 3"]
    assert lines.index("line 300") == 299 and lines[300] == "red and bold plain"
    red, plain = screen.line_runs(300)[:2]
    assert red[0] == "red and bold" and red[1].fg == 1 and red[1].bold
    assert plain[0].startswith(" plain") and plain[1].fg is None


async def test_more_than_ten_thousand_lines_of_a_full_ring_are_kept() -> None:
    source = MemorySource(80, 24)
    source.emit(numbered(120_000))  # more than the 1 MiB ring holds
    assert source.raw.start > 0
    history = Scrollback(source)
    await history.build()
    assert history.screen is not None
    lines = [line for line in texts(history.screen) if line]
    assert len(lines) > 10_000 and lines[-1] == "line 120000"
    first = int(lines[0].split()[1])  # the ring cut its oldest line: the history starts at the next whole one
    assert lines == [f"line {i}" for i in range(first, 120_001)]


async def test_a_resize_recorded_in_the_ring_replays_where_it_happened() -> None:
    source = MemorySource(20, 5)
    source.emit(b"a" * 30 + b"\r\n" + numbered(6))
    source.resize(10, 5)
    source.emit(b"after\r\n")
    history = Scrollback(source)
    await history.build()
    screen = history.screen
    assert screen is not None and (screen.cols, screen.rows) == (10, 5)
    lines = texts(screen)
    assert lines[:3] == ["a" * 10, "a" * 10, "a" * 10]  # 30 cells, rewrapped at the new width
    assert "after" in lines


async def test_advance_replays_what_arrived_since_and_numbers_stay_put() -> None:
    source = MemorySource(40, 10)
    source.emit(numbered(100))
    history = Scrollback(source)
    await history.build()
    screen = history.screen
    assert screen is not None
    number = screen.first_line + texts(screen).index("line 50")
    source.emit(numbered(100, start=101))
    assert history.advance(50.0)
    lines = texts(screen)
    assert lines[number - screen.first_line] == "line 50"  # a line keeps its number as more arrive
    assert "line 200" in lines and history.behind == 0


async def test_a_flood_past_the_ring_while_reading_stops_the_history_where_it_was() -> None:
    source = MemorySource(40, 10, capacity=4096)
    source.emit(numbered(100))
    history = Scrollback(source)
    await history.build()
    source.emit(numbered(2000, start=101))
    assert not history.advance(50.0) and history.lost


async def test_a_real_program_in_a_pty_is_replayed_whole() -> None:
    source = PtySource([sys.executable, "-c", "for i in range(1, 501): print(f'\\x1b[32mrow {i}\\x1b[0m')"], 60, 20)
    try:
        await asyncio.wait_for(source.eof.wait(), 30)
        history = Scrollback(source)
        await history.build()
        assert history.screen is not None
        lines = [line for line in texts(history.screen) if line]
        assert lines == [f"row {i}" for i in range(1, 501)]
        assert history.screen.line_runs(0)[0][1].fg == 2
    finally:
        source.close()


async def test_the_search_index_comes_with_the_replay_and_keeps_up_as_lines_arrive() -> None:
    from openclaw_tui.terminal import compile_search, find_all

    source = MemorySource(40, 10)
    source.emit(numbered(5000))
    history = Scrollback(source)
    await history.build()
    screen = history.screen
    assert screen is not None
    stable = len(screen.grid.history)
    read: list[int] = []

    def line(n: int) -> str:  # what a search reads on the loop: only the screen's rows, never the history
        read.append(n)
        return screen.line_text(n)

    text, starts = history.index.text(line, screen.lines, stable)
    assert read and min(read) >= stable  # the history's lines were joined in the worker
    hits = find_all(compile_search("line 4321"), text, starts)
    assert [screen.line_text(m.line).rstrip() for m in hits] == ["line 4321"]
    source.emit(numbered(100, start=5001))
    assert history.advance(1000.0)
    read.clear()
    text, starts = history.index.text(line, screen.lines, len(screen.grid.history))
    assert min(read) >= len(screen.grid.history)  # the new history lines were taken in as they arrived
    assert [screen.line_text(m.line).rstrip() for m in find_all(compile_search("line 5090"), text, starts)] == \
        ["line 5090"]
