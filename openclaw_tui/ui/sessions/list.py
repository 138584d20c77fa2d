"""The session list: one row per session, newest first, waiting ones marked and coloured.

A ``DataTable`` keyed by session id. Rows are rebuilt only when the set or order of visible sessions
changes (a session added, removed, or a filter change); otherwise only cells whose text or style changed
are updated, so the once-a-second runtime tick stays cheap. Moving the cursor posts :class:`Selected`.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from ...core.session import Session
from .rows import COLUMNS, RowFilter, row_cells

WIDTHS = {"mark": 1, "id": 20, "name": 22, "agent": 10, "state": 18, "runtime": 7, "end": 9, "io": 4, "where": 8}


class SessionList(DataTable[Text]):
    """The sessions that pass the current :class:`RowFilter`."""

    class Selected(Message):
        """The highlighted session changed (``session_id`` None when the list is empty)."""

        def __init__(self, session_id: str | None) -> None:
            super().__init__()
            self.session_id = session_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._ids: list[str] = []
        self._cells: dict[tuple[str, str], tuple[str, str]] = {}
        self._selected: str | None = None

    def on_mount(self) -> None:
        for key, label in COLUMNS:
            self.add_column(label, key=key, width=WIDTHS[key])

    @property
    def selected_id(self) -> str | None:
        return self._selected

    def show(self, sessions: list[Session], row_filter: RowFilter, pinned: str | None = None) -> None:
        """Show ``sessions`` (already newest first) that ``row_filter`` keeps, and ``pinned`` in any case."""
        visible = [s for s in sessions if row_filter.keeps(s) or s.id == pinned]
        ids = [s.id for s in visible]
        if ids != self._ids:
            self._rebuild(visible)
        else:
            for session in visible:
                for key, cell in row_cells(session).items():
                    sig = (cell.plain, str(cell.style))
                    if self._cells.get((session.id, key)) != sig:
                        self._cells[(session.id, key)] = sig
                        self.update_cell(session.id, key, cell)
        self._announce()

    def _rebuild(self, visible: list[Session]) -> None:
        keep = self._selected
        self.clear()
        self._cells.clear()
        for session in visible:
            cells = row_cells(session)
            for key, cell in cells.items():
                self._cells[(session.id, key)] = (cell.plain, str(cell.style))
            self.add_row(*(cells[key] for key, _ in COLUMNS), key=session.id)
        self._ids = [s.id for s in visible]
        if keep in self._ids:
            self.move_cursor(row=self._ids.index(keep), animate=False)
        elif self._ids:
            self.move_cursor(row=0, animate=False)

    def select(self, session_id: str) -> bool:
        """Move the cursor to ``session_id`` if it is visible."""
        if session_id not in self._ids:
            return False
        self.move_cursor(row=self._ids.index(session_id), animate=False)
        self._announce()
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._announce()

    def _announce(self) -> None:
        current = self._ids[self.cursor_row] if self._ids and 0 <= self.cursor_row < len(self._ids) else None
        if current != self._selected:
            self._selected = current
            # Sent as the list's own: a message created while the sessions pane handles a filter change
            # would name the pane as its sender, and Textual stops bubbling at the sender, so the
            # workspace (and the view) would never hear of the new selection.
            self.post_message(self.Selected(current).set_sender(self))
