"""Screen cells and character widths: a character with its zero-width marks and its :class:`Style`, wide ones
filling two cells.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pyte.charsets import VT100_MAP
from wcwidth import wcwidth

from .style import DEFAULT_STYLE, Style

ZWJ = "\u200d"
STUB = ""  # data of the right half of a wide character


class Cell(NamedTuple):
    """One screen cell: ``data`` is the character(s) shown, ``""`` for a wide character's stub."""

    data: str
    style: Style


DEFAULT_CELL = Cell(" ", DEFAULT_STYLE)


@lru_cache(maxsize=8192)
def char_width(char: str) -> int:
    """Cells taken by one code point: 0 (combining / zero-width), 1 or 2."""
    width = wcwidth(char)
    return 1 if width < 0 else width


class Row(dict[int, Cell]):
    """One screen row: column -> cell, sparse; a missing column is a default blank.

    Two marks tmux keeps per row decide how the row is rewrapped when the width changes: ``used``, the
    columns up to the last cell a program wrote there (erasing never lowers it), and ``wrapped``, set when
    the text ran on into the next row by autowrap. Both stay at their class defaults on most rows.
    """

    used = 0
    wrapped = False

    def __missing__(self, x: int) -> Cell:
        return DEFAULT_CELL


def line_cells(line: Row, width: int) -> list[Cell]:
    """The full width of one row, on the screen or in the history, as cells (a stub has empty ``data``)."""
    if not line:
        return [DEFAULT_CELL] * width
    get = line.get
    return [get(x, DEFAULT_CELL) for x in range(width)]


def blank_row(fill: Cell, columns: int) -> Row:
    """A row of ``fill`` blanks: empty when the blank is the default one (the common case)."""
    row = Row()
    if fill is not DEFAULT_CELL:
        row.update(dict.fromkeys(range(columns), fill))
    return row


def new_grid(rows: int) -> list[Row]:
    """A blank grid: one row object per screen row, so scrolling is a list splice, not a dict shuffle."""
    return [Row() for _ in range(rows)]


class CellCache(dict[str, Cell]):
    """Cells of one style keyed by character, created on first use."""

    __slots__ = ("style",)

    def __init__(self, style: Style) -> None:
        super().__init__()
        self.style = style

    def __missing__(self, char: str) -> Cell:
        cell = self[char] = Cell(char, self.style)
        return cell


_CELL_CACHES: dict[int, CellCache] = {}  # keyed by id(style): styles are interned, and int keys hash fast


def cells_of(style: Style) -> CellCache:
    """The shared cell cache for ``style`` (bounded: dropped wholesale if programs use too many styles)."""
    cache = _CELL_CACHES.get(id(style))
    if cache is None or cache.style is not style:
        if len(_CELL_CACHES) > 2048:
            _CELL_CACHES.clear()
        cache = _CELL_CACHES[id(style)] = CellCache(style)
    elif len(cache) > 4096:
        cache.clear()
    return cache


def blank_of(style: Style) -> Cell:
    """The cell an erase leaves behind: a space keeping only the current background (as xterm and tmux do)."""
    if style.bg is None:
        return DEFAULT_CELL
    return cells_of(Style.of(bg=style.bg))[" "]


# DEC special graphics (``ESC ( 0``): line drawing used by ncurses for boxes when the terminal is not
# trusted with UTF-8 box characters. Only 0x5f-0x7e differ from ASCII.
DEC_GRAPHICS = {code: VT100_MAP[code] for code in range(0x5F, 0x7F)}
DEC_GRAPHICS[0x5F] = " "
