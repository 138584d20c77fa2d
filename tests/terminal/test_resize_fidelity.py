"""Real programs through real resizes: every screen we rebuild equals tmux's after the same bytes and sizes.

Each program runs in a PTY session of a real host and is driven through several resizes (shrink, grow,
width only, height only, between keys, during a flood) with ``Session.resize``, as type-through or the
fit key does. The session's raw ring then holds the bytes and the sizes where they happened; tmux, the
reference terminal, replays exactly that history (:mod:`tmuxreplay`). Compared with tmux's pane, row for
row, with the cursor, the screen in use and the styles of the cells tmux reports:

- a live view that followed the session all along, frame by frame;
- a view attached midway;
- a view attached at the end, and one with a tiny frame budget, which both rebuild from the tail (exact
  where a catch-up is by design: scrolling output, or a program that redrew from a clear screen within
  the bytes a catch-up parses; ``top`` only clears once, at its start, and is rebuilt approximately);
- the agent's ``process screen``.

A program that resizes correctly also redraws for its new size: our own curses program prints the size
curses tells it, which is only right because the session no longer exports ``COLUMNS``/``LINES``.
"""

from __future__ import annotations

import asyncio
import shlex
import shutil
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.session.session import Session
from openclaw_tui.terminal import LiveView, TerminalScreen

from ..support.hosts import hosting
from ..support.sessions import start_background
from ..support.sgrcells import Attrs, read_capture
from ..support.tmuxreplay import Pane, TmuxReplay
from ..support.waiting import wait_for

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.timeout(120),
]

CURSES_PROGRAM = r"""
import curses

def main(win):
    curses.curs_set(0)
    keys = 0
    while True:
        win.erase()
        win.border()
        rows, cols = win.getmaxyx()
        text = f"size {cols}x{rows} keys {keys}"
        win.addstr(rows // 2, max(1, (cols - len(text)) // 2), text[: max(0, cols - 2)], curses.A_BOLD)
        win.addstr(1, 1, "curses sees"[: max(0, cols - 2)], curses.A_REVERSE)
        win.refresh()
        key = win.getch()
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
        elif key == ord("q"):
            return
        else:
            keys += 1

curses.wrapper(main)
"""

FLOOD_PROGRAM = r"""
import sys, time
for block in range(60):
    lines = []
    for i in range(block * 100, block * 100 + 100):
        lines.append(f"\x1b[3{i % 8}m{i:06d}\x1b[0m " + "wrapping text " * (i % 13) + "end")
    sys.stdout.write("\r\n".join(lines) + "\r\n")
    sys.stdout.flush()
    time.sleep(0.05)
print("flood done")
time.sleep(60)
"""


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    async with hosting(ToolHost(config_path="/dev/null")) as h:
        yield h


class Run:
    """One program in a PTY session, with the live views that watch it."""

    def __init__(self, host: ToolHost, session: Session) -> None:
        self.host = host
        self.session = session
        self.live = LiveView(session, budget_ms=1000.0)
        self.midway: LiveView | None = None

    async def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Advance the views until the program has printed nothing for ``quiet`` seconds (or ``timeout``
        passed: a monitor may never pause; nothing below depends on the timing, only on the bytes)."""
        deadline = time.monotonic() + timeout
        last, since = self.session.raw.end, time.monotonic()
        while time.monotonic() - since < quiet and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            self.advance()
            if self.session.raw.end != last:
                last, since = self.session.raw.end, time.monotonic()

    def advance(self) -> None:
        for view in (self.live, self.midway):
            if view is not None:
                view.advance()

    async def resize(self, cols: int, rows: int) -> None:
        before = self.session.raw.end
        self.session.resize(cols, rows)
        await wait_for(lambda: self.session.raw.end > before, what=f"the program to redraw at {cols}x{rows}")
        await self.settle()

    async def keys(self, data: bytes) -> None:
        self.session.send(data, "operator", "type")
        await self.settle()


async def start(host: ToolHost, command: str, cwd: Path, settle: bool = True) -> Run:
    session = host.session(await start_background(host.call, command, pty=True, workdir=str(cwd),
                                                  env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}))
    assert session is not None
    run = Run(host, session)
    await wait_for(lambda: session.raw.end > 0, what="the program's first output")
    if settle:
        await run.settle()
    return run


def their_rows(pane: Pane) -> list[str]:
    return ["".join(text for text, _ in cells).rstrip() for cells in read_capture(pane.styled)]


def our_cells(screen: TerminalScreen, y: int, width: int) -> list[tuple[str, Attrs]]:
    return [(cell.data, Attrs(*(getattr(cell.style, f) for f in Attrs._fields)))
            for cell in screen.row_cells(y)[:width]]


def assert_same(screen: TerminalScreen, pane: Pane, what: str) -> None:
    assert (screen.cols, screen.rows) == pane.size, f"{what}: size"
    ours = [row.rstrip() for row in screen.display()]
    theirs = their_rows(pane)
    diff = [f"row {y}:\n  tmux: {t!r}\n  ours: {o!r}" for y, (t, o) in enumerate(zip(theirs, ours)) if t != o]
    assert not diff, f"{what} differs from tmux:\n" + "\n".join(diff)
    tx, ty = pane.cursor
    assert screen.cursor_xy == (min(tx, pane.size[0] - 1), ty), f"{what}: cursor"
    assert screen.alt_screen == pane.alternate, f"{what}: which screen"
    for y, cells in enumerate(read_capture(pane.styled)):
        ours_row = our_cells(screen, y, len(cells))
        bad = [x for x, (t, o) in enumerate(zip(cells, ours_row)) if t != o]
        assert not bad, f"{what}: row {y} column {bad[0]}: tmux {cells[bad[0]]}, ours {ours_row[bad[0]]}"


async def compare(run: Run, tmux: TmuxReplay, late: bool = True, catch_up: bool = False) -> Pane:
    """Compare every rebuilt screen with tmux's replay of the session's history; returns tmux's pane."""
    ring = run.session.raw
    await wait_for(lambda: (run.advance(), run.live.behind == 0)[1], what="the live view to be current")
    assert ring.start == 0, "the test's output must fit the ring, so tmux can replay all of it"
    _, data = ring.read(0)
    first, *marks = ring.marks_from(0)
    assert first.offset == 0
    pane = tmux.replay(data, (first.cols, first.rows), [tuple(m) for m in marks])
    assert_same(run.live.screen, pane, "the live view")
    if run.midway is not None:
        run.midway.advance()
        assert_same(run.midway.screen, pane, "the view attached midway")
    if late:
        view = LiveView(run.session)
        assert_same(view.screen, pane, "a view attached at the end")
        view.close()
    if catch_up:
        hurried = LiveView(run.session, budget_ms=0.01)
        assert hurried.offset == ring.end  # attaching is its own catch-up
        assert_same(hurried.screen, pane, "a view that caught up from the tail")
        hurried.close()
    r = await run.host.call({"tool": "process", "action": "screen", "sessionId": run.session.id})
    shown = r["text"].rsplit("\n[screen ", 1)
    assert shown[1].startswith(f"{pane.size[0]}x{pane.size[1]},"), r["text"]
    rows = their_rows(pane)
    while rows and not rows[-1]:
        rows.pop()
    assert shown[0].split("\n") == (rows or [""]), "process screen differs from tmux"
    return pane


def program_file(tmp_path: Path, text: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return shlex.quote(str(path))


async def test_our_curses_program_learns_each_size_and_redraws_as_in_tmux(host, tmux, tmp_path) -> None:
    run = await start(host, f"{sys.executable} {program_file(tmp_path, CURSES_PROGRAM, 'sizes.py')}", tmp_path)
    for size in [(80, 24), (60, 24), (60, 12), (100, 40), (30, 8)]:  # shrink, width, height, grow, both
        await run.resize(*size)
        await wait_for(lambda s=size: f"size {s[0]}x{s[1]}" in "".join(run.live.screen.display()),
                       what=f"curses to report {size}")
        if size == (60, 12):
            run.midway = LiveView(run.session, budget_ms=1000.0)
        await run.keys(b"x")
    pane = await compare(run, tmux, catch_up=True)
    assert any("size 30x8 keys 5" in row for row in their_rows(pane))
    await run.keys(b"q")


async def test_vim_through_resizes_between_keys(host, tmux, tmp_path) -> None:
    if shutil.which("vim") is None:
        pytest.skip("vim is not installed")
    text = tmp_path / "sample.txt"
    text.write_text("".join(f"{i:3d} {i:03d} w{i:03d}.{i % 7} the quick brown fox {'*' * (i % 40)}\n"
                            for i in range(1, 200)))
    run = await start(host, "vim -u NONE -N -i NONE -c 'set number' sample.txt", tmp_path)
    await run.keys(b"40G")
    await run.resize(60, 20)
    await run.keys(b"\x04")  # half a page down
    await run.resize(133, 20)
    run.midway = LiveView(run.session, budget_ms=1000.0)
    await run.resize(133, 35)
    await run.keys(b"Otyped line\x1b")
    await run.resize(50, 12)
    await run.resize(120, 30)
    await compare(run, tmux)
    await run.keys(b":q!\r")


async def test_less_through_resizes(host, tmux, tmp_path) -> None:
    if shutil.which("less") is None:
        pytest.skip("less is not installed")
    (tmp_path / "text.txt").write_text("".join(f"line {i:4d}: " + "lorem ipsum " * (i % 12) + "\n"
                                               for i in range(1, 400)))
    run = await start(host, "less text.txt", tmp_path)
    await run.resize(70, 20)
    await run.keys(b" ")
    await run.resize(70, 35)
    run.midway = LiveView(run.session, budget_ms=1000.0)
    await run.resize(40, 35)
    await run.keys(b"G")
    await run.resize(100, 15)
    await compare(run, tmux)
    await run.keys(b"q")


@pytest.mark.parametrize("program", ["top -d 1", "htop -d 10"])
async def test_a_refreshing_monitor_through_resizes(program, host, tmux, tmp_path) -> None:
    if shutil.which(program.split()[0]) is None:
        pytest.skip(f"{program.split()[0]} is not installed (.ci/run installs it)")
    run = await start(host, program, tmp_path)
    for size in [(80, 24), (80, 40), (140, 40), (60, 15)]:
        await run.resize(*size)
        if size == (140, 40):
            run.midway = LiveView(run.session, budget_ms=1000.0)
    await compare(run, tmux, late=program.startswith("htop"))
    await run.keys(b"q")


async def test_a_dialog_box_through_resizes(host, tmux, tmp_path) -> None:
    if shutil.which("dialog") is None:
        pytest.skip("dialog is not installed (.ci/run installs it)")
    run = await start(host, "dialog --title Deploy --menu 'Where to?' 15 40 5 1 staging 2 production 3 canary",
                      tmp_path)
    await run.resize(60, 20)
    await run.keys(b"2")  # the second entry: the highlight moves
    await run.resize(100, 20)
    run.midway = LiveView(run.session, budget_ms=1000.0)
    await run.resize(100, 40)
    await run.resize(50, 18)
    await compare(run, tmux)
    await run.keys(b"\x1b")


async def test_scrolling_output_resized_during_a_flood(host, tmux, tmp_path) -> None:
    run = await start(host, f"{sys.executable} {program_file(tmp_path, FLOOD_PROGRAM, 'flood.py')}", tmp_path,
                      settle=False)
    for size in [(60, 20), (60, 35), (100, 35), (45, 30)]:  # the flood goes on between them
        before = run.session.raw.end
        run.session.resize(*size)
        await wait_for(lambda b=before: run.session.raw.end > b + 20_000, what="more of the flood")
        run.advance()
        if size == (100, 35):
            run.midway = LiveView(run.session, budget_ms=1000.0)
    await wait_for(lambda: b"flood done" in run.session.raw.read(max(0, run.session.raw.end - 200))[1],
                   what="the end of the flood")
    await run.settle()
    assert len(run.session.raw.marks_from(0)) == 5
    assert max(m.offset for m in run.session.raw.marks_from(0)) < run.session.raw.end - 20_000
    await compare(run, tmux, catch_up=True)
