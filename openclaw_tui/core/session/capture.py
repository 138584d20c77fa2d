"""A session's output as it is kept: the raw bytes for terminal views, and the plain text agents read.

Bytes go into the raw ring at once; turning them into text waits a moment, so a flood is converted once per
batch.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..vt import StreamText
from .buffers import STDERR, STDOUT, Output
from .rawring import RawRing, TimeMark

if TYPE_CHECKING:
    from .record import SessionRecord

TEXT_DELAY_S = 0.05  # how long raw bytes may wait before they are turned into text
FLOOD_TEXT_DELAY_S = 0.25  # the same while output outruns the text's cap: each conversion decodes a whole
# tail's worth that the next one drops again (a tenth of a flood's drain at 20 a second); a read of the
# text still converts at once
BACKLOG_MAX = 4 << 20  # raw bytes waiting for conversion before it happens at once
TIME_MARK_MS = 1000  # output times are known to this precision (``logs --since``)
TIME_MARKS = 4096  # marks kept: an hour of output that never pauses, far more with pauses
RESIZES_KEPT = 64  # the newest resizes with who made them, for the log view's acts


def now_ms() -> int:
    return int(time.time() * 1000)


class SessionClock:
    """A session's times: the monotonic clock, anchored to the wall clock once, so times in one recording
    never jump when the system clock is set, and still read as the time of day."""

    __slots__ = ("_offset",)

    def __init__(self) -> None:
        self._offset = time.time() - time.monotonic()

    def ms(self, mono: float | None = None) -> int:
        """Wall-clock milliseconds of monotonic time ``mono`` (now when None)."""
        return int(((time.monotonic() if mono is None else mono) + self._offset) * 1000)


class OutputCapture:
    """One session's output, raw and as text.

    Args:
        max_chars / pending_max / raw_bytes: the caps of the retained text, the pending text (per stream)
            and the raw ring.
        on_text: called whenever new text was added (the session tells its watchers).
    """

    timed = True
    """Output times are recorded (the benchmark turns it off to measure what they cost)."""

    def __init__(self, max_chars: int, pending_max: int, raw_bytes: int, on_text: Callable[[], None]) -> None:
        self.clock = SessionClock()
        self.raw = RawRing(raw_bytes)
        self._text = Output(max_chars, pending_max)
        self._decoders = {STDOUT: StreamText(), STDERR: StreamText()}
        self._backlog: list[tuple[str, bytes]] = []  # raw bytes not yet turned into text
        self._backlog_size = 0
        self._text_delay = TEXT_DELAY_S
        self._dropped = False  # the backlog was cut to the tail since the last conversion: a flood
        self._on_text = on_text
        self.arrived = asyncio.Event()
        """Set when new text is added: a timed poll waits on it (and clears it)."""
        self.last_ms: int | None = None
        """Wall-clock time of the newest output (None before the first)."""
        self._last_mono = time.monotonic()
        self._times: deque[tuple[int, int, int]] = deque(maxlen=TIME_MARKS)  # (ms, chars, raw offset) before
        self.journal: SessionRecord | None = None
        """The session's journal record, once it is journaled (see ``Session.keep_record``)."""
        self.resized: deque[tuple[int, int, int, int, str | None]] = deque(maxlen=RESIZES_KEPT)
        """The resizes since the capture began, as the journal records them: (offset, cols, rows, at, by)."""

    def ingest(self, stream: str, data: bytes, stamps: list[tuple[int, float]] | None = None) -> None:
        """Raw bytes from the child (``stream`` is stdout or stderr), on the loop. ``stamps``: when parts of
        them were read, as (position in ``data``, monotonic time), for bytes one wake-up gathered;
        without them the bytes arrived now."""
        now = now_ms()
        start = self.raw.end
        times: list[TimeMark] = []
        if self.timed:
            if stamps is None:
                self.raw.append(data, self.clock.ms())
            else:
                for at, mono in stamps:
                    self.raw.stamp(start + at, self.clock.ms(mono))
                self.raw.append(data)
            times = self.raw.times_from(start) if self.journal is not None else times
        else:
            self.raw.append(data)
        if self.journal is not None:
            self.journal.raw(start, data, times)
        if not self._times or now - self._times[-1][0] >= TIME_MARK_MS:
            self._times.append((now, self._text.total_chars, start))
        if not self._backlog:
            asyncio.get_running_loop().call_later(self._text_delay, self._convert_backlog)
        self._backlog.append((stream, data))
        self._backlog_size += len(data)
        if self._backlog_size > BACKLOG_MAX and not self._drop_to_tail():  # a pipe can outrun the timer by
            self._convert_backlog()  # far: bound the memory
        self.last_ms = now
        self._last_mono = time.monotonic()

    @property
    def text(self) -> Output:
        """The text output, brought up to date with every byte received so far."""
        if self._backlog:
            self._convert_backlog()
        return self._text

    def resize(self, cols: int, rows: int, by: str | None = None) -> None:
        """The terminal is ``cols`` x ``rows`` from the next byte on (a size mark in the raw ring, with its
        time); ``by``: who resized it (None: the host, as the PTY opened)."""
        at = self.clock.ms()
        if self.raw.size != (cols, rows):
            self.resized.append((self.raw.end, cols, rows, at, by))
            if self.journal is not None:
                self.journal.size(self.raw.end, cols, rows, at, by)
        self.raw.resize(cols, rows, at)

    def since_time(self, ms: int) -> tuple[int, int]:
        """Where the output from wall-clock time ``ms`` on starts, as (characters of text, raw offset)
        before it: early by at most ``TIME_MARK_MS`` of output, never late (0, 0 when nothing older is known)."""
        if self.last_ms is not None and ms > self.last_ms:  # nothing came since
            return self.text.total_chars, self.raw.end
        at = bisect.bisect_right([m[0] for m in self._times], ms) - 1
        if at < 0:
            return 0, 0
        if ms >= self._times[at][0] + TIME_MARK_MS:  # what came after that mark came within the second after
            at += 1  # it (later output made the next mark), so before ``ms``: start at the next one
            if at == len(self._times):
                return self.text.total_chars, self.raw.end
        return self._times[at][1], self._times[at][2]

    def idle_ms(self) -> int:
        """Milliseconds since the newest output (or since the capture began)."""
        return int((time.monotonic() - self._last_mono) * 1000)

    def flush(self) -> None:
        """End of stream: decode whatever the per-stream decoders held back."""
        self._convert_backlog()
        for stream, decoder in self._decoders.items():
            self._append_text(stream, decoder.flush())

    def _convert_backlog(self) -> None:
        if not self._backlog:
            return
        flooding = self._drop_to_tail() or self._dropped
        self._text_delay, self._dropped = (FLOOD_TEXT_DELAY_S if flooding else TEXT_DELAY_S), False
        backlog, self._backlog, self._backlog_size = self._backlog, [], 0
        for stream, data in backlog:
            self._append_text(stream, self._decoders[stream].feed(data))

    def _drop_to_tail(self) -> bool:
        """Once the head is full, cut a backlog longer than the tail holds to what refills it, unconverted;
        whether it was cut."""
        keep = self._text.max_chars + 65536  # bytes enough to refill the tail (less if much is stripped)
        if self._backlog_size <= keep or len(self._text.head) < self._text.head_max:
            return False
        self._backlog = self._skip_to_tail(self._backlog, self._backlog_size - keep)
        self._backlog_size = sum(len(data) for _, data in self._backlog)
        self._dropped = True
        return True

    def _skip_to_tail(self, backlog: list[tuple[str, bytes]], skip: int) -> list[tuple[str, bytes]]:
        """Drop the oldest ``skip`` bytes unconverted: the caps would discard their text anyway.

        The cut is moved to just after a newline so it never splits a UTF-8 character or (in practice)
        an escape sequence; what was held and retained before the cut is dropped too, so the tail stays
        one continuous stretch of output. Dropped characters are counted as bytes (close for text).
        """
        dropped = 0
        while backlog and skip >= len(backlog[0][1]):
            skip -= len(backlog[0][1])
            dropped += len(backlog.pop(0)[1])
        if backlog:
            stream, data = backlog[0]
            cut = data.find(b"\n", skip)
            cut = len(data) if cut < 0 else cut + 1
            dropped += cut
            backlog[0] = (stream, data[cut:])
        self._decoders = {STDOUT: StreamText(), STDERR: StreamText()}
        self._text.skip(dropped)
        if self.journal is not None:
            self.journal.skip(dropped)
        return backlog

    def _append_text(self, stream: str, text: str) -> None:
        if text:
            self._text.append(stream, text)
            if self.journal is not None:
                self.journal.output(stream, text)
            self.arrived.set()
            self._on_text()

    # -- the journal ----------------------------------------------------------------------------
    def keep_record(self, journal: SessionRecord) -> None:
        """From now on hand every change to ``journal``, after what is held now: the raw ring with its size
        marks, and the text as head, the count of what the caps dropped, and the tail."""
        text = self.text  # converts the backlog first, so nothing is handed over twice
        start, data = self.raw.read(self.raw.start)
        for mark in self.raw.marks_from(self.raw.marks_base):
            journal.size(*mark)
        journal.raw(start, data, self.raw.times_from(start))
        before = text.total_chars - text.tail.size  # characters the tail no longer holds
        if before > len(text.head):
            journal.output(STDOUT, text.head)  # the head's streams are not kept; it is shown as one text
            journal.skip(before - len(text.head))
        elif before:
            journal.output(STDOUT, text.head[:before])
        for chunk in text.tail.chunks:
            journal.output(chunk.stream, chunk.text)
        self.journal = journal

    # -- as data --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Text and raw bytes as they stand (bytes a decoder still held mid-character are not included)."""
        return {"text": self.text.to_json(), "raw": self.raw.to_json(), "lastOutputMs": self.last_ms}

    def held_json(self) -> dict[str, Any]:
        """What each stream's decoder holds back (a character or sequence cut by a read), after ``to_json``:
        a host re-executing in place carries it over, so no byte is lost or decoded twice."""
        return {stream: decoder.to_json() for stream, decoder in self._decoders.items()}

    def restore_held(self, d: dict[str, Any]) -> None:
        self._decoders.update({stream: StreamText.from_json(held) for stream, held in d.items()})

    @classmethod
    def from_json(cls, d: dict[str, Any], on_text: Callable[[], None]) -> OutputCapture:
        text = Output.from_json(d["text"])
        raw = RawRing.from_json(d["raw"])
        capture = cls(text.max_chars, text.pending_max, raw.capacity, on_text)
        capture._text, capture.raw, capture.last_ms = text, raw, d.get("lastOutputMs")
        if capture.last_ms is not None:  # idle for as long as the wall clock says
            capture._last_mono -= max(0, now_ms() - capture.last_ms) / 1000
        return capture
