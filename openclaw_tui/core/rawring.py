"""A bounded ring of a session's raw output bytes, addressed by absolute offset.

The terminal view needs the child's bytes exactly as written (escape sequences and all) while the
agent-facing text is stripped. Keeping every byte would grow without bound, so the ring keeps only the
newest ``capacity`` bytes; readers remember the absolute offset they reached and learn, on their next
read, whether bytes were dropped before they got to them (then they catch up from the tail).

Memory is only taken as output arrives: an idle session with no output costs an empty deque.
"""

from __future__ import annotations

from collections import deque

DEFAULT_CAPACITY = 1 << 20


class RawRing:
    """Newest ``capacity`` bytes of a stream, with absolute offsets.

    Attributes:
        start: absolute offset of the oldest byte still held.
        end: absolute offset one past the newest byte (total bytes ever written).
    """

    __slots__ = ("_chunks", "capacity", "end", "start")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = max(1, capacity)
        self._chunks: deque[bytes] = deque()
        self.start = 0
        self.end = 0

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
            return
        self._chunks.append(bytes(data))
        self.end += len(data)
        excess = (self.end - self.start) - self.capacity
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

    def append_at(self, offset: int, data: bytes) -> None:
        """Append bytes that start at absolute ``offset`` (a mirror of another ring).

        A gap (``offset`` past the end: the source dropped bytes before we got them) empties the ring and
        restarts it at ``offset``, so offsets keep meaning the same bytes on both sides.
        """
        if offset > self.end:
            self._chunks.clear()
            self.start = self.end = offset
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
