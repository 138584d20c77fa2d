"""Choosing where to rebuild a screen from when parsing every byte would leave the view behind.

A flooding child writes far faster than any emulator parses, and PERF.md rules out slowing the child, so
a view that is behind skips bytes. The screen after a skip must still be right, so the rebuild starts
where the screen's content stops depending on what came before: the last full reset or clear
(``ESC c``, ``ESC[2J``, an alternate-screen switch), or, for scrolling output, the start of the last
screenful of lines. ``ESC[3J`` alone is not such a point: xterm and tmux only drop scrollback for it.
Modes set in the skipped bytes are carried over with :class:`ModeTracker`, the same cheap scanner the
core uses, and the colour in force at a line cut is carried by replaying the SGR sequences just before it.
Every point found here is read by the core's one grammar, as the parser will read the bytes: a reset or
colour inside a DCS string is none, and a rebuild never starts inside a sequence.
The rebuild starts at the size the terminal had at that point; the caller applies the later resizes
(:mod:`.sizes`). All searches are ``bytes.rfind``/regex scans in C: a catch-up over a full ring costs about
a millisecond.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from openclaw_tui.core.vt import ModeTracker, grammar, sequences as vt

if TYPE_CHECKING:
    from .emulator import TerminalScreen


def _private(mode: int, on: bool) -> bytes:
    """``ESC [ ? mode h`` (set) or ``l`` (reset)."""
    return f"\x1b[?{mode}{vt.SM if on else vt.RM}".encode()


_CLEAR = f"\x1b[2{vt.ED}".encode()
_RESETS = (
    f"\x1b{vt.RIS}".encode(),
    _CLEAR,
    *(_private(m, True) for m in vt.ALT_SCREENS),
    *(_private(m, False) for m in vt.ALT_SCREENS),
)
_HOMES = tuple(f"\x1b[{p}{vt.CUP}".encode() for p in ("", "1;1", ";", "1"))
_SGR = grammar.BYTES.compile(grammar.csi(vt.SGR))
_SGR_WINDOW = 4096


class RestartPlan(NamedTuple):
    """Rebuild from ``start`` (an index into the pending bytes); ``fresh`` means on a blank screen."""

    start: int
    fresh: bool


def last_reset(data: bytes, lo: int = 0) -> int:
    """Index of the last full reset/clear/alt-switch in ``data[lo:]`` (with a cursor-home just before a clear), or -1."""
    strings = grammar.BYTES.dcs_spans(data, lo)
    best = -1
    for pattern in _RESETS:
        found = data.rfind(pattern, lo)
        while found > best and any(start < found < end for start, end in strings):
            found = data.rfind(pattern, lo, found)  # inside a DCS string: not a reset
        if found > best:
            best = found
            if pattern == _CLEAR:
                for home in _HOMES:
                    if data.endswith(home, 0, found):
                        best = found - len(home)
                        break
    return best


def screenful_start(data: bytes, rows: int, lo: int = 0, enough: int | None = None) -> int:
    """Index just after the ``rows``-th newline from the end (not before ``lo``); with fewer, just after
    the furthest one if at least ``enough`` were found, else -1."""
    pos = len(data)
    for found in range(rows):
        before = data.rfind(b"\n", lo, pos)
        if before < 0:
            return pos + 1 if enough is not None and found >= enough and found else -1
        pos = before
    return pos + 1


def plan_restart(data: bytes, rows: int, cap: int, enough: int | None = None) -> RestartPlan:
    """Where to rebuild from so that at most about ``cap`` bytes are parsed.

    A reset point within reach gives an exact screen; ``rows`` lines (at least ``enough``, if fewer are
    within reach) give an exact screen for scrolling output (allowed to overshoot ``cap`` fourfold, since
    that is still quick). Failing both, the last ``cap`` bytes are replayed starting at an escape or
    newline, an approximation that converges as the program keeps drawing.
    """
    length = len(data)
    if length <= cap:
        return RestartPlan(0, False)
    window = max(0, length - 4 * cap)  # nothing further back can be used, so nothing further back is searched
    reset = last_reset(data, window)
    if reset >= 0 and length - reset <= cap:
        return RestartPlan(reset, True)
    lines = screenful_start(data, rows, max(reset, window), enough)
    if lines >= 0:
        return RestartPlan(lines, True)
    start = grammar.BYTES.boundary(data, max(length - cap, reset, 0), max(reset, window))
    boundaries = [i for i in (data.find(b"\x1b", start), data.find(b"\n", start) + 1) if i > 0]
    start = min(boundaries) if boundaries else start
    return RestartPlan(start, reset >= 0)


def carried_modes(known: dict[int, bool], skipped: bytes) -> dict[int, bool]:
    """Private modes in force after ``skipped``, given those ``known`` before it."""
    if b"\x1b" not in skipped:
        return dict(known)
    tracker = ModeTracker()
    tracker.modes = dict(known)
    tracker.feed(skipped)
    return tracker.modes


def mode_sequences(modes: dict[int, bool], fresh: bool, current: dict[int, bool]) -> bytes:
    """Escape sequences putting a screen into ``modes`` (from blank when ``fresh``, else from ``current``)."""
    before = {} if fresh else current
    out = []
    alt_now = any(before.get(m, False) for m in vt.ALT_SCREENS)
    alt_next = any(modes.get(m, False) for m in vt.ALT_SCREENS)
    if alt_next != alt_now:
        out.append(_private(vt.ALT_SCREEN_SAVE_CURSOR, alt_next))
    for mode in vt.INPUT_MODES:
        if modes.get(mode, False) != before.get(mode, False):
            out.append(_private(mode, bool(modes.get(mode))))
    shown = modes.get(vt.CURSOR_SHOWN, True)
    if shown != before.get(vt.CURSOR_SHOWN, True):
        out.append(_private(vt.CURSOR_SHOWN, shown))
    return b"".join(out)


def carried_sgr(skipped: bytes) -> bytes:
    """The SGR sequences shortly before a cut, replayed so a colour set on an earlier line carries on."""
    start = max(0, len(skipped) - _SGR_WINDOW)
    return b"".join(m.group() for m in grammar.BYTES.find(_SGR, skipped, start))


def skip_ahead(
    screen: TerminalScreen,
    data: bytes,
    cap: int,
    gap: bool = False,
    size_at: Callable[[int], tuple[int, int] | None] | None = None,
    rows: int | None = None,
) -> int:
    """Get ``screen`` ready to show the end of ``data`` by parsing at most about ``cap`` of its bytes.

    When the plan leaves bytes out (or ``gap``: bytes before ``data`` were lost already), the screen is
    restarted or cleared, brought to the size in force where the rebuild starts (``size_at`` an index in
    ``data``), and the modes and colour the left-out bytes set are carried over. ``rows`` is the tallest
    size the rest of ``data`` is drawn at, for counting back a screenful of lines. Returns the index in
    ``data`` to feed from, so the caller can apply the resizes after it and time that parse.
    """
    plan = plan_restart(data, max(rows or 0, screen.rows), max(cap, 4096), enough=screen.rows)
    if plan.start > 0 or gap:
        skipped = data[: plan.start]
        modes = carried_modes(screen.private_modes, skipped)
        setup = mode_sequences(modes, plan.fresh, screen.private_modes)
        if plan.fresh:
            screen.restart()
        else:
            screen.skip()
        size = size_at(plan.start) if size_at is not None else None
        if size is not None:
            screen.resize(*size)
        screen.feed(setup + carried_sgr(skipped))
    return plan.start
