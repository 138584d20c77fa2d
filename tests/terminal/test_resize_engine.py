"""The emulator's own resize behaves like tmux's: rows, columns, history, rewrapping, both screens.

Each case is a byte stream with resizes at given offsets, played into our screen and replayed into tmux
(:mod:`tmuxreplay`); the visible rows, the cursor, the screen in use and the history tmux kept (as far as
we keep one) must match. Hand-picked cases name the rules; a seeded random mix (text, wrapping, cursor
moves, erases, scroll regions, inserted and deleted lines, both screens) covers their interplay.

Two things tmux does are left out of the random mix because they are not the terminal's behaviour but its
capture's or its batching's: insert/delete of characters right after text in the same read act before
tmux has stored that text, and an erase that cuts a wide character leaves tmux a stub that
``capture-pane`` cannot show.
"""

from __future__ import annotations

import random
import shutil

import pytest

from openclaw_tui.terminal import TerminalScreen

from ..support.tmuxreplay import TmuxReplay

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

A = b"A" * 25  # three rows at ten columns, the first two running on
LINES = b"".join(b"line %d\r\n" % i for i in range(1, 15)) + b"end"
FILLED = b"".join(bytes([65 + i]) * 10 for i in range(5)) + b"F" * 5  # six rows, all but the last running on
MARKED = b"".join(b"\x1b[%d;1H%d" % (y + 1, y) for y in range(6))  # a digit on each row, marks untouched

CASES: dict[str, tuple[bytes, tuple[int, int], list[tuple[int, int, int]]]] = {
    "a taller screen pulls back what scrolled off": (LINES, (20, 6), [(len(LINES), 20, 10)]),
    "but not after a clear": (LINES + b"\x1b[H\x1b[2Jtop", (20, 6), [(len(LINES) + 10, 20, 10)]),
    "a shorter screen drops rows below the cursor first": (b"a\r\nb\r\nc\x1b[2;1H", (10, 6), [(11, 10, 3)]),
    "narrower: running text is rewrapped": (b"short\r\n" + A + b"B" * 10 + b"\r\nnext", (30, 6),
                                            [(49, 12, 6)]),
    "wider: rows that ran on are joined": (b"short\r\n" + A + b"B" * 10 + b"\r\nnext", (30, 6),
                                           [(49, 12, 6), (49, 50, 6)]),
    "an erased row still counts as used": (b"abc\x1b[K\r\ndef", (30, 6), [(13, 2, 6)]),
    "a cursor past its text goes to the end of it": (b"abc\x1b[5;35H", (40, 10), [(11, 80, 10)]),
    "the alternate screen is cut, not rewrapped": (b"\x1b[?1049h" + A + b"\x1b[1;1H", (10, 6),
                                                   [(39, 5, 6), (39, 20, 8)]),
    "leaving it brings the main screen to the new size": (b"main" * 5 + b"\x1b[?1049h" + A + b"\x1b[?1049l",
                                                          (10, 6), [(53, 30, 4)]),
    "rows a region scrolls off go to the history": (b"r0\r\nr1\r\nr2\r\nr3\r\nr4\x1b[2;4r\x1b[4;1H\nA\nB\nC\x1b[r",
                                                    (10, 5), [(47, 10, 9)]),
    "inserted lines unmark the rows around them": (FILLED + b"\x1b[2;1H\x1b[2L" + MARKED, (10, 6),
                                                   [(len(FILLED) + 8 + len(MARKED), 80, 6)]),
    "so does a scroll down, one row at a time": (FILLED + b"\x1b[2T" + MARKED, (10, 6),
                                                 [(len(FILLED) + 4 + len(MARKED), 80, 6)]),
    "a row nothing was written to keeps its mark through a line erase": (
        b"AAAAA\x1b[2K9s\x1bM\x1b[2K\x1b[3;1HX", (5, 4), [(24, 20, 4)]),
    "an erase from home first scrolls the screen into the history": (
        b"\x1b[2Pxy\x1b[H\x1b[0J" + A, (10, 6), [(35, 40, 6)]),
}


def ours(data: bytes, size: tuple[int, int], marks: list[tuple[int, int, int]]) -> TerminalScreen:
    screen = TerminalScreen(*size)
    done = 0
    for offset, cols, rows in marks:
        screen.feed(data[done:offset])
        done = offset
        screen.resize(cols, rows)
    screen.feed(data[done:])
    return screen


def check(tmux: TmuxReplay, data: bytes, size: tuple[int, int], marks: list[tuple[int, int, int]]) -> None:
    pane = tmux.replay(data, size, marks)
    screen = ours(data, size, marks)
    rows = [row.rstrip() for row in screen.display()]
    assert rows == pane.rows, "\n".join(f"{t!r} | {o!r}" for t, o in zip(pane.rows, rows))
    assert screen.cursor_xy == (min(pane.cursor[0], pane.size[0] - 1), pane.cursor[1])
    assert screen.alt_screen == pane.alternate
    if not screen.alt_screen:  # tmux shows its history at the current width: so do we, cut the same way
        kept = [("".join(row.get(x, (" ",))[0] for x in range(screen.cols))).rstrip() for row in screen.grid.history]
        assert kept == pane.history[-len(kept):] if kept else True


@pytest.mark.parametrize("name", list(CASES))
def test_a_resize_does_what_tmux_does(name: str, tmux: TmuxReplay) -> None:
    data, size, marks = CASES[name]
    check(tmux, data, size, marks)


def _random_stream(rnd: random.Random) -> tuple[bytes, list[int]]:
    pieces: list[bytes] = []
    for _ in range(rnd.randint(5, 50)):
        kind = rnd.choice(["text"] * 6 + ["crlf"] * 4 + ["lf", "cr", "cup", "el", "ed", "ech", "sgr", "alt",
                                                           "region", "scroll", "ri", "save"])
        if kind == "text":
            length = rnd.choice([1, 3, 10, 30, 70, 130])
            pieces.append("".join(rnd.choice("abcdefghij0123456789 ") for _ in range(rnd.randint(1, length)))
                          .encode())
        else:
            pieces.append({
                "crlf": b"\r\n", "lf": b"\n", "cr": b"\r",
                "cup": b"\x1b[%d;%dH" % (rnd.randint(1, 30), rnd.randint(1, 70)),
                "el": b"\x1b[%dK" % rnd.randint(0, 2), "ed": b"\x1b[%dJ" % rnd.randint(0, 3),
                "ech": b"\x1b[%dX" % rnd.randint(1, 10),
                "sgr": rnd.choice([b"\x1b[44m", b"\x1b[0m", b"\x1b[31m"]),
                "alt": rnd.choice([b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?1047h", b"\x1b[?1047l", b"\x1b[?47h",
                                   b"\x1b[?47l"]),
                "region": rnd.choice([b"\x1b[r", b"\x1b[%d;%dr" % (rnd.randint(1, 5), rnd.randint(6, 14))]),
                "scroll": rnd.choice([b"\x1b[%dS", b"\x1b[%dT", b"\x1b[%dL", b"\x1b[%dM"]) % rnd.randint(1, 4),
                "ri": b"\x1bM", "save": rnd.choice([b"\x1b7", b"\x1b8"]),
            }[kind])
    ends, total = [0], 0
    for piece in pieces:
        total += len(piece)
        ends.append(total)
    return b"".join(pieces), ends


@pytest.mark.parametrize("seed", range(40))
def test_random_streams_with_resizes_match_tmux(seed: int, tmux: TmuxReplay) -> None:
    rnd = random.Random(seed)
    data, ends = _random_stream(rnd)
    size = (rnd.randint(5, 60), rnd.randint(2, 25))
    marks = sorted((rnd.choice(ends), rnd.randint(3, 60), rnd.randint(2, 25)) for _ in range(rnd.randint(1, 3)))
    check(tmux, data, size, marks)
