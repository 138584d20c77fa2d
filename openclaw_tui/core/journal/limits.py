"""How much the journal keeps and how hard it may work the disk."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..config import HEAD_CHARS
from ..session import DEFAULT_CAPACITY

MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Bounds of a journal.

    Attributes:
        session_bytes: a session's file is compacted when it would grow past this,
        session_records: or when it would hold more records than this since its last compaction, which
            bounds the time to read it back (a session printing a line now and then writes a record a line).
        total_bytes: past this, the oldest finished sessions are deleted (never a running one, never the
            most recently finished).
        flush_interval: seconds appends may wait before they are written (exits and ids go at once).
        write_rate: bytes a second the writer may average; a flood waits longer between writes and is
            coalesced meanwhile (0: no limit).
        buffer_bytes: output waiting for the writer, all sessions together; past it, the session adding
            more loses what it had waiting (counted, and said in its record).
    """

    session_bytes: int = 4 * MB
    session_records: int = 8192
    total_bytes: int = 256 * MB
    flush_interval: float = 0.1
    write_rate: int = 4 * MB
    buffer_bytes: int = 16 * MB


@dataclass(frozen=True)
class Caps:
    """What one session retains: the first ``head_chars`` of its text and the newest ``tail_chars``, the
    newest ``raw_bytes`` of its raw output, and the newest ``inputs`` input records."""

    head_chars: int = HEAD_CHARS
    tail_chars: int = 200_000
    raw_bytes: int = DEFAULT_CAPACITY
    inputs: int = 200

    def fitted(self, limits: Limits) -> Caps:
        """These caps, shrunk where a snapshot would not fit well inside the session's disk bound
        (UTF-8 text takes up to 4 bytes a character; the raw tail gets a quarter of the bound)."""
        bound = limits.session_bytes
        return replace(
            self,
            head_chars=max(0, min(self.head_chars, bound // 64)),
            tail_chars=max(1, min(self.tail_chars, bound // 16)),
            raw_bytes=max(1, min(self.raw_bytes, bound // 4)),
            inputs=max(1, min(self.inputs, 1000)),
        )

    def to_json(self) -> dict[str, int]:
        return {"head": self.head_chars, "tail": self.tail_chars, "raw": self.raw_bytes, "inputs": self.inputs}

    @classmethod
    def from_json(cls, d: dict[str, int]) -> Caps:
        return cls(int(d["head"]), int(d["tail"]), int(d["raw"]), int(d["inputs"]))
