"""Replaying a stretch of a session's output the way a terminal lived through it: bytes and resizes.

Every replay starts at the size in force where it starts and splits its feeds at the size marks of
:mod:`openclaw_tui.core.session.rawring` after that.
"""

from __future__ import annotations

from collections.abc import Iterable

from openclaw_tui.core.session import SizeMark

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
