"""A bounded ring of a session's raw output bytes, addressed by absolute offset, with the terminal sizes and
the times the bytes arrived."""

from __future__ import annotations

import base64
from collections import deque
from typing import Any, NamedTuple

DEFAULT_CAPACITY = 1 << 20
MAX_SIZE_MARKS = 4096  # a client resizing without end cannot grow the ring's memory
MAX_TIME_MARKS = 1 << 16  # a slow trickle of tiny chunks cannot grow it either (the oldest times go first)


class SizeMark(NamedTuple):
    """The terminal became ``cols`` x ``rows`` before the byte at absolute ``offset`` was written, at
    wall-clock ``at`` (ms; 0 when unknown: a record from before times were kept)."""

    offset: int
    cols: int
    rows: int
    at: int = 0


class TimeMark(NamedTuple):
    """The bytes from absolute ``offset`` on (up to the next mark) arrived at wall-clock ``at`` (ms)."""

    offset: int
    at: int


class RawRing:
    """Newest ``capacity`` bytes of a stream, with absolute offsets.

    Attributes:
        start: absolute offset of the oldest byte still held.
        end: absolute offset one past the newest byte (total bytes ever written).
    """

    __slots__ = ("_chunks", "_marks", "_times", "capacity", "end", "marks_base", "start")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = max(1, capacity)
        self._chunks: deque[bytes] = deque()
        self.start = 0
        self.end = 0
        self._marks: list[SizeMark] = []
        self.marks_base = 0  # number of the oldest mark kept
        self._times: deque[TimeMark] = deque(maxlen=MAX_TIME_MARKS)

    def __len__(self) -> int:
        return self.end - self.start

    def append(self, data: bytes, at: int | None = None) -> None:
        """Add bytes at the end, dropping the oldest bytes beyond capacity; ``at``: when they arrived (ms)."""
        if not data:
            return
        if at is not None:
            self.stamp(self.end, at)
        if len(data) >= self.capacity:
            self._chunks.clear()
            self.end += len(data)
            self._chunks.append(bytes(data[-self.capacity :]))
            self.start = self.end - self.capacity
            self._trim_marks()
            return
        self._chunks.append(bytes(data))
        self.end += len(data)
        excess = (self.end - self.start) - self.capacity
        if excess <= 0:
            return
        while excess > 0:
            head = self._chunks[0]
            if len(head) <= excess:
                self._chunks.popleft()
                self.start += len(head)
                excess -= len(head)
            else:
                self._chunks[0] = head[excess:]
                self.start += excess
                excess = 0
        self._trim_marks()

    def append_at(self, offset: int, data: bytes, times: list[TimeMark] | tuple[TimeMark, ...] = ()) -> None:
        """Append bytes that start at absolute ``offset`` (a mirror of another ring).

        A gap (``offset`` past the end: the source dropped bytes before we got them) empties the ring and
        restarts it at ``offset``, so offsets keep meaning the same bytes on both sides.
        """
        if offset > self.end:
            self._chunks.clear()
            self.start = self.end = offset
            self._trim_marks()
        elif offset < self.end:
            data = data[self.end - offset :]
        for mark in times:  # the mirror's or the journal's own stamps of these bytes
            if mark.offset < self.end + len(data):
                self.stamp(max(mark.offset, self.end), mark.at)
        self.append(data)

    def read(self, offset: int, limit: int | None = None) -> tuple[int, bytes]:
        """Bytes from ``offset`` on (at most ``limit``), as ``(actual_start, data)``.

        ``actual_start`` is larger than ``offset`` when the bytes in between were already dropped.
        """
        offset = max(offset, self.start)
        if offset >= self.end:
            return self.end, b""
        skip = offset - self.start
        parts: list[bytes] = []
        want = (self.end - offset) if limit is None else min(limit, self.end - offset)
        got = 0
        for chunk in self._chunks:
            if skip >= len(chunk):
                skip -= len(chunk)
                continue
            piece = chunk[skip : skip + (want - got)]
            skip = 0
            parts.append(piece)
            got += len(piece)
            if got >= want:
                break
        return offset, b"".join(parts)

    def tail(self, n: int) -> tuple[int, bytes]:
        """The newest ``n`` bytes (or fewer), as ``(actual_start, data)``."""
        return self.read(max(self.start, self.end - n))

    # -- times -----------------------------------------------------------------------------------

    def stamp(self, offset: int, at: int) -> None:
        """Bytes from ``offset`` on arrived at ``at`` (ms): kept only when the millisecond changed, so a
        flood's reads within one millisecond share one mark; a clock never runs the marks backwards."""
        times = self._times
        if times:
            last = times[-1]
            if at <= last.at:
                return
            if offset == last.offset:  # nothing arrived under the older stamp: it is replaced
                times.pop()
        times.append(TimeMark(offset, at))

    def times_from(self, offset: int) -> list[TimeMark]:
        """The time marks for the bytes from ``offset`` on: the one in force there first (at ``offset``)."""
        out: list[TimeMark] = []
        for mark in reversed(self._times):  # from the newest: a live capture asks for the last few
            if mark.offset <= offset:
                out.append(TimeMark(offset, mark.at))
                break
            out.append(mark)
        out.reverse()
        return out

    def time_at(self, offset: int) -> int | None:
        """When the byte at ``offset`` arrived (ms), or None when no time is known for it."""
        found = None
        for mark in self._times:
            if mark.offset > offset:
                break
            found = mark.at
        return found

    # -- sizes -----------------------------------------------------------------------------------

    def resize(self, cols: int, rows: int, at: int = 0) -> None:
        """The terminal is ``cols`` x ``rows`` from now on (from the current end), since ``at`` (ms)."""
        self.mark_size(SizeMark(self.end, cols, rows, at))

    def mark_size(self, mark: SizeMark) -> None:
        """Record a resize (a mirror copies its source's marks); one that changes nothing is not kept."""
        marks = self._marks
        if marks and (marks[-1].cols, marks[-1].rows) == (mark.cols, mark.rows):
            return
        marks.append(SizeMark(min(max(mark.offset, marks[-1].offset if marks else 0), self.end), mark.cols,
                              mark.rows, mark.at))
        extra = len(marks) - MAX_SIZE_MARKS
        if extra > 0:
            del marks[:extra]
            self.marks_base += extra

    @property
    def size(self) -> tuple[int, int] | None:
        """(cols, rows) now, or None if no size was ever recorded (a pipe)."""
        return (self._marks[-1].cols, self._marks[-1].rows) if self._marks else None

    def size_at(self, offset: int) -> tuple[int, int] | None:
        """The size bytes from ``offset`` on were written for, before any later mark (None if unknown)."""
        found = None
        for mark in self._marks:
            if mark.offset > offset:
                break
            found = mark
        if found is None:
            found = self._marks[0] if self._marks else None  # older than the oldest mark kept
        return (found.cols, found.rows) if found is not None else None

    @property
    def marks_end(self) -> int:
        """Number of the next mark to be recorded."""
        return self.marks_base + len(self._marks)

    def marks_from(self, number: int) -> list[SizeMark]:
        """The marks numbered ``number`` on (the oldest kept, if those were dropped)."""
        return self._marks[max(0, number - self.marks_base) :]

    def first_mark_after(self, offset: int) -> int:
        """Number of the first mark past ``offset``: the first a replay starting at ``offset`` applies."""
        for i, mark in enumerate(self._marks):
            if mark.offset > offset:
                return self.marks_base + i
        return self.marks_end

    def copy(self) -> RawRing:
        """A ring holding the same bytes, marks and times, that this one's later changes leave alone."""
        ring = RawRing(self.capacity)
        start, data = self.read(self.start)
        ring.start, ring.end = start, start + len(data)
        if data:
            ring._chunks.append(data)
        ring._marks, ring.marks_base, ring._times = list(self._marks), self.marks_base, deque(self._times,
                                                                                            MAX_TIME_MARKS)
        return ring

    # -- as data --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The bytes held (base64), their offsets, and the size marks with the number of the oldest."""
        return {"capacity": self.capacity, "start": self.start, "data": base64.b64encode(self.read(self.start)[1]).decode(),
                "marks": [list(m) for m in self._marks], "marksBase": self.marks_base,
                "times": [list(t) for t in self._times]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RawRing:
        ring = cls(d["capacity"])
        data = base64.b64decode(d["data"])
        ring.start, ring.end = d["start"], d["start"] + len(data)
        if data:
            ring._chunks.append(data)
        ring._marks = [SizeMark(*m) for m in d["marks"]]
        ring.marks_base = d["marksBase"]
        ring._times.extend(TimeMark(*t) for t in d.get("times", ()))  # none in a record from before times
        return ring

    def _trim_marks(self) -> None:
        """Drop marks older than the one in force at ``start``."""
        marks = self._marks
        drop = 0
        while drop + 1 < len(marks) and marks[drop + 1].offset <= self.start:
            drop += 1
        if drop:
            del marks[:drop]
            self.marks_base += drop
        times = self._times
        while len(times) > 1 and times[1].offset <= self.start:
            times.popleft()
