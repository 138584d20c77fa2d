"""A live view of one session's terminal: a screen fed from the session's raw ring on a time budget.

The view never sits on the ingest path: the session drains its PTY into a ``RawRing`` at full speed and
the view only reads that ring, remembering the absolute offset it parsed up to. The UI calls
:meth:`LiveView.advance` once per frame; it parses at most ``budget_ms`` of bytes, measured with
``perf_counter``. When more bytes wait than the budget can parse (judged by the measured parse rate), or
the ring already dropped bytes the view had not read, the view rebuilds its screen from the tail (see
:mod:`.catchup`) so what it shows is current within a frame and the child is never slowed. A screen
exists only while a view does; ``close()`` lets both go.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .catchup import skip_ahead
from .screen import TerminalScreen
from .source import RawSource

SLICE = 16 * 1024  # most bytes fed per step: big enough to amortise calls, small enough to stop on time
MIN_SLICE = 1024
INITIAL_RATE = 4_000_000.0  # bytes/s assumed until the first measurement
ATTACH_BUDGET_FACTOR = 4  # attaching may spend a few frames' worth once, to start from a better point


class LiveView:
    """A :class:`TerminalScreen` kept current with a session's output.

    Args:
        source: the session (see :class:`RawSource`).
        cols, rows: the view's size; the PTY is resized to match if it differs.
        budget_ms: parse time allowed per :meth:`advance` call.
        on_output: called (on the loop) when new output arrives, so the UI can schedule a frame.
    """

    def __init__(
        self,
        source: RawSource,
        cols: int,
        rows: int,
        budget_ms: float = 8.0,
        on_output: Callable[[], None] | None = None,
    ) -> None:
        self.source = source
        self.budget = budget_ms / 1000.0
        self.on_output = on_output
        self.screen = TerminalScreen(cols, rows)
        self.rate = INITIAL_RATE
        self.catch_ups = 0  # how many times the view skipped ahead (for tests and diagnostics)
        self._offset = source.raw.start
        self._closed = False
        self._rebuild(int(self.rate * self.budget * ATTACH_BUDGET_FACTOR), count=False)
        self._unsubscribe = source.add_raw_listener(self._on_raw)
        if tuple(source.pty_size) != (cols, rows):
            source.resize(cols, rows)

    @property
    def offset(self) -> int:
        """Absolute ring offset parsed up to."""
        return self._offset

    @property
    def behind(self) -> int:
        """Bytes of output not parsed yet."""
        return max(0, self.source.raw.end - self._offset)

    def advance(self) -> bool:
        """Parse what the frame budget allows, or catch up from the tail; True if the screen changed."""
        ring = self.source.raw
        if self._closed or self._offset >= ring.end:
            return False
        budget_bytes = int(self.rate * self.budget)
        if self._offset < ring.start or ring.end - self._offset > budget_bytes:
            self._rebuild(budget_bytes)
            return True
        deadline = time.perf_counter() + self.budget
        piece = min(SLICE, max(MIN_SLICE, budget_bytes // 4))  # several deadline checks per frame
        while self._offset < ring.end:
            start, data = ring.read(self._offset, piece)
            began = time.perf_counter()
            self.screen.feed(data)
            finished = time.perf_counter()
            self._measure(len(data), finished - began)
            self._offset = start + len(data)
            if finished >= deadline:
                break
        return True

    def resize(self, cols: int, rows: int) -> None:
        """Resize the screen and the PTY (the child gets SIGWINCH and redraws)."""
        self.screen.resize(cols, rows)
        self.source.resize(cols, rows)

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

    def _rebuild(self, cap: int, count: bool = True) -> None:
        """Bring the screen to the ring's end, parsing at most about ``cap`` bytes."""
        start, data = self.source.raw.read(self._offset)
        if count:
            self.catch_ups += 1
        rest = skip_ahead(self.screen, data, cap, gap=start > self._offset)
        began = time.perf_counter()
        self.screen.feed(rest)
        self._measure(len(rest), time.perf_counter() - began)
        self.screen.dirty.update(range(self.screen.lines))
        self._offset = start + len(data)
