"""Bounded text buffers for a session's output: what is retained (head and tail) and what is still pending."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..config import DEFAULT_MAX_OUTPUT, DEFAULT_PENDING_MAX, HEAD_CHARS

STDOUT = "stdout"
STDERR = "stderr"


@dataclass
class Chunk:
    stream: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"stream": self.stream, "text": self.text}

    @classmethod
    def from_json(cls, d: dict[str, str]) -> Chunk:
        return cls(d["stream"], d["text"])


@dataclass
class TailBuffer:
    """The newest ``cap`` characters, as stream-tagged chunks; counts what it had to drop."""

    cap: int
    chunks: deque[Chunk] = field(default_factory=deque)
    size: int = 0
    dropped: int = 0

    def append(self, stream: str, text: str) -> None:
        if not text:
            return
        last = self.chunks[-1] if self.chunks else None
        if last is not None and last.stream == stream and len(last.text) < 8192:
            last.text += text  # merge small writes so a chatty child does not cost a chunk per read
        else:
            self.chunks.append(Chunk(stream, text))
        self.size += len(text)
        self._trim()

    def _trim(self) -> None:
        excess = self.size - self.cap
        while excess > 0 and self.chunks:
            head = self.chunks[0]
            if len(head.text) <= excess:
                self.chunks.popleft()
                self.size -= len(head.text)
                self.dropped += len(head.text)
                excess -= len(head.text)
            else:
                head.text = head.text[excess:]
                self.size -= excess
                self.dropped += excess
                excess = 0

    def text(self) -> str:
        return "".join(c.text for c in self.chunks)

    def refill(self, chunks: Iterable[Chunk], dropped: int) -> None:
        """Hold exactly ``chunks`` (a copy's, read back), having dropped ``dropped`` characters before them."""
        self.chunks = deque(Chunk(c.stream, c.text) for c in chunks)
        self.size = sum(len(c.text) for c in self.chunks)
        self.dropped = dropped


class PendingBuffer:
    """Output not yet returned by a poll, in arrival order, capped per stream (oldest dropped first)."""

    def __init__(self, cap_per_stream: int) -> None:
        self.cap = cap_per_stream
        self.chunks: deque[Chunk] = deque()
        self.sizes = {STDOUT: 0, STDERR: 0}
        self.dropped = 0

    def append(self, stream: str, text: str) -> None:
        if not text:
            return
        last = self.chunks[-1] if self.chunks else None
        if last is not None and last.stream == stream and len(last.text) < 8192:
            last.text += text
        else:
            self.chunks.append(Chunk(stream, text))
        self.sizes[stream] += len(text)
        excess = self.sizes[stream] - self.cap
        if excess > 0:
            self._drop(stream, excess)

    def _drop(self, stream: str, excess: int) -> None:
        kept: deque[Chunk] = deque()
        for chunk in self.chunks:
            if excess > 0 and chunk.stream == stream:
                cut = min(excess, len(chunk.text))
                chunk.text = chunk.text[cut:]
                excess -= cut
                self.sizes[stream] -= cut
                self.dropped += cut
                if not chunk.text:
                    continue
            kept.append(chunk)
        self.chunks = kept

    def __bool__(self) -> bool:
        return bool(self.chunks)

    def refill(self, chunks: Iterable[Chunk], dropped: int) -> None:
        """Hold exactly ``chunks`` (a copy's, read back), ``dropped`` characters lost since the last take."""
        self.chunks = deque(Chunk(c.stream, c.text) for c in chunks)
        self.sizes = {STDOUT: 0, STDERR: 0}
        for c in self.chunks:
            self.sizes[c.stream] = self.sizes.get(c.stream, 0) + len(c.text)
        self.dropped = dropped

    def take(self) -> tuple[str, int]:
        """Everything pending, then empty; returns ``(text, chars_dropped_since_last_take)``."""
        text, dropped = "".join(c.text for c in self.chunks), self.dropped
        self.chunks.clear()
        self.sizes = {STDOUT: 0, STDERR: 0}
        self.dropped = 0
        return text, dropped


@dataclass
class Output:
    """All output of one session: retained head + tail, and pending text."""

    max_chars: int
    pending_max: int
    head_max: int = HEAD_CHARS
    head: str = ""
    total_chars: int = 0
    tail: TailBuffer = field(init=False)
    pending: PendingBuffer = field(init=False)

    def __post_init__(self) -> None:
        self.tail = TailBuffer(self.max_chars)
        self.pending = PendingBuffer(self.pending_max)

    def append(self, stream: str, text: str) -> None:
        if not text:
            return
        if len(self.head) < self.head_max:
            self.head += text[: self.head_max - len(self.head)]
        self.total_chars += len(text)
        self.tail.append(stream, text)
        self.pending.append(stream, text)

    def skip(self, nchars: int) -> None:
        """Output that went by unconverted during a flood: it, and everything retained but the head,
        is dropped, so the tail that follows is continuous."""
        self.total_chars += nchars
        self.tail.dropped += self.tail.size
        self.tail.chunks.clear()
        self.tail.size = 0
        self.pending.dropped += nchars + sum(self.pending.sizes.values())
        self.pending.chunks.clear()
        self.pending.sizes = {STDOUT: 0, STDERR: 0}

    def gap(self) -> int:
        """Characters no longer retained: dropped between the head and the tail."""
        return max(0, self.total_chars - self.tail.size - len(self.head))

    @property
    def truncated(self) -> bool:
        return self.gap() > 0

    @property
    def retained_chars(self) -> int:
        return self.tail.size + len(self.head)

    def full_text(self) -> str:
        """Retained text: the whole output, or head + a marker + tail when the middle was dropped."""
        tail = self.tail.text()
        if self.total_chars <= self.tail.size:
            return tail
        gap = self.gap()
        if gap == 0:  # head and tail meet or overlap: stitch without a marker
            overlap = len(self.head) + self.tail.size - self.total_chars
            return self.head + tail[overlap:]
        head = self.head if self.head.endswith("\n") else self.head + "\n"
        return f"{head}[… {gap} chars dropped …]\n{tail}"

    @property
    def tail_start(self) -> int:
        """How many characters came before the retained tail: :meth:`since` answers from here on."""
        return self.total_chars - self.tail.size

    def since(self, seen: int) -> list[Chunk] | None:
        """What came after the first ``seen`` characters, as stream-tagged chunks; None when part of it is no
        longer retained (the reader then starts again from :meth:`to_json`, or from :attr:`tail_start`)."""
        if not self.tail_start <= seen <= self.total_chars:
            return None
        need, pieces = self.total_chars - seen, []
        for chunk in reversed(self.tail.chunks):
            if need <= 0:
                break
            pieces.append(Chunk(chunk.stream, chunk.text[-need:]))
            need -= len(chunk.text)
        return pieces[::-1]

    def to_json(self, pending: bool = True) -> dict[str, Any]:
        """Everything retained: caps, head, tail (``chunks``) and counts, and the pending output unless
        ``pending`` is false (a copy that never polls, such as a dashboard's, has no use for it)."""
        d: dict[str, Any] = {
            "maxChars": self.max_chars, "pendingMax": self.pending_max, "headMax": self.head_max, "head": self.head,
            "totalChars": self.total_chars, "chunks": [c.to_json() for c in self.tail.chunks],
            "tailDropped": self.tail.dropped,
        }
        if pending:
            d.update(pending=[c.to_json() for c in self.pending.chunks], pendingDropped=self.pending.dropped)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Output:
        """The output :meth:`to_json` described (missing caps and counts take their defaults)."""
        out = cls(d.get("maxChars", DEFAULT_MAX_OUTPUT), d.get("pendingMax", DEFAULT_PENDING_MAX),
                  d.get("headMax", HEAD_CHARS), d.get("head", ""), d["totalChars"])
        out.tail.refill(map(Chunk.from_json, d["chunks"]), d.get("tailDropped", 0))
        out.pending.refill(map(Chunk.from_json, d.get("pending", ())), d.get("pendingDropped", 0))
        return out

    def tail_text(self, n: int) -> str:
        """The last ``n`` characters retained."""
        out: list[str] = []
        need = n
        for chunk in reversed(self.tail.chunks):
            if need <= 0:
                break
            out.append(chunk.text[-need:])
            need -= len(chunk.text)
        return "".join(reversed(out))
