"""``SessionJournal``: the calls a host makes for one session, each a few microseconds under a lock."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..session import TimeMark
from .batch import Batch, encode_json
from .limits import Caps


class Writer(Protocol):
    """What a session's record needs of the journal (``store.Journal``): its lock, whether it writes, and
    a word when a batch grew."""

    lock: threading.Lock
    writing: bool

    def edited(self, sj: SessionJournal, grew: int, urgent: bool = False) -> None: ...


class SessionJournal:
    """One session's record. Every method returns at once and never raises."""

    __slots__ = ("_batch", "_head_len", "_journal", "caps", "dead", "id")

    def __init__(self, journal: Writer, session_id: str, caps: Caps, head_len: int = 0) -> None:
        self._journal = journal
        self.id = session_id
        self.caps = caps
        self._batch = Batch(caps)
        self._head_len = head_len  # characters of the head already handed over
        self.dead = False  # forgotten or evicted: calls are ignored

    def meta(self, meta: dict[str, Any]) -> None:
        """The session's metadata (a JSON object); each call replaces the previous one."""
        self._edit(lambda b: setattr(b, "meta", encode_json(meta)))

    def output(self, stream: str, text: str) -> None:
        """Text the session printed on ``stream`` (``stdout``/``stderr``), as its buffers took it."""
        if text:
            self._edit(lambda b: self._output(b, stream, text))

    def skip(self, nchars: int) -> None:
        """``nchars`` went by unconverted and the tail restarts after them (``Output.skip``)."""
        self._edit(lambda b: b.skip(nchars, self._head_len >= self.caps.head_chars))

    def raw(self, offset: int, data: bytes, times: list[TimeMark] | None = None) -> None:
        """Raw bytes that start at absolute ``offset`` of the session's raw stream, and when they arrived."""
        j = self._journal
        if not data or self.dead or not j.writing:
            return
        with j.lock:
            b = self._batch
            before = b.weight
            b.add_raw(offset, data, times or ())
            j.edited(self, b.weight - before)

    def size(self, offset: int, cols: int, rows: int, at: int = 0, by: str | None = None) -> None:
        """The terminal is ``cols`` x ``rows`` from raw ``offset`` on, since ``at`` (ms), resized ``by``."""
        self._edit(lambda b: b.add_size(offset, cols, rows, at, by))

    def input(self, record: dict[str, Any], replace_last: bool = False) -> None:
        """An input record (``InputRecord.to_json``); ``replace_last`` when it replaced the previous one."""
        self._edit(lambda b: b.add_input(record, replace_last))

    def exit(self, record: dict[str, Any]) -> None:
        """How the session ended; written and fsynced at once."""
        self._edit(lambda b: b.set_exit(time.time(), record), urgent=True)

    def _output(self, b: Batch, stream: str, text: str) -> None:
        room = self.caps.head_chars - self._head_len
        if room > 0:  # while the head fills, the tail of this batch is empty: pinned text stays in order
            b.pin(stream, text[:room])
            self._head_len += min(room, len(text))
            text = text[room:]
        if text:
            b.tail.append(stream, text)

    def _edit(self, change: Callable[[Batch], None], urgent: bool = False) -> None:
        j = self._journal
        if self.dead or not j.writing:
            return
        with j.lock:
            b = self._batch
            before = b.weight
            change(b)
            j.edited(self, b.weight - before, urgent)

    def take(self) -> Batch:
        batch, self._batch = self._batch, Batch(self.caps)
        return batch

    def shed(self) -> tuple[int, int, int]:
        """Drop the output waiting (the writer is far behind); returns what that freed, and the characters
        and raw bytes lost."""
        b = self._batch
        before, chars, nbytes = b.weight, b.lost, b.raw_lost
        b.shed()
        return before - b.weight, b.lost - chars, b.raw_lost - nbytes


class HeldRecord(SessionJournal):
    """A journaled session's record while its journal is not open again yet: the first moments of a host
    re-executed in place, whose sessions print on before the journal has been reopened. Every call is kept
    in order and handed to the real record by :meth:`replay`, so nothing printed meanwhile is missing from
    the disk."""

    __slots__ = ("calls",)

    def __init__(self, session_id: str) -> None:  # no journal behind it, so no batch either
        self.id = session_id
        self.dead = False
        self.calls: list[tuple[Callable[..., None], tuple[Any, ...]]] = []

    def replay(self, into: SessionJournal) -> None:
        for method, args in self.calls:
            method(into, *args)
        self.calls.clear()

    def meta(self, meta: dict[str, Any]) -> None:
        self.calls.append((SessionJournal.meta, (meta,)))

    def output(self, stream: str, text: str) -> None:
        self.calls.append((SessionJournal.output, (stream, text)))

    def skip(self, nchars: int) -> None:
        self.calls.append((SessionJournal.skip, (nchars,)))

    def raw(self, offset: int, data: bytes, times: list[TimeMark] | None = None) -> None:
        self.calls.append((SessionJournal.raw, (offset, data, times)))

    def size(self, offset: int, cols: int, rows: int, at: int = 0, by: str | None = None) -> None:
        self.calls.append((SessionJournal.size, (offset, cols, rows, at, by)))

    def input(self, record: dict[str, Any], replace_last: bool = False) -> None:
        self.calls.append((SessionJournal.input, (record, replace_last)))

    def exit(self, record: dict[str, Any]) -> None:
        self.calls.append((SessionJournal.exit, (record,)))
