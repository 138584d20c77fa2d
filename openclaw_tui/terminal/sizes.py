"""Replaying a stretch of a session's output the way a terminal lived through it: bytes and resizes.

Every replay starts at the size in force where it starts and splits its feeds at the size marks of
:mod:`openclaw_tui.core.session.rawring` after that.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from openclaw_tui.core.session import RawRing, SizeMark

from .emulator import TerminalScreen


def feed_sized(screen: TerminalScreen, start: int, data: bytes, marks: Iterable[SizeMark]) -> None:
    """Feed ``data`` (which begins at ring offset ``start``), resizing ``screen`` at each mark in it.

    ``marks`` are in order; a mark at or before ``start`` applies first, one past the data's end is left.
    """
    end = start + len(data)
    done = 0
    for mark in marks:
        if mark.offset > end:
            break
        cut = max(0, mark.offset - start)
        if cut > done:
            screen.feed(data[done:cut])
            done = cut
        screen.resize(mark.cols, mark.rows)
    if done < len(data):
        screen.feed(data[done:])


def rows_to_rebuild(rows: int, marks: Iterable[SizeMark]) -> int:
    """How many lines back a rebuild from a screenful must start to end like a terminal that lived through
    ``marks`` from a ``rows``-row size: the tallest screen, plus each growth (a taller screen pulls rows
    back from what scrolled off), plus a screenful more if a width change rewraps what is above."""
    tallest = grown = rows
    rewrapped = 0
    last = rows
    for mark in marks:
        tallest = max(tallest, mark.rows)
        grown += max(0, mark.rows - last)
        rewrapped = tallest
        last = mark.rows
    return max(tallest, grown) + rewrapped


def feed_slices(screen: TerminalScreen, ring: RawRing, offset: int, mark: int, piece: int, deadline: float,
                measure: Callable[[int, float], None] | None = None, upto: int | None = None) -> tuple[int, int]:
    """Feed ``screen`` the ring's bytes from ``offset`` on, ``piece`` bytes at a time, until the ring's end (or
    offset ``upto``) or ``deadline`` (``perf_counter``), resizing it at each size mark where the mark falls;
    ``mark`` is the number of the next mark to apply. ``measure(bytes, seconds)`` hears each feed. Returns the
    new (offset, mark).
    """
    end = ring.end if upto is None else min(upto, ring.end)
    while True:
        mark = max(mark, ring.marks_base)
        for size in ring.marks_from(mark):  # resizes that happened where the replay stands
            if size.offset > offset:
                break
            screen.resize(size.cols, size.rows)
            mark += 1
        if offset >= end:
            return offset, mark
        limit = min(piece, end - offset)
        if mark < ring.marks_end:  # stop at the next resize
            limit = min(limit, ring.marks_from(mark)[0].offset - offset)
        start, data = ring.read(offset, limit)
        began = time.perf_counter()
        screen.feed(data)
        finished = time.perf_counter()
        if measure is not None:
            measure(len(data), finished - began)
        offset = start + len(data)
        if finished >= deadline:
            return offset, mark
