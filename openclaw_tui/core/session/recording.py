"""A session's timed record as one export takes it: a copy of the raw ring with its times and sizes, the
inputs, and what the recording is of, taken on the loop so the export itself can run in a thread.

Also the pipe session's export, text with a time on each line, and how an export's ``since``/``until`` read.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..vt import StreamText
from .inputlog import InputRecord
from .rawring import RawRing

if TYPE_CHECKING:
    from .session import Session

_SPAN = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_UNIT_S = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}


def when_ms(value: str, now: float | None = None) -> int:
    """A time as ``--since``/``--until`` take it: a span back from now (``90s``, ``10m``, ``1h30m``) or an ISO
    time, in ms since the epoch; raises ValueError saying what it takes."""
    now = time.time() if now is None else now
    text = value.strip().lower()
    if text and _SPAN.sub("", text) == "":
        return int((now - sum(float(n) * _UNIT_S[u] for n, u in _SPAN.findall(text))) * 1000)
    try:
        return int(datetime.fromisoformat(value.strip().replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        raise ValueError(f"takes a span back from now such as 30s, 10m or 1h30m, or an ISO time; not {value!r}") \
            from None


@dataclass(frozen=True)
class Window:
    """What part of a recording to export: from ``since`` to ``until`` (ms, None: the whole), pauses capped
    at ``idle_limit`` seconds, and with ``inputs`` the input events."""

    since: int | None = None
    until: int | None = None
    idle_limit: float | None = None
    inputs: bool = False


@dataclass(frozen=True)
class Recording:
    """One session's record at the moment of an export (a copy: the session goes on meanwhile)."""

    session_id: str
    command: str
    name: str
    pty: bool
    started_ms: int
    term: str
    size: tuple[int, int]
    raw: RawRing
    inputs: tuple[InputRecord, ...]

    @classmethod
    def of(cls, session: Session, term: str = "xterm-256color") -> Recording:
        return cls(session.id, session.command, session.name, session.pty, session.started_ms, term,
                   session.pty_size, session.raw.copy(), tuple(session.inputs))

    def spans(self, start: int) -> list[tuple[int, int, int]]:
        """The raw bytes from ``start`` on as (offset, end, ms) runs that arrived together; bytes with no
        time known (a record from before times were kept) take the session's start."""
        ring = self.raw
        marks = ring.times_from(start) or []
        out: list[tuple[int, int, int]] = []
        if not marks or marks[0].offset > start:
            out.append((start, marks[0].offset if marks else ring.end, self.started_ms))
        for i, mark in enumerate(marks):
            out.append((mark.offset, marks[i + 1].offset if i + 1 < len(marks) else ring.end, mark.at))
        return [span for span in out if span[1] > span[0]]

    def offset_at(self, ms: int) -> int:
        """The first raw offset whose bytes arrived at or after ``ms`` (the ring's end if none did)."""
        for offset, _, at in self.spans(self.raw.start):
            if at >= ms:
                return offset
        return self.raw.end


def local_time(ms: int) -> str:
    """``HH:MM:SS.mmm`` in local time."""
    return time.strftime("%H:%M:%S", time.localtime(ms / 1000)) + f".{ms % 1000:03d}"


def timed_text(rec: Recording, window: Window) -> str:
    """The output as text (escape sequences taken out, as agents read it), each line led by the time its
    first byte arrived: ``HH:MM:SS.mmm  line``, in local time."""
    decoder = StreamText()
    lines: list[str] = []
    open_line: tuple[int, str] | None = None  # a line still without its newline: when it began, what it holds
    for offset, end, at in rec.spans(rec.raw.start):
        if window.since is not None and at < window.since:
            decoder.feed(rec.raw.read(offset, end - offset)[1])  # keeps the decoder's state; not printed
            continue
        if window.until is not None and at > window.until:
            break
        text = decoder.feed(rec.raw.read(offset, end - offset)[1])
        for piece in text.splitlines(keepends=True):
            began, held = open_line if open_line is not None else (at, "")
            held += piece
            if held.endswith(("\n", "\r")):
                lines.append(f"{local_time(began)}  {held.rstrip(chr(10) + chr(13))}")
                open_line = None
            else:
                open_line = (began, held)
    if open_line is not None:
        lines.append(f"{local_time(open_line[0])}  {open_line[1]}")
    return "".join(line + "\n" for line in lines)
