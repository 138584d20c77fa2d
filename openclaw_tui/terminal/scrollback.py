"""A session's scrollback: every line its raw ring still holds, replayed through the engine at the recorded
sizes, so it keeps the program's colours and reads as a terminal that lived through the same bytes keeps them.

The replay of a full ring runs in a thread (it takes a few hundred milliseconds), and so does the text index
a search scans (:attr:`Scrollback.index`); afterwards :meth:`advance` keeps both current in slices, from the
loop, only while someone reads it.
"""

from __future__ import annotations

import asyncio
import time

from openclaw_tui.core.session import SizeMark

from .emulator import TerminalScreen
from .matches import LineIndex
from .sizes import feed_sized, feed_slices
from .source import ScreenSource

HISTORY_ROWS = 100_000  # a full ring of short lines; far more than the 10,000 a person is promised
SLICE = 16 * 1024


def replay(size: tuple[int, int], start: int, data: bytes, marks: list[SizeMark]) -> TerminalScreen:
    """A screen that lived through ``data`` (from ring offset ``start``) at ``size``, resized at ``marks``,
    keeping every row that scrolled off its top. Touches nothing but the new screen, so it may run in a thread."""
    screen = TerminalScreen(*size, history=HISTORY_ROWS)
    feed_sized(screen, start, data, marks)
    return screen


def indexed(size: tuple[int, int], start: int, data: bytes, marks: list[SizeMark]) -> tuple[TerminalScreen, LineIndex]:
    """:func:`replay`, and the text index of its history joined for a search (the first search over a full
    ring would otherwise read ~100k lines on the loop). Touches nothing shared either."""
    screen = replay(size, start, data, marks)
    index = LineIndex()
    index.text(screen.line_text, screen.lines, len(screen.grid.history))
    return screen, index


class Scrollback:
    """The history of one session's terminal (see :attr:`screen`), built by :meth:`build`.

    Attributes:
        screen: None until built; then its history and rows are every line the ring held, oldest first
            (``lines``, ``line_runs``, ``line_text``, ``first_line``).
        offset: the ring offset replayed up to.
        lost: the ring dropped bytes before they were replayed (a flood while someone read the history): it
            stops there, and a new scrollback must be built to go on.
        index: the text of the history's lines for a search (line 0: the screen's ``first_line``), built with
            the replay and kept current as lines scroll into the history; reset when they are rearranged.
    """

    def __init__(self, source: ScreenSource) -> None:
        self.source = source
        self.screen: TerminalScreen | None = None
        self.offset = 0
        self.lost = False
        self._mark = 0
        self.index = LineIndex()
        self._indexed: tuple[int, int] = (0, 0)  # (first line, generation) the index counts from

    @property
    def behind(self) -> int:
        """Bytes of output not replayed yet."""
        return max(0, self.source.raw.end - self.offset) if self.screen is not None else len(self.source.raw)

    async def build(self, upto: int | None = None) -> None:
        """Replay what the ring holds now (up to ring offset ``upto``, if given: where a view stopped), off the
        loop."""
        ring = self.source.raw
        start, data = ring.read(ring.start, None if upto is None else max(0, upto - ring.start))
        if start > 0:  # the ring lost the beginning of its oldest line: the history starts at the next one
            cut = data.find(b"\n") + 1
            start, data = start + cut, data[cut:]
        size = ring.size_at(start) or tuple(self.source.pty_size)
        marks = ring.marks_from(ring.first_mark_after(start))
        end = start + len(data)
        following = ring.first_mark_after(end)  # the marks up to the end are in the replay
        screen, index = await asyncio.to_thread(indexed, (size[0], size[1]), start, data, marks)
        self.screen, self.offset, self._mark, self.index = screen, end, following, index
        self._indexed = (screen.first_line, screen.generation)

    def advance(self, budget_ms: float, upto: int | None = None) -> bool:
        """Replay what arrived since (up to ring offset ``upto``, if given), for at most ``budget_ms``; True if
        the screen changed."""
        ring = self.source.raw
        screen = self.screen
        end = ring.end if upto is None else min(upto, ring.end)
        if screen is None or self.lost or (self.offset >= end and self._mark >= ring.marks_end):
            return False
        if self.offset < ring.start:
            self.lost = True
            return False
        before = self.offset, self._mark
        self.offset, self._mark = feed_slices(screen, ring, self.offset, self._mark, SLICE,
                                              time.perf_counter() + budget_ms / 1000, upto=upto)
        if (screen.first_line, screen.generation) != self._indexed:  # the oldest lines went, or were rewrapped
            self.index.reset()
            self._indexed = (screen.first_line, screen.generation)
        self.index.keep(screen.line_text, len(screen.grid.history))
        return (self.offset, self._mark) != before

    def reusable(self, offset: int, most: int) -> bool:
        """Whether this scrollback can be brought to ring ``offset`` by replaying at most ``most`` bytes."""
        return self.screen is not None and not self.lost and offset - self.offset <= most
