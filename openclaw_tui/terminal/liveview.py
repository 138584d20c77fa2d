"""A live view of one session's terminal: a screen fed from the session's raw ring on a time budget.

It parses at most ``budget_ms`` a frame and rebuilds from the tail (:mod:`.catchup`) when it falls behind, so
the child is never slowed; its screen always has the PTY's own size.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .catchup import skip_ahead
from .emulator import TerminalScreen
from .sizes import feed_sized, feed_slices, rows_to_rebuild
from .source import RawSource

SLICE = 16 * 1024  # most bytes fed per step: big enough to amortise calls, small enough to stop on time
MIN_SLICE = 1024
INITIAL_RATE = 4_000_000.0  # bytes/s assumed until the first measurement
ATTACH_BUDGET_FACTOR = 4  # attaching may spend a few frames' worth once, to start from a better point


class LiveView:
    """A :class:`TerminalScreen` kept current with a session's output, at the session's terminal size.

    Args:
        source: the session (see :class:`RawSource`); the view never resizes it.
        budget_ms: parse time allowed per :meth:`advance` call.
        on_output: called (on the loop) when new output arrives or the terminal is resized, so the UI can
            schedule a frame.
    """

    def __init__(
        self,
        source: RawSource,
        budget_ms: float = 8.0,
        on_output: Callable[[], None] | None = None,
    ) -> None:
        self.source = source
        self.budget = budget_ms / 1000.0
        self.on_output = on_output
        ring = source.raw
        self.screen = TerminalScreen(*(ring.size_at(ring.start) or tuple(source.pty_size)))
        self.rate = INITIAL_RATE
        self._offset = ring.start
        self._mark = ring.first_mark_after(ring.start)  # the next size mark to apply
        self._closed = False
        self._rebuild(int(self.rate * self.budget * ATTACH_BUDGET_FACTOR))
        self._unsubscribe = source.add_raw_listener(self._on_raw)

    @property
    def offset(self) -> int:
        """Absolute ring offset parsed up to."""
        return self._offset

    @property
    def behind(self) -> int:
        """Bytes of output not parsed yet (a resize not applied yet counts as one)."""
        ring = self.source.raw
        return max(0, ring.end - self._offset) + (self._mark < ring.marks_end)

    def advance(self) -> bool:
        """Parse what the frame budget allows, or catch up from the tail; True if the screen changed."""
        ring = self.source.raw
        if self._closed or (self._offset >= ring.end and self._mark >= ring.marks_end):
            return False
        budget_bytes = int(self.rate * self.budget)
        if self._offset < ring.start or ring.end - self._offset > budget_bytes:
            self._rebuild(budget_bytes)
            return True
        piece = min(SLICE, max(MIN_SLICE, budget_bytes // 4))  # several deadline checks per frame
        self._offset, self._mark = feed_slices(self.screen, ring, self._offset, self._mark, piece,
                                               time.perf_counter() + self.budget, self._measure)
        return True

    def close(self) -> None:
        """Stop listening to the session; the view and its screen can then be collected."""
        if not self._closed:
            self._closed = True
            self._unsubscribe()

    def _on_raw(self) -> None:
        if not self._closed and self.on_output is not None:
            self.on_output()

    def _measure(self, size: int, seconds: float) -> None:
        """Keep a moving estimate of the parse rate; small feeds are dominated by call overhead, skip them."""
        if size >= MIN_SLICE and seconds > 0:
            self.rate = 0.7 * self.rate + 0.3 * (size / seconds)

    def _rebuild(self, cap: int) -> None:
        """Bring the screen to the ring's end, parsing at most about ``cap`` bytes, resizing where it was resized."""
        ring = self.source.raw
        start, data = ring.read(self._offset)
        ahead = ring.marks_from(ring.first_mark_after(start))
        begin = skip_ahead(self.screen, data, cap, gap=start > self._offset,
                           size_at=lambda i: ring.size_at(start + i), rows=rows_to_rebuild(self.screen.rows, ahead))
        if begin or start > self._offset:  # restarted at the size in force there: only later resizes apply
            self._mark = ring.first_mark_after(start + begin)
        began = time.perf_counter()
        feed_sized(self.screen, start + begin, data[begin:], ring.marks_from(self._mark))
        self._measure(len(data) - begin, time.perf_counter() - began)
        self._mark = ring.marks_end
        self.screen.touch_all()
        self._offset = start + len(data)
