"""Terminal queries in a PTY program's output: questions a real terminal would answer.

Programs ask the terminal where the cursor is (``ESC[6n``, ``ESC[?6n``), whether it is fine (``ESC[5n``) or
what it is (``ESC[c``, ``ESC[>c``), then wait for the reply; with nobody answering they hang or stall on a timeout. So
the session finds them as bytes arrive, whether or not a dashboard is watching, and hands each one to the
host's replier (the terminal engine knows the answers; the core only finds the questions).

Only the search runs on the ingest path, and it must not slow a flood down: a chunk bigger than
``FULL_SCAN`` is searched only at its end, which is where a program that waits for its answer leaves the
question. Queries are read by the core's one grammar (:mod:`.grammar`), as the screen that answers them
reads them: one inside a DCS string is none, and a query cut in two by a read is carried over and found
once it ends.
"""

from __future__ import annotations

from .grammar import BYTES, DCS_OPENER, INERT
from .sequences import CURSOR_REPORT, DA, DSR, STATUS_REPORT

# A CSI that may be a query, read as the grammar does (inert bytes anywhere): at most a lead and one digit,
# so the scan gives up on an SGR at its second parameter byte; _is_query says which it is.
_I = f"{INERT}*+"
_CANDIDATE_FORM = rf"{_I}\[{_I}[?>]?{_I}[0{STATUS_REPORT}{CURSOR_REPORT}]?{_I}[{DSR}{DA}]"
_CANDIDATE = BYTES.compile(_CANDIDATE_FORM)
_CANDIDATE_OR_DCS = BYTES.compile(_CANDIDATE_FORM, f"({DCS_OPENER})")
_QUERIES = {  # (lead, parameters, final) as the grammar reads them
    (b"", str(CURSOR_REPORT).encode(), DSR.encode()), (b"?", str(CURSOR_REPORT).encode(), DSR.encode()),
    (b"", str(STATUS_REPORT).encode(), DSR.encode()),
    (b"", b"", DA.encode()), (b"", b"0", DA.encode()), (b">", b"", DA.encode()), (b">", b"0", DA.encode()),
}
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
        skip = BYTES.past_colours(buf)
        candidates = list(_CANDIDATE_OR_DCS.finditer(buf, skip)) if skip < len(buf) else []
        strings = any(m.group(1) for m in candidates)  # a DCS string: read the exact way, rarely needed
        end = BYTES.unfinished_start(buf, strings=strings)
        self.carry = BYTES.hold(buf[end:])[1] if end < len(buf) else b""
        if strings:
            candidates = list(BYTES.find(_CANDIDATE, buf[:end]))
        return [(len(buf) - m.end(), m.group()) for m in candidates if _is_query(m.group())]


def _is_query(sequence: bytes) -> bool:
    plain = BYTES.inert.sub(b"", sequence)  # a control inside acts and the query still stands, as in tmux
    lead = plain[2:3] if plain[2:3] in (b"?", b">") else b""
    return (lead, plain[2 + len(lead) : -1], plain[-1:]) in _QUERIES
