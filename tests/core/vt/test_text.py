"""Raw output to agent text: escape stripping, UTF-8, line endings, controls, and split-independence."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable

import pytest

from openclaw_tui.core.vt.plaintext import MAX_HELD, StreamText


def convert(*chunks: bytes) -> str:
    stream = StreamText()
    return "".join(stream.feed(chunk) for chunk in chunks) + stream.flush()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # CSI: SGR, cursor movement, erase, private modes, intermediates, 8-bit CSI
        (b"\x1b[1;31mred\x1b[0m", "red"),
        (b"\x1b[38;2;255;0;0mtrue\x1b[m", "true"),
        (b"a\x1b[2Kb\x1b[10;20Hc\x1b[Jd", "abcd"),
        (b"\x1b[?25l\x1b[?1049hx\x1b[?2004l", "x"),
        (b"a\x1b[2 qb", "ab"),
        (b"a\x1b[>0;1;2cb", "ab"),
        # OSC: BEL, ST as ESC \, hyperlinks; U+009C is part of the body, not its end (as in tmux)
        (b"\x1b]0;title\x07text", "text"),
        (b"\x1b]2;title\x1b\\text", "text"),
        (b"\x1b]2;title\xc2\x9ctext\x07after", "after"),
        (b"\x1b]8;;http://e.com\x1b\\link\x1b]8;;\x1b\\", "link"),
        (b"\x1b]0;t\xc3\xa9tle \xf0\x9f\x98\x80\x07ok", "ok"),
        # DCS, SOS, PM, APC, 7- and 8-bit
        (b"a\x1bPq#0;2;0;0;0#0~~\x1b\\b", "ab"),
        (b"a\x1bXsos\x1b\\b", "ab"),
        (b"a\x1b^pm\x1b\\b", "ab"),
        (b"a\x1b_Gf=100;AAAA\x1b\\b", "ab"),
        (b"a\x1bPbel\x07inside\x1b\\b", "ab"),  # BEL does not end a DCS
        (b"a\x1bPq\x1ab\x1b\\c", "ac"),  # nor do CAN and SUB, once its body began (as in tmux)
        # short escapes
        (b"a\x1b(Bb", "ab"),
        (b"a\x1b)0b", "ab"),
        (b"a\x1b=b\x1b>c", "abc"),
        (b"a\x1b7b\x1b8c", "abc"),
        (b"a\x1bcb", "ab"),
        (b"a\x1bMb\x1bDc\x1bEd", "abcd"),
        (b"a\x1b#8b", "ab"),
        (b"a\x1b%Gb", "ab"),
        (b"a\x1b\\b", "ab"),
        # strings aborted by CAN/SUB or by another sequence
        (b"a\x1b]0;t\x18b", "ab"),
        (b"a\x1b]0;title\x1b[31mb", "ab"),
    ],
)
def test_sequences_are_stripped(raw: bytes, expected: str) -> None:
    assert convert(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"a\x07b", "a\\x07b"),
        (b"a\x08b", "a\\x08b"),
        (b"a\x00b", "a\\x00b"),
        (b"a\x0bb\x0cc", "a\\x0bb\\x0cc"),
        (b"a\x7fb", "a\\x7fb"),
        (b"a\x1fb", "a\\x1fb"),
        (b"a\xc2\x85b", "a\\x85b"),  # C1 NEL is not a sequence
        (b"a\xc2\x9cb", "a\\x9cb"),  # a stray ST with no string
        (b"a\x1b", "a"),  # a lone ESC at end of stream is a cut-off sequence
        # a control inside ESC or CSI acts there (tmux rings, moves ...) and the sequence goes on
        (b"a\x1b\x01b", "a\\x01"),
        (b"a\x1b[1\x07mb", "a\\x07b"),
        # 8-bit C1 controls introduce nothing in a UTF-8 terminal (tmux draws what follows them)
        (b"a\xc2\x9b31mb", "a\\x9b31mb"),
        (b"\xc2\x9d0;title\x07text", "\\x9d0;title\\x07text"),
        (b"\xc2\x9d0;title\x1b\\text", "\\x9d0;titletext"),
        (b"a\xc2\x90dcs\xc2\x9cb", "a\\x90dcs\\x9cb"),
        (b"a\xc2\x9fapc\x1b\\b", "a\\x9fapcb"),
        (b"tab\there\n", "tab\there\n"),
    ],
)
def test_controls_become_visible_escapes(raw: bytes, expected: str) -> None:
    assert convert(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"a\nb\n", "a\nb\n"),
        (b"10%\r50%\r100%\n", "10%\n50%\n100%\n"),
        (b"a\rb", "a\nb"),
        (b"a\r", "a\n"),
        (b"a\r\r\nb", "a\nb"),
        (b"a\r\rb", "a\nb"),
        (b"a\n\nb", "a\n\nb"),
        (b"a\r\n\r\nb", "a\n\nb"),
        (b"a\r\x1b[K\nb", "a\nb"),
    ],
)
def test_line_endings(raw: bytes, expected: str) -> None:
    assert convert(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"a\xffb", "a\ufffdb"),
        (b"\xc3\x28", "\ufffd("),
        (b"\xed\xa0\x80", "\ufffd\ufffd\ufffd"),  # encoded surrogate
        (b"ok\xe4\xbd", "ok\ufffd"),  # truncated at end of stream
        (b"\xc0\xaf", "\ufffd\ufffd"),  # overlong
    ],
)
def test_invalid_utf8_becomes_replacement_character(raw: bytes, expected: str) -> None:
    assert convert(raw) == expected


SAMPLE = (
    b"\x1b[1;32mok\x1b[0m start\r\n"
    b"\x1b]0;my title\x07"
    b"caf\xc3\xa9 \xf0\x9f\x98\x80 done\r\n"
    b"\x1b]8;;http://x.y/\x1b\\link\x1b]8;;\x1b\\"
    b" 50%\r100%\r\n"
    b"\x1bPq#0\x1b\\\x1b(B\x1b[?25h"
    b"\xe4\xbd\xa0\tend\x07\n"
)
SAMPLE_TEXT = "ok start\ncaf\u00e9 \U0001f600 done\nlink 50%\n100%\n\u4f60\tend\\x07\n"


def test_sample_in_one_feed() -> None:
    assert convert(SAMPLE) == SAMPLE_TEXT


@pytest.mark.parametrize("split", range(len(SAMPLE) + 1))
def test_every_split_point_gives_the_same_text(split: int) -> None:
    assert convert(SAMPLE[:split], SAMPLE[split:]) == SAMPLE_TEXT


def test_every_pair_of_split_points_gives_the_same_text() -> None:
    n = len(SAMPLE)
    for first in range(n + 1):
        for second in range(first, n + 1):
            got = convert(SAMPLE[:first], SAMPLE[first:second], SAMPLE[second:])
            assert got == SAMPLE_TEXT, (first, second)


def test_byte_by_byte_gives_the_same_text() -> None:
    assert convert(*(SAMPLE[i : i + 1] for i in range(len(SAMPLE)))) == SAMPLE_TEXT


@pytest.mark.parametrize(
    "raw",
    [
        b"x\xc2\x9d0;title\x1b\\y\xc2\x9b1mz\r",
        b"a\x1b]0;t\x1b[31mb\x1b]0;u\x18c\r\r\nd",
        b"\x1b[1;2\x1b[3m\x1b",
        b"p\x1bPdata\x07more\x1b\\q\x1b",
    ],
)
def test_split_independence_for_tricky_inputs(raw: bytes) -> None:
    whole = convert(raw)
    for split in range(len(raw) + 1):
        assert convert(raw[:split], raw[split:]) == whole, split


def test_feed_returns_text_incrementally() -> None:
    stream = StreamText()
    assert stream.feed(b"hello \x1b[3") == "hello "
    assert stream.feed(b"1mworld\r") == "world"
    assert stream.feed(b"\n\xe4") == "\n"
    assert stream.feed(b"\xbd\xa0") == "\u4f60"
    assert stream.flush() == ""


def test_flush_releases_held_carriage_return() -> None:
    stream = StreamText()
    assert stream.feed(b"50%\r") == "50%"
    assert stream.flush() == "\n"


def test_flush_drops_cut_off_sequence() -> None:
    stream = StreamText()
    assert stream.feed(b"a\x1b]0;never ends") == "a"
    assert stream.flush() == ""


def test_plain_text_passes_through_unchanged() -> None:
    text = "plain log line, caf\u00e9, \u4f60\u597d, \U0001f600\tand a tab\n" * 100
    assert convert(text.encode()) == text


def _memory_kept(feed: Callable[[], object]) -> int:
    """Bytes still allocated after ``feed()`` that were not before it (what it holds on to)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        feed()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_long_unterminated_osc_is_dropped_not_held_forever() -> None:
    stream = StreamText()
    assert stream.feed(b"before\x1b]52;c;") == "before"
    assert _memory_kept(lambda: [stream.feed(b"A" * 4000) for _ in range(100)]) < 100_000  # not the 400 kB seen
    assert stream.feed(b"B" * 100 + b"\x07after\n") == "after\n"
    assert stream.flush() == ""


def test_long_unterminated_dcs_ended_by_st_split_after_cap() -> None:
    stream = StreamText()
    out = stream.feed(b"x\x1bP" + b"q" * (MAX_HELD + 10) + b"\x1b")
    out += stream.feed(b"\\y")
    assert out + stream.flush() == "xy"


def test_long_unterminated_osc_gives_way_to_later_sequences() -> None:
    # A new escape sequence aborts the string, so output after it is not lost.
    raw = b"a\x1b]0;" + b"t" * (3 * MAX_HELD) + b"\x1b[0mvisible\n"
    assert convert(raw) == "avisible\n"
    assert convert(*(raw[i : i + 1000] for i in range(0, len(raw), 1000))) == "avisible\n"


def test_long_incomplete_csi_is_bounded() -> None:
    stream = StreamText()
    # 4 MiB of parameters fed, at most 2 MiB kept: holding it all would be twice that (tracemalloc slows the
    # parser, so the feed is no bigger than it must be to tell)
    assert _memory_kept(lambda: stream.feed(b"\x1b[" + b"1;" * (2 * MAX_HELD))) < 2 * MAX_HELD
    assert stream.feed(b"1mok") == "ok"


FUZZ_PIECES = [bytes([byte]) for byte in b"a \n\r\t\x07\x08\x18\x1b[]\\P_1;m(B\xff\xc3"] + [
    b"\xc2\x9b",
    b"\xc2\x9c",
    b"\xc2\x9d",
    b"\xc2\x90",
    b"\xc2\x85",
    b"\xf0\x9f\x98\x80",
    b"\xe4\xbd\xa0",
    b"\x1b[31m",
    b"\x1b]0;t",
    b"\x1b\\",
]


@pytest.mark.parametrize("seed", range(20))
def test_random_streams_do_not_depend_on_split_points(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        raw = b"".join(rng.choice(FUZZ_PIECES) for _ in range(rng.randrange(1, 20)))
        whole = convert(raw)
        for split in range(len(raw) + 1):
            assert convert(raw[:split], raw[split:]) == whole, (raw, split)
        assert convert(*(raw[i : i + 1] for i in range(len(raw)))) == whole, raw


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"echo hi\r\n\x1b[?2004l\rhi\r\n", "echo hi\nhi\n"),  # bash after a command: CR at a line's start
        (b"\rstarting\r50%\r\r100%\n", "starting\n50%\n100%\n"),
        (b"a\n\r\rb", "a\nb"),
    ],
)
def test_a_carriage_return_at_the_start_of_a_line_adds_no_line(raw: bytes, text: str) -> None:
    assert convert(raw) == text
    for split in range(len(raw) + 1):
        assert convert(raw[:split], raw[split:]) == text, split
