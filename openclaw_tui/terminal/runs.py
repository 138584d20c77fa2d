"""Reading the screen out: plain rows for tools, styled runs for painters.

A painter draws a row as a few ``(text, Style)`` runs rather than one object per cell, which PERF.md
measured at 14x cheaper per frame. Runs cover the full width (trailing blanks included), wide
characters appear once in the text (their stub cell adds nothing), and with ``show_cursor`` the cursor
cell is a run of its own with reverse video toggled, so a painter needs no cursor logic of its own.
"""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from .cells import DEFAULT_CELL
from .style import DEFAULT_STYLE, Style

Run = tuple[str, Style]
_style_of = attrgetter("style")
_data_of = itemgetter(0)


class RunsMixin:
    """Read access to the grid of a :class:`TerminalScreen`."""

    buffer: Any
    columns: int
    lines: int

    if TYPE_CHECKING:

        @property
        def cursor_xy(self) -> tuple[int, int]: ...

        @property
        def cursor_visible(self) -> bool: ...

    def row_cells(self, y: int) -> list[Any]:
        """The full width of row ``y`` as cells (a wide character's stub has empty ``data``)."""
        line = self.buffer[y]
        if not line:
            return [DEFAULT_CELL] * self.columns
        get = line.get
        return [get(x, DEFAULT_CELL) for x in range(self.columns)]

    def display(self) -> list[str]:
        """One string per row, padded to the width; a wide character appears once."""
        return ["".join(map(_data_of, self.row_cells(y))) for y in range(self.lines)]

    def row_runs(self, y: int, show_cursor: bool = True) -> list[Run]:
        """Row ``y`` as runs of equal style; with ``show_cursor`` the visible cursor cell is its own run."""
        cells = self.row_cells(y)
        cursor_x = -1
        if show_cursor and self.cursor_visible:
            x, cursor_y = self.cursor_xy
            if cursor_y == y:
                cursor_x = x - 1 if x > 0 and cells[x].data == "" else x
        if cursor_x < 0:
            return _group(cells)
        end = cursor_x + (2 if cursor_x + 1 < len(cells) and cells[cursor_x + 1].data == "" else 1)
        cell = cells[cursor_x]
        cursor_run = (
            "".join(map(_data_of, cells[cursor_x:end])),
            cell.style.but(reverse=not cell.style.reverse),
        )
        return _group(cells[:cursor_x]) + [cursor_run] + _group(cells[end:])


def _group(cells: list[Any]) -> list[Run]:
    if not cells:
        return []
    return [("".join(map(_data_of, group)), style) for style, group in groupby(cells, _style_of)]


__all__ = ["DEFAULT_STYLE", "Run", "RunsMixin"]
