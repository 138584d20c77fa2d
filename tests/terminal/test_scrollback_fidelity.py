"""The scrollback drawn equals tmux's history for the same bytes: ``capture-pane -S -`` of a real tmux pane,
in text and in attributes, cell by cell (read by the tests' own SGR reader, :mod:`sgrread`), across a resize
recorded in the ring."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from openclaw_tui.terminal import Scrollback, TerminalScreen

from ..support.rawsources import MemorySource
from ..support.sgrcells import Attrs, read_capture
from ..support.tmuxreplay import TmuxReplay

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

COLS, ROWS = 60, 12
COLOURS = [b"\x1b[31m", b"\x1b[1;32m", b"\x1b[4;38;5;208m", b"\x1b[7m", b"\x1b[3;44;97m", b"\x1b[38;2;10;200;30m"]


def coloured(count: int) -> bytes:
    """Numbered lines, each with a coloured word and some long enough to wrap."""
    out = []
    for i in range(1, count + 1):
        tail = b" and a tail long enough to wrap past sixty columns, once" if i % 7 == 0 else b""
        out.append(b"line %d %sword %d\x1b[0m plain%s\r\n" % (i, COLOURS[i % len(COLOURS)], i, tail))
    return b"".join(out)


@pytest.fixture
def tmux(tmp_path) -> Iterator[TmuxReplay]:
    server = TmuxReplay(tmp_path)
    yield server
    server.close()


def our_history(screen: TerminalScreen) -> list[list[tuple[str, Attrs]]]:
    """Each history line as cells: the character and its look in the reader's terms."""
    rows = []
    for number in range(len(screen.grid.history)):
        cells = []
        for text, style in screen.line_runs(number):
            cells += [(char, Attrs(*(getattr(style, f) for f in Attrs._fields))) for char in text]
        rows.append(cells)
    return rows


@pytest.mark.parametrize("resized", [False, True], ids=["one size", "resized midway"])
async def test_the_history_drawn_equals_tmux_capture_of_its_history(tmux: TmuxReplay, resized: bool) -> None:
    data = coloured(200)
    source = MemorySource(COLS, ROWS)
    marks: list[tuple[int, int, int]] = []
    half = data.index(b"line 101 ")
    source.emit(data[:half])
    if resized:
        source.resize(80, 10)
        marks.append((half, 80, 10))
    source.emit(data[half:])
    history = Scrollback(source)
    await history.build()
    assert history.screen is not None

    pane = tmux.replay(data, (COLS, ROWS), marks)
    assert pane.styled_history is not None
    theirs = read_capture(pane.styled_history)
    ours = our_history(history.screen)
    assert [line.rstrip() for line in pane.history] == [history.screen.line_text(n).rstrip()
                                                        for n in range(len(history.screen.grid.history))]
    assert len(theirs) == len(ours) > 150
    mismatches = []
    for number, (their_row, our_row) in enumerate(zip(theirs, ours, strict=True)):
        diff = [x for x, (t, o) in enumerate(zip(their_row, our_row)) if t != o]
        blank = [cell for cell in our_row[len(their_row):] if cell != (" ", Attrs())]  # past what tmux reported
        if diff or blank:
            x = diff[0] if diff else len(their_row)
            mismatches.append(f"line {number} from column {x}:\n  tmux: {their_row[x:x + 3]}\n  ours: {our_row[x:x + 3]}")
    assert not mismatches, "\n".join(mismatches[:5])
