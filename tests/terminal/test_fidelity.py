"""Our screen draws recorded program output the way tmux does.

Each golden stream in ``corpus/`` (recorded by ``corpus/record.py`` from real programs in an 80x24 PTY)
is played into a tmux pane of the same size (:mod:`tmuxreplay`: a private server per stream, its own
config, a UTF-8 locale, the bytes written on a raw terminal so bare LFs stay bare and tmux's answers to
the stream's queries never show) and fed to ``TerminalScreen(80, 24)``; the visible rows must match.
``capture-pane -e -N``: attributes come as SGR sequences (read back into cells by the test's own small
reader, :mod:`sgrcells`, which shares no code with the engine, to compare styles cell by cell), cells
drawn in the DEC line-drawing set are marked with SO/SI (translated to the box characters we store),
and trailing cells are kept so reverse-video padding is compared too.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from openclaw_tui.terminal import TerminalScreen

from ..support.sgrcells import LINE_DRAWING, Attrs, read_capture
from ..support.tmuxreplay import TmuxReplay

CORPUS = Path(__file__).parent / "corpus"
STREAMS = sorted(CORPUS.glob("*.bin"))
COLS, ROWS = 80, 24
_SGR = re.compile(r"\x1b\[[0-9;:]*m")
_SHIFTS = re.compile(r"([\x0e\x0f])")

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def plain_rows(capture: list[str]) -> list[str]:
    """Captured rows as plain text: attributes dropped, line-drawing cells translated.

    tmux marks line-drawing cells with SO ... SI, and that state carries across rows.
    """
    out = []
    drawing = False
    for part in _SHIFTS.split(_SGR.sub("", "\n".join(capture))):
        if part in ("\x0e", "\x0f"):
            drawing = part == "\x0e"
        else:
            out.append("".join(LINE_DRAWING.get(c, c) for c in part) if drawing else part)
    return [row.rstrip() for row in "".join(out).split("\n")]


def captured_cells(capture: list[str]) -> list[list[tuple[str, Attrs]]]:
    """The cells tmux reported, styles included, read by the test's own SGR reader (:mod:`sgrcells`).

    Only cells tmux actually emitted count: blanks left by an erase in a background colour are not in a
    capture (tmux does not count them as used), so they cannot be compared.
    """
    return read_capture(capture)


def our_cells(screen: TerminalScreen, y: int, width: int) -> list[tuple[str, Attrs]]:
    """Row ``y`` of our screen in the reader's terms, so the two sides are compared as plain values."""
    return [(cell.data, Attrs(*(getattr(cell.style, f) for f in Attrs._fields)))
            for cell in screen.row_cells(y)[:width]]


@pytest.fixture(scope="module")
def captures() -> dict[Path, list[str]]:
    """tmux's capture of each stream, made once for both the text and the style comparison."""
    return {}


def tmux_capture(stream: Path, tmux: TmuxReplay, captures: dict[Path, list[str]]) -> list[str]:
    if stream not in captures:
        captures[stream] = tmux.replay(stream.read_bytes(), (COLS, ROWS)).styled
    return captures[stream]


def our_screen_of(stream: Path) -> TerminalScreen:
    screen = TerminalScreen(COLS, ROWS)
    screen.feed(stream.read_bytes())
    return screen


def test_corpus_has_the_recorded_programs() -> None:
    names = {p.stem for p in STREAMS}
    assert {"ls", "git_log", "python_repl", "vim", "vim_open", "less_open", "top", "unicode"} <= names
    assert all(p.stat().st_size < 200_000 for p in STREAMS)


@pytest.mark.parametrize("stream", STREAMS, ids=[p.stem for p in STREAMS])
def test_screen_text_matches_tmux(stream: Path, tmux: TmuxReplay, captures: dict[Path, list[str]]) -> None:
    theirs = plain_rows(tmux_capture(stream, tmux, captures))
    ours = [row.rstrip() for row in our_screen_of(stream).display()]
    mismatches = [
        f"row {y}:\n  tmux: {t!r}\n  ours: {o!r}" for y, (t, o) in enumerate(zip(theirs, ours)) if t != o
    ]
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("stream", STREAMS, ids=[p.stem for p in STREAMS])
def test_screen_styles_match_tmux(stream: Path, tmux: TmuxReplay, captures: dict[Path, list[str]]) -> None:
    theirs = captured_cells(tmux_capture(stream, tmux, captures))
    screen = our_screen_of(stream)
    mismatches = []
    for y, their_row in enumerate(theirs):
        our_row = our_cells(screen, y, len(their_row))
        diff = [x for x, (t, o) in enumerate(zip(their_row, our_row)) if t != o]
        if diff:
            x = diff[0]
            mismatches.append(f"row {y} from column {x}:\n  tmux: {their_row[x]}\n  ours: {our_row[x]}")
    assert not mismatches, "\n".join(mismatches)
