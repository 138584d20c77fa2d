"""Changing a screen's size the way tmux does, so a screen that lived through a resize shows what tmux shows.
"""

from __future__ import annotations

from .cells import DEFAULT_CELL, STUB, Cell, Row, char_width

END = -1  # a cursor at or past the end of its line's text: it stays at the end of the rewrapped text


def _cell_width(cell: Cell) -> int:
    if cell.data == STUB:
        return 0
    return char_width(cell.data[0]) if cell.data else 1


class Lines:
    """History rows then visible rows, with the cursor at absolute row ``cy``.

    Attributes:
        rows: history + visible rows (``None`` for a row joined into another during a rewrap).
        hsize: how many of ``rows`` are history.
        hscrolled: history rows that scrolling put there and a taller screen may pull back.
        history_on: whether rows leaving the top go to the history (the main screen) or are deleted.
    """

    def __init__(self, history: list[Row], visible: list[Row], hscrolled: int, on: bool,
                 cx: int, cy: int) -> None:
        self.rows: list[Row | None] = [*history, *visible]
        self.hsize = len(history)
        self.sy = len(visible)
        self.hscrolled = min(hscrolled, self.hsize)
        self.history_on = on
        self.cx = cx
        self.cy = self.hsize + cy

    @property
    def history(self) -> list[Row]:
        return self.rows[: self.hsize]  # type: ignore[return-value]

    @property
    def visible(self) -> list[Row]:
        return self.rows[self.hsize :]  # type: ignore[return-value]

    @property
    def cursor(self) -> tuple[int, int]:
        """The cursor on the visible rows (home if its row went into the history)."""
        if self.cy >= self.hsize:
            return self.cx, self.cy - self.hsize
        return 0, 0

    # -- tmux's screen_resize_cursor --------------------------------------------------------------

    def resize(self, old_cols: int, cols: int, rows: int, reflow: bool) -> None:
        """Bring the rows to ``cols`` x ``rows``; ``reflow`` rewraps lines when the width changes."""
        if rows != self.sy:
            self._resize_rows(rows)
        if reflow and cols != old_cols:
            wx, wy = self._wrap_position()
            self._reflow(cols)
            self._unwrap_position(wx, wy)

    def _resize_rows(self, rows: int) -> None:
        old = self.sy
        if rows < old:
            needed = old - rows
            below = min(old - 1 - (self.cy - self.hsize), needed)
            if below > 0:  # the rows under the cursor go first
                del self.rows[self.hsize + old - below : self.hsize + old]
                needed -= below
            if self.history_on:
                self.hsize += needed
                self.hscrolled += needed
            else:
                top = min(self.cy - self.hsize, needed)
                if top > 0:
                    del self.rows[self.hsize : self.hsize + top]
                    self.cy -= top
            del self.rows[self.hsize + rows :]
        else:
            needed = rows - old
            pulled = min(self.hscrolled, needed) if self.history_on else 0
            self.hscrolled -= pulled
            self.hsize -= pulled
            self.rows.extend(Row() for _ in range(self.hsize + rows - len(self.rows)))
        self.sy = rows

    # -- tmux's grid_wrap_position / grid_unwrap_position -------------------------------------------

    def _wrap_position(self) -> tuple[int, int]:
        """The cursor as (offset in its unwrapped line, which unwrapped line)."""
        ax = ay = 0
        for row in self.rows[: self.cy]:
            if row.wrapped:
                ax += row.used
            else:
                ax = 0
                ay += 1
        current = self.rows[self.cy]
        if self.cx >= current.used:
            return END, ay
        return ax + self.cx, ay

    def _unwrap_position(self, wx: int, wy: int) -> None:
        rows = self.rows
        last = len(rows) - 1
        yy = ay = 0
        while yy < last and ay != wy:
            if not rows[yy].wrapped:
                ay += 1
            yy += 1
        if wx == END:
            while yy < last and rows[yy].wrapped:
                yy += 1
            wx = rows[yy].used
        else:
            while yy < last and rows[yy].wrapped:
                used = rows[yy].used
                if wx < used:
                    break
                wx -= used
                yy += 1
        self.cx, self.cy = wx, yy

    # -- tmux's grid_reflow -------------------------------------------------------------------------

    def _reflow(self, sx: int) -> None:
        target: list[Row] = []
        rows = self.rows
        yy = 0
        while yy < len(rows):
            row = rows[yy]
            if row is None:
                yy += 1
                continue
            used = row.used
            widths = [_cell_width(row.get(x, DEFAULT_CELL)) for x in range(used)]
            width = sum(widths)
            at, total = used, 0
            for x, w in enumerate(widths):
                if total + w > sx:
                    at = x
                    break
                total += w
            if width == sx:
                target.append(row)
            elif width > sx:
                self._split(target, yy, sx, at, used)
            elif row.wrapped:
                self._join(target, yy, sx, width, already=False)
            else:
                target.append(row)
            rows[yy] = None
            yy += 1
        target.extend(Row() for _ in range(self.sy - len(target)))
        self.rows = list(target)
        self.hsize = len(target) - self.sy
        self.hscrolled = min(self.hscrolled, self.hsize)

    def _join(self, target: list[Row], yy: int, sx: int, width: int, already: bool) -> None:
        """Pull the text of the rows after ``yy`` up onto the last target row while it fits."""
        rows = self.rows
        if not already:
            target.append(rows[yy])
            rows[yy] = None
        to = len(target) - 1
        line = target[to]
        at = line.used
        lines = 0
        wrapped = True
        source: Row | None = None  # the last row taken from, even if only in part
        want = 0
        while yy + 1 + lines < len(rows):
            current = rows[yy + 1 + lines]
            if current is None:
                break
            if not current.wrapped:
                wrapped = False
            if current.used == 0:
                if not wrapped:
                    break
                lines += 1
                continue
            if width + _cell_width(current.get(0, DEFAULT_CELL)) > sx:
                break
            source = current
            at, want, width = _copy_fitting(line, at, current, width, sx)
            lines += 1
            if not wrapped or want != current.used or width == sx:
                break
        line.used = max(line.used, at)
        if lines:
            self._joined(line, yy, to, lines, source, want, wrapped)

    def _joined(self, line: Row, yy: int, to: int, lines: int, source: Row | None, want: int,
                wrapped: bool) -> None:
        """After a join took ``lines`` rows (the last, ``source``, up to cell ``want``): what is left of that
        row moves to its start, the rows taken whole are gone, and the history's scrolled count follows."""
        rows = self.rows
        left = source.used - want if source is not None else 0
        if left:
            assert source is not None
            moved = Row((x - want, source.get(x, DEFAULT_CELL)) for x in range(want, want + left))
            moved.used, moved.wrapped = left, source.wrapped
            rows[yy + lines] = moved
            lines -= 1
        elif not wrapped:
            line.wrapped = False
        for i in range(yy + 1, yy + 1 + lines):
            rows[i] = None
        if self.hscrolled > to + lines:
            self.hscrolled -= lines
        elif self.hscrolled > to:
            self.hscrolled = to

    def _split(self, target: list[Row], yy: int, sx: int, at: int, used: int) -> None:
        """Cut row ``yy`` (wider than ``sx``) into rows of at most ``sx``; the last may join what follows."""
        row = self.rows[yy]
        assert row is not None
        was_wrapped = row.wrapped
        first = Row((x, row[x]) for x in range(at) if x in row)
        first.used, first.wrapped = at, True
        target.append(first)
        line = Row()
        target.append(line)
        added = 1
        width = xx = 0
        for x in range(at, used):
            cell = row.get(x, DEFAULT_CELL)
            w = _cell_width(cell)
            if width + w > sx:
                line.wrapped = True
                line = Row()
                target.append(line)
                added += 1
                width = xx = 0
            width += w
            line[xx] = cell
            xx += 1
            line.used = xx
        if was_wrapped:
            line.wrapped = True
        if yy <= self.hscrolled:
            self.hscrolled += added
        self.rows[yy] = None
        if width < sx and was_wrapped:
            self._join(target, yy, sx, width, already=True)


def _copy_fitting(line: Row, at: int, source: Row, width: int, sx: int) -> tuple[int, int, int]:
    """Copy ``source``'s cells onto ``line`` from column ``at`` while they fit in ``sx`` columns; returns
    the next column, how many cells were taken, and the width reached."""
    taken = 0
    while taken < source.used:
        cell = source.get(taken, DEFAULT_CELL)
        if width + _cell_width(cell) > sx:
            break
        width += _cell_width(cell)
        line[at] = cell
        at += 1
        taken += 1
    return at, taken, width
