"""Moving the cursor from the wrap point, and tab stops.

``CSI Z`` (back tab), which pyte lacks, lives here. Mixed into :class:`TerminalScreen`.
"""

from __future__ import annotations

from typing import Any


class RowOps:
    """Cursor moves along and across rows."""

    buffer: Any
    cursor: Any
    columns: int
    lines: int
    margins: Any

    # -- moves from the wrap point ---------------------------------------------------------------

    # After the last column is written the cursor waits past it (x == columns) until the next character
    # wraps. tmux, the reference here, treats moves from that point as below: up/down land on the last
    # column, while backspace/left count from the wrap point itself (stock pyte took one step extra).

    def cursor_up(self, count: int | None = None) -> None:
        top = self.margins.top if self.margins and self.cursor.y >= self.margins.top else 0
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = max(self.cursor.y - (count or 1), top)

    def cursor_down(self, count: int | None = None) -> None:
        bottom = (
            self.margins.bottom if self.margins and self.cursor.y <= self.margins.bottom else self.lines - 1
        )
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = min(self.cursor.y + (count or 1), bottom)

    def cursor_back(self, count: int | None = None) -> None:
        self.cursor.x = max(0, min(self.cursor.x - (count or 1), self.columns - 1))

    def backspace(self) -> None:
        self.cursor_back(1)

    # -- tabs ------------------------------------------------------------------------------------

    def tab(self, count: int = 1) -> None:
        x = self.cursor.x
        for _ in range(max(count, 1)):
            x = min((stop for stop in self.tabstops if stop > x), default=self.columns - 1)
        self.cursor.x = min(x, self.columns - 1)

    def back_tab(self, count: int = 1) -> None:
        """``CSI Z`` (CBT): back to the previous tab stop, ``count`` times."""
        x = min(self.cursor.x, self.columns - 1)
        for _ in range(max(count, 1)):
            x = max((stop for stop in self.tabstops if stop < x), default=0)
        self.cursor.x = x
