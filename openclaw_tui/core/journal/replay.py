"""Rebuilding a session from its records, and writing what it retains back as a snapshot."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..session import RawRing, TailBuffer
from . import records as rec
from .limits import Caps

MAX_SIZE_MARKS = 256


@dataclass
class RecoveredOutput:
    """A session's retained text: the head, the tail as stream-tagged chunks, and the counts.

    Attributes:
        total_chars: every character the session printed, kept or not.
        lost_chars: characters the journal could not keep up with (the host kept them in memory; the
            record lacks them).
    """

    head: str = ""
    tail: list[tuple[str, str]] = field(default_factory=list)
    total_chars: int = 0
    lost_chars: int = 0

    def tail_text(self) -> str:
        return "".join(text for _, text in self.tail)

    @property
    def dropped_chars(self) -> int:
        """Characters retained by neither the head nor the tail (``Output.gap``)."""
        return max(0, self.total_chars - len(self.head) - sum(len(t) for _, t in self.tail))


@dataclass
class RecoveredSession:
    """One session as its journal file tells it. ``exit`` is None when the session was still running
    when its host stopped writing (a crash, or a host that never ended it)."""

    session_id: str
    caps: Caps
    meta: dict[str, Any] = field(default_factory=dict)
    output: RecoveredOutput = field(default_factory=RecoveredOutput)
    raw_start: int = 0
    raw: bytes = b""
    raw_lost: int = 0
    sizes: list[tuple[int, int, int, int, str | None]] = field(default_factory=list)  # offset cols rows at by
    times: list[tuple[int, int]] = field(default_factory=list)  # when the raw bytes arrived: (offset, ms)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    exit: dict[str, Any] | None = None
    ended_at: float | None = None  # wall-clock time the exit was journaled

    @property
    def raw_end(self) -> int:
        return self.raw_start + len(self.raw)


class Replay:
    """Applies records one by one; ``session()`` gives the result so far."""

    def __init__(self, session_id: str, caps: Caps) -> None:
        self.id, self.caps = session_id, caps
        self.meta: dict[str, Any] = {}
        self.head, self.total, self.lost, self.raw_lost = "", 0, 0, 0
        self.tail = TailBuffer(caps.tail_chars)
        self.raw = RawRing(caps.raw_bytes)
        self.sizes: deque[tuple[int, int, int, int, str | None]] = deque(maxlen=MAX_SIZE_MARKS)
        self.inputs: deque[dict[str, Any]] = deque(maxlen=caps.inputs)
        self.exit: dict[str, Any] | None = None
        self.ended_at: float | None = None

    def apply(self, kind: bytes, payload: bytes) -> None:
        """One record; raises (ValueError, KeyError, ...) for a payload that does not parse."""
        if kind == rec.OUTPUT:
            self.output(*rec.read_text(payload))
        elif kind == rec.RAW:
            self.raw.append_at(*rec.read_raw(payload))
        elif kind == rec.TAIL:
            self.tail.append(*rec.read_text(payload))
        elif kind == rec.SIZE:  # format 1: no time, nobody named
            self.sizes.append((*rec.read_size(payload), 0, None))
        elif kind == rec.SIZE_AT:
            self.sizes.append(rec.read_size_at(payload))
        elif kind == rec.TIMES:
            for offset, at in rec.read_times(payload):
                self.raw.stamp(offset, at)
        elif kind in (rec.INPUT, rec.INPUT_REPLACE):
            if kind == rec.INPUT_REPLACE and self.inputs:
                self.inputs.pop()
            self.inputs.append(dict(rec.read_json(payload)))
        else:
            self.structured(kind, rec.read_json(payload))

    def output(self, stream: str, text: str) -> None:
        if len(self.head) < self.caps.head_chars:
            self.head += text[: self.caps.head_chars - len(self.head)]
        self.total += len(text)
        self.tail.append(stream, text)

    def structured(self, kind: bytes, value: Any) -> None:
        if kind == rec.META:
            self.meta = dict(value)
        elif kind == rec.SKIP:
            self.total += int(value["chars"])
            self.lost += int(value["lost"])
            self.tail = TailBuffer(self.caps.tail_chars)
        elif kind == rec.RAW_LOST:
            self.raw_lost += int(value["bytes"])
        elif kind == rec.EXIT:
            self.exit, self.ended_at = dict(value["exit"]), float(value["at"])
        elif kind == rec.BASE:
            self.head, self.total = str(value["head"]), int(value["total"])
            self.lost, self.raw_lost = int(value["lost"]), int(value["rawLost"])
            self.tail = TailBuffer(self.caps.tail_chars)
        elif kind != rec.CAPS:
            raise ValueError(f"unknown record kind {kind!r}")

    def session(self) -> RecoveredSession:
        start, data = self.raw.read(self.raw.start)
        older = [m for m in self.sizes if m[0] <= start]
        sizes = older[-1:] + [m for m in self.sizes if m[0] > start]  # the size in force at the start, then later
        output = RecoveredOutput(self.head, runs(self.tail), self.total, self.lost)
        times = [(t.offset, t.at) for t in self.raw.times_from(start)] if data else []
        return RecoveredSession(self.id, self.caps, self.meta, output, start, data, self.raw_lost, sizes, times,
                                list(self.inputs), self.exit, self.ended_at)


def runs(tail: TailBuffer) -> list[tuple[str, str]]:
    """The tail as runs of one stream each (chunk boundaries are an accident of how reads arrived)."""
    out: list[tuple[str, str]] = []
    for chunk in tail.chunks:
        if out and out[-1][0] == chunk.stream:
            out[-1] = (chunk.stream, out[-1][1] + chunk.text)
        else:
            out.append((chunk.stream, chunk.text))
    return out


def replay(records: list[tuple[bytes, bytes, int]]) -> tuple[RecoveredSession | None, int]:
    """The session a file's records describe, and where the records it could use end (a record that does
    not parse ends the file there, as damage would). None when the file does not start with its caps."""
    if not records or records[0][0] != rec.CAPS:
        return None, 0
    try:
        head = rec.read_json(records[0][1])
        state = Replay(str(head["id"]), Caps.from_json(head["caps"]))
    except (ValueError, KeyError, TypeError):
        return None, 0
    good = records[0][2]
    for kind, payload, end in records[1:]:
        try:
            state.apply(kind, payload)
        except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
            break
        good = end
    return state.session(), good


def header(session_id: str, caps: Caps) -> bytes:
    """The start of every session file: the magic line and the caps record."""
    return rec.MAGIC + rec.json_record(rec.CAPS, {"id": session_id, "caps": caps.to_json(), "format": rec.FORMAT})


def snapshot(s: RecoveredSession) -> bytes:
    """A whole new file holding what ``s`` retains, so that replaying it gives ``s`` back."""
    out = s.output
    parts = [header(s.session_id, s.caps)]
    if s.meta:
        parts.append(rec.json_record(rec.META, s.meta))
    parts.append(rec.json_record(rec.BASE, {"head": out.head, "total": out.total_chars, "lost": out.lost_chars,
                                            "rawLost": s.raw_lost}))
    parts += [rec.text_record(rec.TAIL, stream, text) for stream, text in out.tail]
    if s.raw or s.raw_start:
        parts.append(rec.raw_record(s.raw_start, s.raw))
    if s.times:
        parts.append(rec.times_record(s.times))
    parts += [rec.size_at_record(*mark) for mark in s.sizes]
    parts += [rec.json_record(rec.INPUT, item) for item in s.inputs]
    if s.exit is not None:
        parts.append(exit_record(s.ended_at or 0.0, s.exit))
    return b"".join(parts)


def exit_record(at: float, exit: dict[str, Any]) -> bytes:
    return rec.json_record(rec.EXIT, {"at": at, "exit": exit})
