"""Answers to a PTY program's terminal queries, worked out from the session's own output.

The host answers every query the core finds (:mod:`openclaw_tui.core.vt.queries`), whether or not a dashboard
is watching; a program that floods cursor queries gets the previous answer past a time budget.
"""

from __future__ import annotations

import time

from openclaw_tui.core.vt import sequences as vt

from .emulator import TerminalScreen
from .ondemand import screen_at
from .source import ScreenSource

WINDOW = 64 * 1024  # most output parsed to find the cursor for one query
_CURSOR_QUERY_END = f"{vt.CURSOR_REPORT}{vt.DSR}".encode()  # ESC [ 6 n and ESC [ ? 6 n
BUDGET_S = 0.05  # parse time allowed per second before cursor answers go stale


class TerminalReplies:
    """The terminal's side of one session's queries: ``replies(end, query)`` is what to write back."""

    def __init__(self, source: ScreenSource) -> None:
        self.source = source
        self._last: dict[bytes, bytes] = {}  # the latest cursor answer per query, for when over budget
        self._spent = 0.0
        self._second = 0.0

    def __call__(self, end: int, query: bytes) -> bytes:
        """The reply to ``query``, which ends at ring offset ``end``."""
        if not query.endswith(_CURSOR_QUERY_END):
            return _answer(TerminalScreen(1, 1), query)
        now = time.monotonic()
        if now - self._second >= 1.0:
            self._second, self._spent = now, 0.0
        if query in self._last and self._spent > BUDGET_S:
            return self._last[query]
        self._last[query] = reply = _answer(screen_at(self.source, end - len(query), WINDOW), query)
        self._spent += time.monotonic() - now
        return reply


def _answer(screen: TerminalScreen, query: bytes) -> bytes:
    out: list[bytes] = []
    screen.on_reply = out.append
    screen.feed(query)
    return b"".join(out)
