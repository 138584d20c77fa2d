"""Terminal queries in a PTY program's output: questions a real terminal would answer.

Programs ask the terminal where the cursor is (``ESC[6n``, ``ESC[?6n``), whether it is fine (``ESC[5n``) or
what it is (``ESC[c``, ``ESC[>c``), then wait for the reply; with nobody answering they hang or stall on a timeout. So
the session finds them as bytes arrive, whether or not a dashboard is watching, and hands each one to the
host's replier (the terminal engine knows the answers; the core only finds the questions).

Only the search runs on the ingest path, and it must not slow a flood down: a chunk bigger than
``FULL_SCAN`` is searched only at its end, which is where a program that waits for its answer leaves the
question. The last few bytes are carried over so a query split across two reads is still found.
"""

from __future__ import annotations

import re

from .sequences import CURSOR_REPORT, DA, DSR, STATUS_REPORT

QUERY = re.compile(f"\x1b\\[(?:\\??{CURSOR_REPORT}{DSR}|{STATUS_REPORT}{DSR}|>?0?{DA})".encode())
LONGEST = len(f"\x1b[?{CURSOR_REPORT}{DSR}")
FULL_SCAN = 64 * 1024
TAIL_SCAN = 4096


class QueryScanner:
    """Finds terminal queries in output fed in arbitrary pieces."""

    __slots__ = ("carry",)

    def __init__(self) -> None:
        self.carry = b""  # the end of the output so far that may start a query (a re-exec keeps it)

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """``(back, query)`` for each query that ``data`` completes; ``back`` counts the bytes of ``data``
        after the query, so its end is at ``ring.end - back`` once ``data`` is in the ring."""
        if len(data) > FULL_SCAN:
            buf = data[-TAIL_SCAN:]
        elif b"\x1b" in data or self.carry:
            buf = self.carry + data
        else:
            return []
        found = [(len(buf) - m.end(), m.group()) for m in QUERY.finditer(buf)]
        keep_from = len(buf) - found[-1][0] if found else 0
        self.carry = buf[max(keep_from, len(buf) - LONGEST + 1) :]
        if b"\x1b" not in self.carry:
            self.carry = b""
        return found
