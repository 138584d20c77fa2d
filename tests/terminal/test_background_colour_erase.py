"""Background colour erase: blanks that inserting, deleting and scrolling make take the current background.

tmux and xterm paint them in the background colour in force (vim's colour schemes rely on it after
``dd``, ``O`` or a scroll). The oracle is what tmux shows a person: the pane is viewed through a second
tmux (see :mod:`tmuxreplay`, ``drawn``), read with the test's own SGR reader, and compared cell by cell
with our screen, over the whole screen, for each sequence alone and inside scroll regions.
"""

from __future__ import annotations

import shutil

import pytest

from openclaw_tui.terminal import TerminalScreen

from ..support.sgrcells import Attrs, read_capture
from ..support.tmuxreplay import TmuxReplay

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

BLUE = "\x1b[44m"
RESET = "\x1b[0m"
FILL = "".join(f"\x1b[{y};1H" + chr(ord("a") + y - 1) * 10 for y in range(1, 7))  # six full rows
CASES = {
    "ICH": ("ab" + BLUE + "\x1b[2@" + RESET, (10, 3)),
    "DCH": ("abcdef\x1b[1G" + BLUE + "\x1b[2P" + RESET, (10, 3)),
    "IL": (BLUE + "\x1b[L" + RESET + "X", (10, 3)),
    "DL": ("a\r\nb\x1b[H" + BLUE + "\x1b[M" + RESET, (10, 3)),
    "SU": (BLUE + "\x1b[S" + RESET, (10, 3)),
    "SD": (BLUE + "\x1b[T" + RESET, (10, 3)),
    "RI at the top": (BLUE + "\x1bM" + RESET, (10, 3)),
    "LF scroll": ("\x1b[3;1H" + BLUE + "\n" + RESET, (10, 3)),
    "LF scroll in a region": (FILL + "\x1b[2;4r\x1b[4;1H" + BLUE + "\n\n" + RESET + "\x1b[r", (10, 6)),
    "LF below a region": (FILL + "\x1b[2;4r\x1b[6;1H" + BLUE + "\n" + RESET + "\x1b[r", (10, 6)),
    "RI in a region": (FILL + "\x1b[2;4r\x1b[2;1H" + BLUE + "\x1bM" + RESET + "\x1b[r", (10, 6)),
    "SU in a region": (FILL + "\x1b[2;5r" + BLUE + "\x1b[2S" + RESET + "\x1b[r", (10, 6)),
    "SD in a region": (FILL + "\x1b[3;5r" + BLUE + "\x1b[2T" + RESET + "\x1b[r", (10, 6)),
    "IL in a region": (FILL + "\x1b[2;5r\x1b[3;1H" + BLUE + "\x1b[2L" + RESET + "\x1b[r", (10, 6)),
    "DL in a region": (FILL + "\x1b[2;5r\x1b[3;1H" + BLUE + "\x1b[2M" + RESET + "\x1b[r", (10, 6)),
    "autowrap scroll stays default": ("\x1b[3;1H" + BLUE + "x" * 12 + RESET, (10, 3)),
    "alternate screen LF scroll": ("\x1b[?1049h\x1b[3;1H" + BLUE + "\n" + RESET, (10, 3)),
    "EL and ECH": ("abcdef\x1b[1G" + BLUE + "\x1b[K\x1b[2;3H\x1b[3X" + RESET, (10, 3)),
}


def our_rows(data: bytes, size: tuple[int, int]) -> list[list[tuple[str, Attrs]]]:
    screen = TerminalScreen(*size)
    screen.feed(data)
    return [[(cell.data, Attrs(*(getattr(cell.style, f) for f in Attrs._fields))) for cell in screen.row_cells(y)]
            for y in range(size[1])]


@pytest.mark.parametrize("name", list(CASES))
def test_blanks_take_the_background_colour_as_tmux_draws_them(name: str, tmux: TmuxReplay) -> None:
    text, size = CASES[name]
    data = text.encode()
    pane = tmux.replay(data, size, drawn=True)
    assert pane.drawn is not None
    theirs = read_capture(pane.drawn)
    ours = our_rows(data, size)
    mismatches = []
    for y, (their_row, our_row) in enumerate(zip(theirs, ours, strict=True)):
        # cells past what tmux drew are default blanks (it ends a row with a default erase)
        their_row = their_row + [(" ", Attrs())] * (size[0] - len(their_row))
        for x, (t, o) in enumerate(zip(their_row, our_row, strict=True)):
            if t != o:
                mismatches.append(f"row {y} column {x}: tmux {t}, ours {o}")
                break
    assert not mismatches, f"{name}: " + "; ".join(mismatches)
