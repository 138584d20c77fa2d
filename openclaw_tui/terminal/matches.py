"""Searching a session's lines as a person searches a terminal: smart case, plain text or a regular
expression, every match found at once and stepped through from the newest, wrapping around.

Lines are given as a function of their number, so the same search serves the terminal's history, a pipe
session's log and the agent's log view; the lines already searched are kept joined, so each keystroke of a
search as you type costs one regular-expression scan in C, not a Python loop over every line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import NamedTuple


class Match(NamedTuple):
    """Characters ``start`` to ``end`` of line ``line``."""

    line: int
    start: int
    end: int


class SearchError(ValueError):
    """The text is not a valid regular expression (the message says why)."""


def compile_search(text: str, regex: bool = False) -> re.Pattern[str] | None:
    """The pattern for ``text`` (None for no text). Smart case: case is ignored unless ``text`` has a capital."""
    if not text:
        return None
    flags = 0 if any(ch.isupper() for ch in text) else re.IGNORECASE
    try:
        return re.compile(text if regex else re.escape(text), flags)
    except re.error as exc:
        raise SearchError(f"not a regular expression: {exc}") from None


class LineIndex:
    """The text of lines ``0 .. count-1`` joined by newlines, with where each line starts, for one scan.

    Lines below ``stable`` are taken to be final and are joined once; the others are read again at each
    search (a terminal's screen rows, a log's unfinished last line). :meth:`reset` forgets everything (the
    lines were rearranged: a resize, a new session).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._kept: list[str] = []  # the final lines' texts, joined lazily
        self._joined = ""
        self._joined_lines = 0
        self._starts: list[int] = []

    def keep(self, line: Callable[[int], str], stable: int) -> None:
        """Take in the final lines up to ``stable`` not taken yet (joined at the next :meth:`text`): a history
        kept current as lines arrive, so a search never reads the whole of it at once."""
        if stable < len(self._kept):
            self.reset()
        for n in range(len(self._kept), stable):
            self._kept.append(line(n).rstrip())

    def text(self, line: Callable[[int], str], count: int, stable: int) -> tuple[str, list[int]]:
        """The joined text of ``count`` lines (``line(n)`` gives line ``n``) and each line's start in it."""
        stable = min(stable, count)
        self.keep(line, stable)
        if self._joined_lines < len(self._kept):
            self._joined = _join(self._joined, self._joined_lines, self._starts, self._kept[self._joined_lines :])
            self._joined_lines = len(self._kept)
        tail = [line(n).rstrip() for n in range(stable, count)]
        if not tail:
            return self._joined, self._starts
        starts = list(self._starts)
        return _join(self._joined, self._joined_lines, starts, tail), starts


def _join(head: str, head_lines: int, starts: list[int], texts: list[str]) -> str:
    """``texts`` joined onto ``head`` (which holds ``head_lines`` lines), their starts appended to ``starts``."""
    pos = len(head) + (1 if head_lines else 0)
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    return "\n".join([head, *texts]) if head_lines else "\n".join(texts)


def find_all(pattern: re.Pattern[str], text: str, starts: list[int]) -> list[Match]:
    """Every match of ``pattern`` in ``text`` (lines joined as :class:`LineIndex` joins them), top to bottom.
    A match never spans lines, and an empty one is no match."""
    found = []
    for m in pattern.finditer(text):
        begin, end = m.span()
        if end <= begin or "\n" in m.group():
            continue
        line = bisect_right(starts, begin) - 1
        found.append(Match(line, begin - starts[line], end - starts[line]))
    return found


class Found:
    """The matches of one search and which one is current, numbered from the newest (1) up, as a search
    back through a terminal's history meets them."""

    def __init__(self, matches: list[Match], bottom: int) -> None:
        """``bottom``: the last line on view; the current match is the newest one on it or above it."""
        self.matches = matches
        self.index: int | None = None
        if matches:
            above = bisect_right(matches, (bottom, 1 << 30, 0)) - 1
            self.index = above if above >= 0 else len(matches) - 1

    @property
    def current(self) -> Match | None:
        return self.matches[self.index] if self.index is not None else None

    def step(self, older: bool) -> Match | None:
        """The next match back in time (``older``) or forward, wrapping around at either end."""
        if self.index is not None:
            self.index = (self.index + (-1 if older else 1)) % len(self.matches)
        return self.current

    @property
    def label(self) -> str:
        """``3/14``: the current match counted from the newest, and how many there are."""
        if self.index is None:
            return "0/0"
        return f"{len(self.matches) - self.index}/{len(self.matches)}"

    def on_line(self, line: int) -> list[Match]:
        """The matches on ``line``, left to right."""
        lo = bisect_right(self.matches, (line, -1, -1))
        hi = bisect_right(self.matches, (line, 1 << 30, 0))
        return self.matches[lo:hi]
