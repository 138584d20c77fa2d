"""Our screen draws recorded program output the way tmux does.

Each golden stream in ``corpus/`` (recorded by ``corpus/record.py`` from real programs in an 80x24 PTY)
is played into a detached tmux pane of the same size and fed to ``TerminalScreen(80, 24)``; the visible
rows must match. tmux setup, and why:

- a private server (``-S`` with a socket in the test's temporary directory) with its own config file: ``status off`` so the pane is
  the full 80x24, ``default-terminal xterm-256color`` to match the recordings' ``TERM`` (it only affects
  what programs inside tmux would be told; the stream is already fixed), ``escape-time 0``;
- the pane runs ``stty raw -echo`` before ``cat``: raw so the tty does not turn the stream's bare LFs
  into CR LF (full-screen programs run with output processing off), no echo so tmux's answers to the
  stream's queries do not appear on screen;
- the server runs in a UTF-8 locale, or tmux would not treat the stream as UTF-8;
- ``capture-pane -e -N``: attributes come as SGR sequences (read back into cells by the test's own small
  reader, :mod:`sgrread`, which shares no code with the engine, to compare styles cell by cell), cells
  drawn in the DEC line-drawing set are marked with SO/SI (translated to the box characters we store),
  and trailing cells are kept so reverse-video padding is compared too.

After ``cat`` ends the pane signals ``wait-for``; the test then polls ``capture-pane`` until three
captures in a row agree, with a deadline. The server is killed at the end.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sgrread import LINE_DRAWING, Attrs, read_capture

from openclaw_tui.terminal import TerminalScreen

CORPUS = Path(__file__).parent / "corpus"
STREAMS = sorted(CORPUS.glob("*.bin"))
COLS, ROWS = 80, 24
TMUX_CONF = "set -g status off\nset -g default-terminal xterm-256color\nset -g escape-time 0\n"
_SGR = re.compile(r"\x1b\[[0-9;:]*m")
_SHIFTS = re.compile(r"([\x0e\x0f])")

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.allow_leftovers,  # the module's tmux server lives across its tests and is killed at the end
]


class Tmux:
    def __init__(self, conf: Path, socket: Path) -> None:
        self.socket = socket
        self.conf = conf
        self.env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("TMUX", None)

    def __call__(self, *args: str, timeout: float = 10.0) -> str:
        result = subprocess.run(
            ["tmux", "-S", str(self.socket), "-f", str(self.conf), *args],
            env=self.env,
            capture_output=True,
            timeout=timeout,
            check=True,
        )
        return result.stdout.decode("utf-8", "replace")

    def capture_of(self, stream: Path) -> list[str]:
        """Rows of ``capture-pane -e -N`` (attributes as SGR, trailing cells kept) after playing ``stream``."""
        session = "s" + uuid.uuid4().hex[:8]
        command = (
            f"stty raw -echo; cat {shlex.quote(str(stream))}; tmux wait-for -S {session}; exec sleep 100000"
        )
        self("new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS), command)
        try:
            self("wait-for", session, timeout=20.0)
            deadline = time.monotonic() + 10.0
            captures: list[str] = []
            while len(captures) < 3 or len(set(captures[-3:])) > 1:  # unchanged for three polls in a row
                assert time.monotonic() < deadline, "tmux's pane never settled"
                if captures:
                    time.sleep(0.05)
                captures.append(self("capture-pane", "-p", "-e", "-N", "-t", session))
            capture = captures[-1]
        finally:
            self("kill-session", "-t", session)
        rows = capture.split("\n")[:ROWS]
        return rows + [""] * (ROWS - len(rows))


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
    """The cells tmux reported, styles included, read by the test's own SGR reader (:mod:`sgrread`).

    Only cells tmux actually emitted count: blanks left by an erase in a background colour are not in a
    capture (tmux does not count them as used), so they cannot be compared.
    """
    return read_capture(capture)


def our_cells(screen: TerminalScreen, y: int, width: int) -> list[tuple[str, Attrs]]:
    """Row ``y`` of our screen in the reader's terms, so the two sides are compared as plain values."""
    return [(cell.data, Attrs(*(getattr(cell.style, f) for f in Attrs._fields)))
            for cell in screen.row_cells(y)[:width]]


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    home = tmp_path_factory.mktemp("tmux")
    conf = home / "tmux.conf"
    conf.write_text(TMUX_CONF)
    server = Tmux(conf, home / "socket")
    try:
        yield server
    finally:
        subprocess.run(
            ["tmux", "-S", str(server.socket), "kill-server"],
            capture_output=True,
            env=server.env,
            check=False,
        )


@pytest.fixture(scope="module")
def captures(tmux: Tmux) -> dict[Path, list[str]]:
    """tmux's capture of each stream, made once for both the text and the style comparison."""
    return {}


def tmux_capture(stream: Path, tmux: Tmux, captures: dict[Path, list[str]]) -> list[str]:
    if stream not in captures:
        captures[stream] = tmux.capture_of(stream)
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
def test_screen_text_matches_tmux(stream: Path, tmux: Tmux, captures: dict[Path, list[str]]) -> None:
    theirs = plain_rows(tmux_capture(stream, tmux, captures))
    ours = [row.rstrip() for row in our_screen_of(stream).display()]
    mismatches = [
        f"row {y}:\n  tmux: {t!r}\n  ours: {o!r}" for y, (t, o) in enumerate(zip(theirs, ours)) if t != o
    ]
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("stream", STREAMS, ids=[p.stem for p in STREAMS])
def test_screen_styles_match_tmux(stream: Path, tmux: Tmux, captures: dict[Path, list[str]]) -> None:
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
