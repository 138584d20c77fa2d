"""A bounded ring of a session's raw output bytes, addressed by absolute offset, with the terminal sizes."""

from __future__ import annotations

import base64
from collections import deque
from typing import Any, NamedTuple

DEFAULT_CAPACITY = 1 << 20
MAX_SIZE_MARKS = 4096  # a client resizing without end cannot grow the ring's memory


class SizeMark(NamedTuple):
    """The terminal became ``cols`` x ``rows`` before the byte at absolute ``offset`` was written."""

    offset: int
    cols: int
    rows: int


class RawRing:
    """Newest ``capacity`` bytes of a stream, with absolute offsets.

    Attributes:
        start: absolute offset of the oldest byte still held.
        end: absolute offset one past the newest byte (total bytes ever written).
    """

    __slots__ = ("_chunks", "_marks", "capacity", "end", "marks_base", "start")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = max(1, capacity)
        self._chunks: deque[bytes] = deque()
        self.start = 0
        self.end = 0
        self._marks: list[SizeMark] = []
        self.marks_base = 0  # number of the oldest mark kept

    def __len__(self) -> int:
        return self.end - self.start

    def append(self, data: bytes) -> None:
        """Add bytes at the end, dropping the oldest bytes beyond capacity."""
        if not data:
            return
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

    def append_at(self, offset: int, data: bytes) -> None:
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

    # -- sizes -----------------------------------------------------------------------------------

    def resize(self, cols: int, rows: int) -> None:
        """The terminal is ``cols`` x ``rows`` from now on (from the current end)."""
        self.mark_size(SizeMark(self.end, cols, rows))

    def mark_size(self, mark: SizeMark) -> None:
        """Record a resize (a mirror copies its source's marks); one that changes nothing is not kept."""
        marks = self._marks
        if marks and (marks[-1].cols, marks[-1].rows) == (mark.cols, mark.rows):
            return
        marks.append(SizeMark(min(max(mark.offset, marks[-1].offset if marks else 0), self.end), mark.cols,
                              mark.rows))
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

    # -- as data --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The bytes held (base64), their offsets, and the size marks with the number of the oldest."""
        return {"capacity": self.capacity, "start": self.start, "data": base64.b64encode(self.read(self.start)[1]).decode(),
                "marks": [list(m) for m in self._marks], "marksBase": self.marks_base}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RawRing:
        ring = cls(d["capacity"])
        data = base64.b64decode(d["data"])
        ring.start, ring.end = d["start"], d["start"] + len(data)
        if data:
            ring._chunks.append(data)
        ring._marks = [SizeMark(*m) for m in d["marks"]]
        ring.marks_base = d["marksBase"]
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
