"""A PTY session's recording as asciicast v2, the format asciinema and its web player read: a JSON header,
then one ``[seconds, code, data]`` line per event (``o`` output, ``r`` resize, ``i`` input).

The ring's times and size marks map one to one onto its events. A cut (``since``) starts with the screen as
it was there, drawn by the engine as ANSI, so the recording plays back to the same screen as the session's.
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from openclaw_tui.core.session import RawRing, Recording, Window

from .ansi import runs_to_ansi
from .emulator import TerminalScreen
from .ondemand import SCREEN_WINDOW, screen_at

CAST_VERSION = 2


class _Source:
    """A recording's ring as the engine reads a session."""

    def __init__(self, raw: RawRing, size: tuple[int, int]) -> None:
        self.raw, self.pty_size = raw, size


def screen_ansi(screen: TerminalScreen) -> str:
    """What puts ``screen`` on a terminal of its size: which screen is shown, every row, the cursor."""
    out = ["\x1b[?1049h" if screen.alt_screen else "", "\x1b[0m\x1b[H\x1b[2J"]
    for y in range(screen.rows):
        row = runs_to_ansi(screen.row_runs(y, show_cursor=False))
        if row:
            out.append(f"\x1b[{y + 1};1H{row}")
    x, y = screen.cursor_xy
    out.append(f"\x1b[{y + 1};{x + 1}H" + ("" if screen.cursor_visible else "\x1b[?25l"))
    return "".join(out)


def cast(rec: Recording, window: Window) -> str:
    """The asciicast v2 text of ``rec`` within ``window`` (see :class:`~openclaw_tui.core.session.Window`)."""
    ring = rec.raw
    start = ring.start if window.since is None else max(ring.start, rec.offset_at(window.since))
    end = ring.end if window.until is None else rec.offset_at(window.until + 1)
    cols, rows = ring.size_at(start) or rec.size
    spans = [s for s in rec.spans(start) if s[0] < end]
    if window.since is not None:
        origin = window.since
    elif start == 0 and ring.start == 0:
        origin = min([rec.started_ms, *(s[2] for s in spans[:1])])
    else:
        origin = spans[0][2] if spans else rec.started_ms
    events: list[tuple[int, str, str]] = []  # (ms, code, data), in order
    if window.since is not None and start > ring.start:
        events.append((origin, "o", screen_ansi(screen_at(_Source(ring, rec.size), start, SCREEN_WINDOW))))
    marks = [m for m in ring.marks_from(ring.first_mark_after(start)) if m.offset < end]
    decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a character split between reads stays whole
    for offset, stop, at in spans:
        stop = min(stop, end)
        while marks and marks[0].offset <= stop:
            mark = marks.pop(0)
            if mark.offset > offset:
                events.append((at, "o", decoder.decode(ring.read(offset, mark.offset - offset)[1])))
                offset = mark.offset
            events.append((max(mark.at, origin) if mark.at else at, "r", f"{mark.cols}x{mark.rows}"))
        if stop > offset:
            events.append((at, "o", decoder.decode(ring.read(offset, stop - offset)[1])))
    if window.inputs:
        events += [(int(r.at * 1000), "i", r.preview) for r in rec.inputs
                   if origin <= r.at * 1000 and (window.until is None or r.at * 1000 <= window.until)]
        events.sort(key=lambda e: e[0])  # stable: output and resizes keep their order
    header: dict[str, Any] = {"version": CAST_VERSION, "width": cols, "height": rows, "timestamp": origin // 1000,
                              "title": rec.command, "env": {"TERM": rec.term}}
    if window.idle_limit is not None:
        header["idle_time_limit"] = window.idle_limit
    lines = [json.dumps(header, ensure_ascii=False)]
    for seconds, code, data in _timed(events, origin, window.idle_limit):
        if data or code != "o":
            lines.append(json.dumps([seconds, code, data], ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _timed(events: list[tuple[int, str, str]], origin: int, idle_limit: float | None) -> list[tuple[float, str, str]]:
    """Each event's seconds from ``origin``, never decreasing, every pause capped at ``idle_limit``."""
    out: list[tuple[float, str, str]] = []
    clock, last = 0.0, origin
    for ms, code, data in events:
        gap = max(0, ms - last) / 1000
        if idle_limit is not None:
            gap = min(gap, idle_limit)
        clock += gap
        last = max(last, ms)
        out.append((round(clock, 6), code, data))
    return out
