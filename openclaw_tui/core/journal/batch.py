"""What one session has waiting for the writer, already trimmed to what its caps would still keep."""

from __future__ import annotations

import json
from typing import Any

from ..session import RawRing, TailBuffer, TimeMark
from . import records as rec
from .limits import Caps

MAX_SIZE_MARKS = 64  # per batch: a window being dragged sends many; the newest are what matter


def encode_json(value: Any) -> bytes:
    """JSON for a record; a value JSON cannot hold is written as its ``str``, and a structure it cannot
    hold at all (a cycle, absurd nesting) as a note saying so: the caller is never refused."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (ValueError, TypeError, RecursionError) as e:
        text = json.dumps({"unrecordable": str(e)[:200]})
    return text.encode("utf-8", "surrogatepass")


class Batch:
    """Records waiting to be written for one session, in the order a reader must apply them."""

    __slots__ = ("caps", "exit", "inputs", "lost", "meta", "pinned", "pinned_chars", "raw", "raw_lost",
                 "restart", "sizes", "skipped", "tail")

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.meta: bytes | None = None
        self.pinned: list[tuple[str, str] | int] = []  # head-window output, and skips before the head filled
        self.pinned_chars = 0
        self.tail = TailBuffer(caps.tail_chars)
        self.restart = False  # a skip after the head filled: the reader's tail restarts before ``tail``
        self.skipped = 0  # characters that skip counted, besides those the tail's cap dropped
        self.lost = 0
        self.raw: RawRing | None = None
        self.raw_lost = 0
        self.sizes: list[tuple[int, int, int, int, str | None]] = []  # offset, cols, rows, at (ms), by
        self.inputs: list[tuple[bytes, bytes]] = []
        self.exit: tuple[float, bytes] | None = None  # when it ended, and its record

    @property
    def weight(self) -> int:
        """Characters and bytes held (what counts against the journal's buffer bound)."""
        return self.pinned_chars + self.tail.size + (len(self.raw) if self.raw is not None else 0)

    def pin(self, stream: str, text: str) -> None:
        self.pinned.append((stream, text))
        self.pinned_chars += len(text)

    def skip(self, nchars: int, head_full: bool) -> None:
        if not head_full:  # nothing is in the tail yet: keep the skip in order with the pinned text
            self.pinned.append(nchars)
            return
        self.restart = True
        self.skipped += nchars + self.tail.size + self.tail.dropped
        self.tail = TailBuffer(self.caps.tail_chars)

    def add_raw(self, offset: int, data: bytes, times: list[TimeMark] | tuple[TimeMark, ...] = ()) -> None:
        if self.raw is None:
            self.raw = RawRing(self.caps.raw_bytes)
        self.raw.append_at(offset, data, times)

    def add_size(self, offset: int, cols: int, rows: int, at: int, by: str | None) -> None:
        self.sizes.append((offset, cols, rows, at, by))
        del self.sizes[:-MAX_SIZE_MARKS]

    def add_input(self, record: dict[str, Any], replace_last: bool) -> None:
        payload = encode_json(record)
        if replace_last and self.inputs:
            self.inputs[-1] = (self.inputs[-1][0], payload)
        else:
            self.inputs.append((rec.INPUT_REPLACE if replace_last else rec.INPUT, payload))
            del self.inputs[: -self.caps.inputs]

    def set_exit(self, at: float, exit: dict[str, Any]) -> None:
        self.exit = (at, rec.frame(rec.EXIT, encode_json({"at": at, "exit": exit})))

    def shed(self) -> None:
        """Give up the text and raw bytes waiting (the writer is behind): counted as lost."""
        self.lost += self.tail.size
        self.skip(0, head_full=True)
        if self.raw is not None:
            self.raw_lost += len(self.raw)
            self.raw = None

    def encode(self) -> tuple[bytes, int]:
        """The records, and how many there are."""
        parts: list[bytes] = []
        if self.meta is not None:
            parts.append(rec.frame(rec.META, self.meta))
        for item in self.pinned:
            if isinstance(item, int):
                parts.append(rec.json_record(rec.SKIP, {"chars": item, "lost": 0}))
            else:
                parts.append(rec.text_record(rec.OUTPUT, *item))
        dropped = self.skipped + self.tail.dropped
        if self.restart or dropped:
            parts.append(rec.json_record(rec.SKIP, {"chars": dropped, "lost": self.lost}))
        parts += [rec.text_record(rec.OUTPUT, c.stream, c.text) for c in self.tail.chunks]
        if self.raw_lost:
            parts.append(rec.json_record(rec.RAW_LOST, {"bytes": self.raw_lost}))
        if self.raw is not None and len(self.raw):
            start, data = self.raw.read(self.raw.start)
            parts.append(rec.raw_record(start, data))
            times = self.raw.times_from(start)
            if times:
                parts.append(rec.times_record(times))
        parts += [rec.size_at_record(*mark) for mark in self.sizes]
        parts += [rec.frame(kind, payload) for kind, payload in self.inputs]
        if self.exit is not None:
            parts.append(self.exit[1])
        return b"".join(parts), len(parts)
