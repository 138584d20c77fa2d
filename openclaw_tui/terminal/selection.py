"""What a mouse selects in a session's lines: the characters between two points, whole words or whole lines,
and the text that copies.

Points are (line, character) in the lines' text, where a wide character is one character; the views turn a
cell under the pointer into a character with :func:`char_at`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from .emulator import char_width

# Not part of a word, so a double-click on a path or a URL takes all of it but stops at brackets and quotes.
WORD_BREAKS = frozenset(" \t()[]{}<>\"'`,;|")

Point = tuple[int, int]


class Unit(StrEnum):
    """What a selection grows by: a drag selects characters, a double-click words, a triple-click lines."""

    CHAR = "char"
    WORD = "word"
    LINE = "line"


def char_at(text: str, column: int) -> int:
    """The character of ``text`` drawn at cell ``column`` (the right half of a wide one is that character;
    past the end, the end)."""
    cells = 0
    for index, ch in enumerate(text):
        cells += char_width(ch)
        if cells > column:
            return index
    return len(text)


def column_of(text: str, index: int) -> int:
    """The first cell of character ``index`` of ``text``."""
    return sum(char_width(ch) for ch in text[:index])


def word_span(text: str, index: int) -> tuple[int, int]:
    """The word around character ``index`` (a run of blanks, if it is on one; one character, if a bracket)."""
    if index >= len(text):
        return len(text), len(text)
    if text[index].isspace():
        same: Callable[[str], bool] = str.isspace
    elif text[index] in WORD_BREAKS:
        return index, index + 1
    else:
        def same(ch: str) -> bool:
            return ch not in WORD_BREAKS
    start, end = index, index + 1
    while start > 0 and same(text[start - 1]):
        start -= 1
    while end < len(text) and same(text[end]):
        end += 1
    return start, end


@dataclass
class Selection:
    """From ``anchor`` (where the button went down) to ``head`` (where the pointer is), both inclusive."""

    anchor: Point
    head: Point
    unit: Unit = Unit.CHAR

    def bounds(self, line: Callable[[int], str]) -> tuple[Point, Point]:
        """First point and the point just after the last, grown to whole words or lines."""
        first, last = sorted((self.anchor, self.head))
        if self.unit is Unit.LINE:
            return (first[0], 0), (last[0], len(line(last[0]).rstrip()))
        if self.unit is Unit.WORD:
            return (first[0], word_span(line(first[0]), first[1])[0]), (last[0], word_span(line(last[0]), last[1])[1])
        return first, (last[0], last[1] + 1)

    def span(self, n: int, line: Callable[[int], str]) -> tuple[int, int] | None:
        """The characters selected on line ``n`` (``end`` may pass the text: the rest of the line), or None."""
        (top, start), (bottom, end) = self.bounds(line)
        if not top <= n <= bottom:
            return None
        return (start if n == top else 0), (end if n == bottom else 1 << 30)

    def text(self, line: Callable[[int], str], joins: Callable[[int], bool] | None = None) -> str:
        """The selected text: each line's trailing blanks dropped, lines joined by newlines, except a line the
        program's output ran on from (``joins(n)``: line ``n`` wrapped into the next), as tmux copies it."""
        (top, start), (bottom, end) = self.bounds(line)
        out = []
        for n in range(top, bottom + 1):
            text = line(n)
            piece = text[(start if n == top else 0) : (end if n == bottom else len(text))]
            wrapped = joins is not None and n < bottom and joins(n)
            out.append(piece if wrapped else piece.rstrip())
            out.append("" if wrapped else "\n")
        return "".join(out[:-1])
