"""How tiles share the workspace: pure, so the grid and the tests agree on one arrangement.

Tiles stand side by side while each keeps at least :data:`MIN_COLUMNS` columns (a PTY is 120 wide, and most
programs expect 80); otherwise they stack, two to a row when that still leaves each 80 columns (a 2×2 grid
of four on a 160-column terminal).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TILES = 4
MIN_COLUMNS = 80


@dataclass(frozen=True)
class Arrangement:
    """``columns`` × ``rows`` cells, filled row by row; the last tile spans the row when it is alone in it."""

    columns: int
    rows: int
    count: int

    @property
    def last_spans(self) -> int:
        """Columns the last tile takes (more than one when its row is not full)."""
        return self.columns * self.rows - self.count + 1


def arrange(count: int, width: int) -> Arrangement:
    """The arrangement of ``count`` tiles (1 to :data:`MAX_TILES`) in ``width`` columns."""
    count = max(1, min(count, MAX_TILES))
    columns = max(1, min(count, width // MIN_COLUMNS))
    rows = -(-count // columns)
    return Arrangement(columns, rows, count)
