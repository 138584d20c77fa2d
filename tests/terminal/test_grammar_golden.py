"""The agent's text and the dashboard's screen end every escape sequence at the same byte, tmux's byte.

Each golden stream puts words between sequences whose end is in doubt (8-bit C1 spellings, CAN and SUB
inside strings, OSC ended by BEL or by ST, ESC pairs in a DCS body, controls and ignored bytes inside a
CSI, over-long parameters). The same bytes go to the agent's text (``StreamText``), to our screen
(``TerminalScreen``) and to a real tmux pane (:mod:`tmuxreplay`). The words after each sequence must
appear in all three, identically, and nothing of a sequence in any (the agent's text shows controls as
visible ``\\xNN`` escapes, which the screen does not draw, so those are left out of the comparison); the
screen's row and cursor must equal tmux's. Every stream is also split at every byte position, and fed a
byte at a time, and must give the same text and the same screen: an unfinished sequence is carried over
by both in the same way.
"""

from __future__ import annotations

import random
import re
import shutil

import pytest

from openclaw_tui.core.vt import StreamText
from openclaw_tui.core.vt.grammar import MAX_HELD
from openclaw_tui.terminal import TerminalScreen

from ..support.tmuxreplay import TmuxReplay

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

COLS, ROWS = 80, 3
_VISIBLE_ESCAPE = re.compile(r"\\x[0-9a-f]{2}")

# (name, bytes, what a terminal shows: the words between the sequences)
GOLDEN = [
    # 8-bit C1 introducers, spelled in UTF-8: characters that introduce nothing (tmux draws what follows)
    ("c1-csi", b"A\xc2\x9b31mB", "A31mB"),
    ("c1-osc", b"C\xc2\x9d0;t\x07D", "C0;tD"),
    ("c1-dcs-st", b"E\xc2\x90qF\xc2\x9cG", "EqFG"),
    ("c1-apc", b"H\xc2\x9fapc\x1b\\I", "HapcI"),
    # OSC ended by BEL, by ST (ESC \), by any other ESC; U+009C is part of its body
    ("osc-bel-st", b"a\x1b]2;t\x07b\x1b]2;u\x1b\\c\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\d", "abclinkd"),
    ("osc-esc", b"a\x1b]0;title\x1b[1mb\x1b[0m", "ab"),
    ("osc-c1-st-is-body", b"d\x1b]2;t\xc2\x9cx\x07e", "de"),
    # CAN and SUB: abort an OSC, a CSI, an SOS/PM/APC; inside a DCS body they are body
    ("osc-can-sub", b"a\x1b]0;t\x18b\x1b]0;u\x1ac", "abc"),
    ("csi-can", b"e\x1b[31\x18mf", "emf"),
    ("strings-can", b"g\x1bXsos\x18h\x1b^pm\x1ai\x1b_apc\x18j", "ghij"),
    ("dcs-can-is-body", b"k\x1bPq\x18x\x1a\x07y\x1b\\l", "kl"),
    # DCS: ESC and the byte after it pair up (tmux passthrough), only ESC \ ends it
    ("dcs-passthrough", b"a\x1bPtmux;\x1b\x1b[31mX\x1b\x1b\\\x1b\\b", "ab"),
    ("dcs-prefix-aborted", b"c\x1bP1;2\x1b[0md", "cd"),
    # SOS, PM, APC and tmux's title (ESC k) end at ESC; BEL is part of them
    ("strings-esc", b"a\x1bXs\x07\x1b\\b\x1bktitle\x1b\\c\x1b_g\x1b[0md", "abcd"),
    # inside ESC and CSI: a control acts and the sequence goes on; DEL and non-ASCII are ignored
    ("csi-bel", b"a\x1b[1\x07mb", "ab"),
    ("csi-ignored", b"a\x1b[3\xc3\xa91mb\x1b[0\x7fmc", "abc"),
    ("esc-ignored", b"c\x1b\xc3\xa9xd\x1b\x1b(Be", "cde"),
    ("esc-aborted", b"a\x1b(\x18b\x1b\x18c", "abc"),
    # parameters tmux does not keep: the sequence still ends at its final, and does nothing
    ("csi-overlong", b"a\x1b[" + b"1;" * 40 + b"Cb\x1b[99999999999Cc", "abc"),
]


def agent_text(*pieces: bytes) -> str:
    text = StreamText()
    return "".join(text.feed(piece) for piece in pieces) + text.flush()


def screen_of(*pieces: bytes) -> TerminalScreen:
    screen = TerminalScreen(COLS, ROWS)
    for piece in pieces:
        screen.feed(piece)
    return screen


def shown(screen: TerminalScreen) -> tuple[list[str], tuple[int, int]]:
    return [row.rstrip() for row in screen.display()], screen.cursor_xy


@pytest.mark.parametrize(("raw", "words"), [case[1:] for case in GOLDEN], ids=[case[0] for case in GOLDEN])
def test_text_and_screen_end_each_sequence_where_tmux_does(raw: bytes, words: str, tmux: TmuxReplay) -> None:
    pane = tmux.replay(raw, (COLS, ROWS))
    assert pane.rows[0] == words, "the golden words are what tmux shows"
    screen = screen_of(raw)
    assert shown(screen) == (pane.rows, pane.cursor)
    assert _VISIBLE_ESCAPE.sub("", agent_text(raw)) == words


@pytest.mark.parametrize("raw", [case[1] for case in GOLDEN], ids=[case[0] for case in GOLDEN])
def test_every_split_gives_the_same_text_and_screen(raw: bytes) -> None:
    text, screen = agent_text(raw), shown(screen_of(raw))
    for cut in range(len(raw) + 1):
        assert agent_text(raw[:cut], raw[cut:]) == text, cut
        assert shown(screen_of(raw[:cut], raw[cut:])) == screen, cut
    one_by_one = [raw[i : i + 1] for i in range(len(raw))]
    assert agent_text(*one_by_one) == text
    assert shown(screen_of(*one_by_one)) == screen


FUZZ_PIECES = [bytes([byte]) for byte in b"ab1;?mhq[]PX_k\\\x1b\x07\x18\x1a\x7f\x00 "] + [
    b"\xc3\xa9", b"\xc2\x9b", b"\xc2\x9c", b"\r\n", b"\x1b[31m", b"\x1b]0;t", b"\x1bPq", b"\x1b\\", b"\x1b\x1b",
]


@pytest.mark.parametrize("seed", range(10))
def test_random_streams_give_the_same_text_and_screen_wherever_reads_split(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        raw = b"".join(rng.choice(FUZZ_PIECES) for _ in range(rng.randrange(1, 24)))
        text, screen = agent_text(raw), shown(screen_of(raw))
        for cut in range(len(raw) + 1):
            assert agent_text(raw[:cut], raw[cut:]) == text, (raw, cut)
            assert shown(screen_of(raw[:cut], raw[cut:])) == screen, (raw, cut)


@pytest.mark.parametrize("opener", [b"\x1b]2;", b"\x1bPq", b"\x1b_"], ids=["osc", "dcs", "apc"])
def test_a_string_longer_than_the_hold_back_limit_ends_at_the_same_byte(opener: bytes, tmux: TmuxReplay) -> None:
    """Past the one limit neither side keeps the body, and both still read the string to its end."""
    end = b"\x07" if opener == b"\x1b]2;" else b"\x1b\\"
    raw = b"a" + opener + b"\x1b\x1bx" * (opener == b"\x1bPq") + b"t" * (MAX_HELD + 10) + end + b"b"
    pane = tmux.replay(raw, (COLS, ROWS))
    assert pane.rows[0] == "ab"
    reads = [raw[i : i + 4096] for i in range(0, len(raw), 4096)]
    for pieces in ([raw], reads, [raw[:-3], raw[-3:]], [raw[: MAX_HELD + 2], raw[MAX_HELD + 2 :]]):
        assert shown(screen_of(*pieces)) == (pane.rows, pane.cursor)
        assert agent_text(*pieces) == "ab"
