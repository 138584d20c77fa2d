"""LiveView: shows a session's screen at once, keeps up on a frame budget, and is never behind."""

from __future__ import annotations

import asyncio
import sys
import time

from openclaw_tui.terminal import LiveView, TerminalScreen

from ..support.rawsources import MemorySource, PtySource


def full_parse(data: bytes, cols: int = 80, rows: int = 24) -> list[str]:
    screen = TerminalScreen(cols, rows)
    screen.feed(data)
    return screen.display()


def log_flood(lines: int, start: int = 0) -> bytes:
    """Scrolling output like a build log: colour changes, some lines wider than the screen."""
    out = []
    for i in range(start, start + lines):
        if i % 7 == 0:
            out.append(f"\x1b[1;32mok\x1b[0m step {i} " + "=" * (i % 150) + "\r\n")
        elif i % 11 == 0:
            out.append(f"\x1b[33mwarning {i}: still going\r\n")  # colour left on for the next line
        else:
            out.append(f"\x1b[0m{i:08d} compiling module_{i % 97}.c\r\n")
    return "".join(out).encode()


def test_attaching_shows_the_current_screen_without_advancing() -> None:
    source = MemorySource()
    source.emit(b"$ make\r\nbuilding...\r\n\x1b[31mdone\x1b[0m")
    view = LiveView(source)
    assert [row.rstrip() for row in view.screen.display()[:3]] == ["$ make", "building...", "done"]
    assert view.behind == 0


def test_advance_parses_new_output_and_reports_whether_anything_changed() -> None:
    source = MemorySource()
    view = LiveView(source)
    assert view.advance() is False
    source.emit(b"hello")
    assert view.advance() is True
    assert view.screen.display()[0].rstrip() == "hello"
    assert view.advance() is False


def test_caught_up_screen_equals_the_fully_parsed_screen_for_scrolling_output() -> None:
    stream = log_flood(40_000)  # ~1.4 MB, more than the ring holds and far more than one frame parses
    source = MemorySource()
    view = LiveView(source)
    source.emit(stream)
    assert source.raw.start > 0  # part of it was never in the ring: only a catch-up can show the rest
    view.advance()
    assert view.behind == 0
    assert view.screen.display() == full_parse(stream)
    assert _runs(view.screen) == _runs(_parsed(stream))


def _parsed(data: bytes) -> TerminalScreen:
    screen = TerminalScreen(80, 24)
    screen.feed(data)
    return screen


def _runs(screen: TerminalScreen) -> list:
    return [screen.row_runs(y) for y in range(screen.rows)]


def test_a_view_fed_frame_by_frame_during_a_flood_is_never_behind_and_ends_equal_to_the_full_parse() -> None:
    source = MemorySource(capacity=256 * 1024)
    view = LiveView(source, budget_ms=1.0)  # each burst below is far more than 1 ms of parsing
    reference = TerminalScreen(80, 24)  # parses every byte
    for chunk in range(60):
        piece = log_flood(700, start=chunk * 700)
        reference.feed(piece)
        source.emit(piece)
        view.advance()  # one frame per burst of output: current after it, so it skipped ahead
        assert view.behind == 0
        assert view.screen.display() == reference.display()


def test_catch_up_rebuilds_from_the_last_clear_for_full_screen_programs() -> None:
    drawn = b"\x1b[H\x1b[2J" + b"".join(b"\x1b[%d;%dHcell %d" % (y + 1, y * 3 + 1, y) for y in range(24))
    stream = log_flood(30_000) + drawn + b"\x1b[5;10H\x1b[7mstatus\x1b[0m"
    source = MemorySource()
    view = LiveView(source)
    source.emit(stream)
    view.advance()  # far more than one frame parses: current after one, so it skipped ahead
    assert view.behind == 0
    assert view.screen.display() == full_parse(stream)
    assert view.screen.cursor_xy == (15, 4)


def test_modes_set_in_skipped_bytes_are_carried_over() -> None:
    stream = b"\x1b[?1049h\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?25l" + log_flood(20_000)
    source = MemorySource()
    assert len(stream) < source.raw.capacity  # the mode changes are still in the ring, just never parsed
    view = LiveView(source)
    source.emit(stream)
    view.advance()
    modes = view.screen.modes
    assert (
        modes.alt_screen,
        modes.app_cursor,
        modes.bracketed_paste,
        modes.mouse_tracking,
        modes.mouse_sgr,
    ) == (True, True, True, 1002, True)
    assert not view.screen.cursor_visible
    assert view.screen.display() == full_parse(stream)


def test_ring_dropping_unread_bytes_makes_the_view_catch_up_from_the_tail() -> None:
    source = MemorySource(capacity=64 * 1024)
    view = LiveView(source, budget_ms=1000.0)  # the budget alone would never force a catch-up
    stream = log_flood(5_000)
    for i in range(0, len(stream), 4096):
        source.emit(stream[i : i + 4096])
    assert source.raw.start > view.offset
    view.advance()
    assert view.behind == 0
    assert view.screen.display() == full_parse(stream)


def test_output_within_budget_is_parsed_exactly_without_skipping() -> None:
    source = MemorySource()
    view = LiveView(source, budget_ms=1000.0)
    # a rebuild would start after the last alternate-screen switch, on a blank main screen: the text written
    # before it shows only when every byte was parsed
    stream = (b"kept on the main screen\r\n\x1b[?1049h" + b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, 25))
              + b"\x1b[?1049l")
    source.emit(stream)
    assert view.advance()
    assert view.screen.display()[0].rstrip() == "kept on the main screen"
    assert view.screen.display() == full_parse(stream)


def test_attaching_never_resizes_the_pty_and_the_screen_has_its_size() -> None:
    source = MemorySource(cols=120, rows=30)
    view = LiveView(source)
    assert source.resizes == []
    assert (view.screen.cols, view.screen.rows) == (120, 30)


def _sized_reference(steps: list[bytes | tuple[int, int]], cols: int = 80, rows: int = 24) -> TerminalScreen:
    screen = TerminalScreen(cols, rows)
    for step in steps:
        if isinstance(step, tuple):
            screen.resize(*step)
        else:
            screen.feed(step)
    return screen


def _play(source: MemorySource, steps: list[bytes | tuple[int, int]], view: LiveView | None = None) -> None:
    for step in steps:
        if isinstance(step, tuple):
            source.resize(*step)
        else:
            source.emit(step)
        if view is not None:
            view.advance()


RESIZED = [
    log_flood(60),
    (50, 20),
    log_flood(30, start=60) + b"\x1b[?1049h\x1b[Hfull screen \x1b[5;5Hat 5,5",
    (70, 10),
    b"\x1b[2J\x1b[Hredrawn at 70x10" + b"x" * 90,
    (70, 12),
    (30, 12),
    b"\x1b[?1049l" + log_flood(5, start=90),
    (100, 40),
]


def test_a_view_resizes_where_the_terminal_was_resized_and_equals_a_terminal_that_lived_through_it() -> None:
    reference = _sized_reference(RESIZED)
    source = MemorySource()
    view = LiveView(source, budget_ms=1000.0)
    _play(source, RESIZED, view)
    assert (view.screen.cols, view.screen.rows) == (100, 40)
    assert view.screen.display() == reference.display()
    assert view.screen.cursor_xy == reference.cursor_xy
    late = LiveView(source, budget_ms=1000.0)  # attaching afterwards replays the same bytes and sizes
    assert late.screen.display() == reference.display()
    assert late.screen.cursor_xy == reference.cursor_xy


def test_a_resize_with_no_output_after_it_reaches_the_view() -> None:
    source = MemorySource()
    signals: list[int] = []
    view = LiveView(source, on_output=lambda: signals.append(1))
    source.emit(b"hello")
    view.advance()
    source.resize(40, 10)
    assert signals == [1, 1] and view.behind
    assert view.advance() is True
    assert (view.screen.cols, view.screen.rows) == (40, 10)
    assert view.advance() is False


def test_a_catch_up_restarts_at_the_size_in_force_there_and_applies_later_resizes() -> None:
    steps: list[bytes | tuple[int, int]] = [log_flood(20_000), (60, 20), log_flood(20_000, start=20_000),
                                            (90, 30), log_flood(30, start=40_000)]
    reference = _sized_reference(steps)
    source = MemorySource()
    view = LiveView(source)
    _play(source, steps)
    view.advance()  # more than one frame parses: current after one, so it skipped ahead
    assert view.behind == 0
    assert view.screen.display() == reference.display()
    steps = [b"\x1b[?1049h" + log_flood(20_000, start=50_000), (40, 8), b"\x1b[H\x1b[2Jafter the resize",
             (45, 9), log_flood(3)]
    for step in steps:
        reference.resize(*step) if isinstance(step, tuple) else reference.feed(step)
    _play(source, steps)
    view.advance()
    assert view.behind == 0
    assert (view.screen.cols, view.screen.rows) == (45, 9)
    assert view.screen.display() == reference.display()


def test_new_output_is_signalled_and_close_unsubscribes() -> None:
    source = MemorySource()
    signals: list[int] = []
    view = LiveView(source, on_output=lambda: signals.append(1))
    source.emit(b"x")
    assert signals == [1]
    view.close()
    source.emit(b"y")
    assert signals == [1]
    assert source.listeners == []


async def test_a_real_pty_child_learns_of_a_resize_and_the_view_follows_it() -> None:
    child_code = r"""
import os, signal, sys, termios, tty
fd = sys.stdin.fileno()
tty.setraw(fd)
def size(*_):
    cols, rows = os.get_terminal_size(fd)
    os.write(1, f"size {cols}x{rows}\r\n".encode())
signal.signal(signal.SIGWINCH, size)
os.write(1, b"ready\r\n")
signal.pause()
"""
    source = PtySource([sys.executable, "-c", child_code], cols=80, rows=24)
    try:
        view = LiveView(source)

        async def shown(text: str) -> None:
            deadline = time.monotonic() + 10
            while not any(text in row for row in view.screen.display()):
                assert time.monotonic() < deadline, f"{text!r} not shown: {view.screen.display()[:4]}"
                view.advance()
                await asyncio.sleep(0.01)

        await shown("ready")
        source.resize(100, 30)
        await shown("size 100x30")
        assert (view.screen.cols, view.screen.rows) == (100, 30)
        assert view.screen.display()[0].rstrip() == "ready"
        view.close()
    finally:
        source.close()
    assert not source.child.isalive()
