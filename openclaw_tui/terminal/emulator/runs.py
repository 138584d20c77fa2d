"""Reading a grid out: plain rows for tools, styled runs for painters."""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter, itemgetter

from .cells import Cell, line_cells
from .grid import Grid
from .style import Style

Run = tuple[str, Style]
_style_of = attrgetter("style")
_data_of = itemgetter(0)


def text_rows(grid: Grid) -> list[str]:
    """One string per row, padded to the width; a wide character appears once."""
    return ["".join(map(_data_of, grid.row_cells(y))) for y in range(grid.height)]


def history_runs(grid: Grid, n: int) -> list[Run]:
    """History row ``n`` (0: the oldest kept) as runs of equal style, at the grid's width."""
    return _group(line_cells(grid.history[n], grid.width))


def row_runs(grid: Grid, y: int, cursor_x: int | None = None) -> list[Run]:
    """Row ``y`` as runs of equal style; the cell at ``cursor_x`` (a wide character's both halves) is its
    own run, in reverse video."""
    cells = grid.row_cells(y)
    if cursor_x is None:
        return _group(cells)
    if cursor_x > 0 and cells[cursor_x].data == "":
        cursor_x -= 1
    end = cursor_x + (2 if cursor_x + 1 < len(cells) and cells[cursor_x + 1].data == "" else 1)
    cell = cells[cursor_x]
    cursor_run = ("".join(map(_data_of, cells[cursor_x:end])), cell.style.but(reverse=not cell.style.reverse))
    return _group(cells[:cursor_x]) + [cursor_run] + _group(cells[end:])


def _group(cells: list[Cell]) -> list[Run]:
    if not cells:
        return []
    return [("".join(map(_data_of, group)), style) for style, group in groupby(cells, _style_of)]
