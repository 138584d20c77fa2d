"""The session list: one row per session, newest first, waiting ones marked and coloured.

Drawn with the Line API, so only visible rows cost anything; the cursor belongs to a session id and moving it
posts :class:`Selected`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from openclaw_tui.remote.mirror import SessionView

from .columns import Layout, fit
from .rows import ALL_AGENTS, ALL_NODES, CpuWarning, RowFilter, ordered, prompt_of, row_cells, row_key

HEADER_ROWS = 1
TILE_MARK = "●"  # in the row's margin: marked to be tiled (space marks, v tiles)
TILE_MARK_STYLE = Style(color="#5fafd7", bold=True)


class SessionList(ScrollView, can_focus=True):
    """The sessions that pass the current :class:`RowFilter` (see :meth:`show`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"session-list--header", "session-list--cursor", "session-list--empty"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous", id="list-up", show=False),
        Binding("down", "move(1)", "Next", id="list-down", show=False),
        Binding("ctrl+pageup", "page(-1)", "Page up", id="list-page-up", show=False),  # pageup: the view's history
        Binding("ctrl+pagedown", "page(1)", "Page down", id="list-page-down", show=False),
        Binding("home", "first", "First session", id="list-first", show=False),
        Binding("end", "last", "Last session", id="list-last", show=False),
    ]

    class Selected(Message):
        """The highlighted session changed (``session_id`` None when the list is empty)."""

        def __init__(self, session_id: str | None) -> None:
            super().__init__()
            self.session_id = session_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._sessions: list[SessionView] = []
        self._ids: list[str] = []
        self._cursor = 0
        self._selected: str | None = None
        self._filter = RowFilter()
        self._layout: Layout = fit(80)
        self._laid_out_for: tuple[int, int, int | None, int | None, bool, int | None, bool] = (
            80, 0, None, None, False, None, False)
        self.figures = False
        """The dashboard shows the sessions' figures: the cpu and mem columns (the app sets it)."""
        self.cpu_warning = CpuWarning()
        self._hot: set[str] = set()  # the sessions whose CPU shows in red
        self._node_states: Mapping[str, str | None] = {}  # node -> why it does not answer (None: it does)
        self._node_width: int | None = None  # the longest node name; None: no nodes, no node column
        self._id_width = 0  # the longest id listed: the id column is no wider
        self._prompt_width: int | None = None  # the longest prompt of a waiting session listed (None: none)
        self._muted = False  # a session listed is muted: the mute column shows
        self._name_width: int | None = None  # the longest name listed, while a prompt column needs room
        self._painted: list[tuple[object, ...]] = []  # what the visible rows showed when last drawn
        self._styles: tuple[Style, Style, Style, Style] | None = None
        self._marked: frozenset[str] = frozenset()

    # -- what is listed -------------------------------------------------------------------------
    @property
    def ids(self) -> list[str]:
        """The ids listed, top to bottom."""
        return list(self._ids)

    @property
    def selected_id(self) -> str | None:
        return self._selected

    def show(self, sessions: Sequence[SessionView], row_filter: RowFilter, pinned: str | None = None,
             nodes: Mapping[str, str | None] | None = None) -> None:
        """Show ``sessions`` (already newest first) that ``row_filter`` keeps, and ``pinned`` in any case;
        ``nodes``: the configured nodes, each with why it does not answer (None: it does)."""
        if nodes is not None and nodes != self._node_states:
            self._node_states = dict(nodes)
            self._node_width = max(map(len, self._node_states), default=0) or None
            self.refresh()
        visible = ordered([s for s in sessions if row_filter.keeps(s) or s.id == pinned], row_filter.order)
        self._hot = self.cpu_warning.hot(visible, time.monotonic()) if self.figures else set()
        ids = [s.id for s in visible]
        refilled = ids != self._ids or row_filter != self._filter  # an empty list's message names the filter
        self._filter = row_filter
        self._sessions = visible
        if refilled:
            self._ids = ids
            self._id_width = max(map(len, ids), default=0)
            self._cursor = ids.index(self._selected) if self._selected in ids else 0
            self.virtual_size = self._virtual_size()
            self._scroll_to_cursor()
            self._painted = []
            self.refresh()
        prompts = [cell_len(p) for s in visible if (p := prompt_of(s))]
        marks = (max(prompts) if prompts else None, any(s.muted for s in visible),
                 max((cell_len(s.name) for s in visible), default=None) if prompts else None)
        if marks != (self._prompt_width, self._muted, self._name_width):  # columns come, go or move
            self._prompt_width, self._muted, self._name_width = marks
            self._painted = []
            self.refresh()
        rows = self._visible_rows()
        if rows != self._painted:  # the tick changes runtimes: repaint just the rows that changed
            changed = [y for y, row in enumerate(rows) if y >= len(self._painted) or self._painted[y] != row]
            if len(rows) != len(self._painted) or len(changed) > len(rows) // 2:
                self.refresh()
            else:
                self.refresh(*(Region(0, y + HEADER_ROWS, self.size.width, 1) for y in changed))
            self._painted = rows
        self._announce()

    def show_marks(self, marked: Sequence[str]) -> None:
        """Mark the rows of ``marked`` (the sessions ``v`` tiles) in their margin."""
        if frozenset(marked) != self._marked:
            self._marked = frozenset(marked)
            self._painted = []
            self.refresh()

    def rows_wanted(self) -> int:
        """Rows the list needs to show every session (or, empty, its message saying why)."""
        return len(self._ids) or len(self.empty_message())

    def select(self, session_id: str) -> bool:
        """Move the cursor to ``session_id`` if it is listed."""
        if session_id not in self._ids:
            return False
        self._move_to(self._ids.index(session_id))
        return True

    # -- keys and mouse -------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        self._move_to(self._cursor + step)

    def action_page(self, direction: int) -> None:
        self._move_to(self._cursor + direction * max(1, self._rows_on_screen() - 1))

    def action_first(self) -> None:
        self._move_to(0)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A scroll view's own pageup/pagedown would scroll the list: those keys scroll the session's history.
        return action not in ("page_up", "page_down")

    def action_last(self) -> None:
        self._move_to(len(self._ids) - 1)

    def on_click(self, event: events.Click) -> None:
        row = event.y - HEADER_ROWS
        if row >= 0:
            self._move_to(self.scroll_offset.y + row)

    def _move_to(self, index: int) -> None:
        if not self._ids:
            return
        index = max(0, min(index, len(self._ids) - 1))
        if index != self._cursor:
            self._cursor = index
            self.refresh()
        self._scroll_to_cursor()
        self._announce()

    def _rows_on_screen(self) -> int:
        return max(1, self.scrollable_content_region.height - HEADER_ROWS)

    def _scroll_to_cursor(self) -> None:
        top, rows = self.scroll_offset.y, self._rows_on_screen()
        if self._cursor < top:
            self.scroll_to(y=self._cursor, animate=False, immediate=True)
        elif self._cursor >= top + rows:
            self.scroll_to(y=self._cursor - rows + 1, animate=False, immediate=True)

    def _announce(self) -> None:
        current = self._ids[self._cursor] if self._ids else None
        if current != self._selected:
            self._selected = current
            # Sent as the list's own: a message created while the sessions pane handles a filter change
            # would name the pane as its sender, and Textual stops bubbling at the sender, so the
            # workspace (and the view) would never hear of the new selection.
            self.post_message(self.Selected(current).set_sender(self))

    # -- drawing --------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = self._virtual_size()
        self._scroll_to_cursor()
        self.refresh()

    def _virtual_size(self) -> Size:
        return Size(self.scrollable_content_region.width, self.rows_wanted() + HEADER_ROWS)

    def _visible_rows(self) -> list[tuple[object, ...]]:
        top = self.scroll_offset.y
        return [self._row_key(i) for i in range(top, min(len(self._sessions), top + self._rows_on_screen()))]

    def _row_key(self, index: int) -> tuple[object, ...]:
        session = self._sessions[index]
        return index == self._cursor, session.id in self._marked, row_key(session, self._unreachable(session),
                                                                             session.id in self._hot)

    def _unreachable(self, session: SessionView) -> bool:
        return session.node is not None and self._node_states.get(session.node) is not None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None

    def _row_styles(self) -> tuple[Style, Style, Style, Style]:
        """Base, header, cursor and empty-message styles; looked up once per style change, not per line."""
        if self._styles is None:
            base = self.rich_style
            self._styles = (base, self.get_component_rich_style("session-list--header"),
                            base + self.get_component_rich_style("session-list--cursor"),
                            base + self.get_component_rich_style("session-list--empty"))
        return self._styles

    def on_focus(self) -> None:
        self._styles = None  # the cursor's colour follows the focus

    def on_blur(self) -> None:
        self._styles = None

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        wanted = (width, self._id_width, self._node_width, self._prompt_width, self._muted, self._name_width,
                  self.figures)
        if wanted != self._laid_out_for:  # the scrollbar comes and goes with the rows
            self._layout, self._laid_out_for = fit(*wanted), wanted
        base, header, cursor, empty = self._row_styles()
        if y < HEADER_ROWS:
            return self._strip(self._header_cells(), header, width)
        index = self.scroll_offset.y + y - HEADER_ROWS
        if not self._sessions:
            return self._empty_line(y - HEADER_ROWS, width, base, empty)
        if index >= len(self._sessions):
            return Strip.blank(width, base)
        session = self._sessions[index]
        cells = row_cells(session, self._unreachable(session), session.id in self._hot)
        return self._strip(cells, cursor if index == self._cursor else base, width, session.id in self._marked)

    def _header_cells(self) -> dict[str, Text]:
        return {c.key: Text(c.label) for c in self._layout.columns}

    def _strip(self, cells: dict[str, Text], row_style: Style, width: int, marked: bool = False) -> Strip:
        """One row: each cell's text in its style, followed by its padding and the gap.

        Blanks never lead a run of text: an SVG renderer (the README's screenshots) drops the spaces that
        start a text element, which moved the header's labels and right-aligned cells off their columns.
        So blanks before text (the row's margin, an empty cell, a right-aligned cell's padding) are a
        segment of their own, in a style that shows only the row's background, as a space shows anyway.
        """
        blank = Style(bgcolor=row_style.bgcolor)
        gap = " " * self._layout.gap
        segments = [Segment(TILE_MARK, row_style + TILE_MARK_STYLE) if marked else Segment(" ", blank)]
        for n, column in enumerate(self._layout.columns):
            cell = cells.get(column.key) or Text()
            text = cell.plain
            if cell_len(text) > column.width:
                text = set_cell_size(text, column.width - 1) + "…"
            elif column.justify == "right":
                text = " " * (column.width - cell_len(text)) + text
            after = "" if n + 1 == len(self._layout.columns) else gap
            text = set_cell_size(text, column.width)
            shown = text.lstrip(" ")
            if not shown:
                segments.append(Segment(text + after, blank))
                continue
            if len(shown) < len(text):
                segments.append(Segment(" " * (len(text) - len(shown)), blank))
            style = row_style + _style(cell)
            if style.bgcolor == row_style.bgcolor:  # the gap trails the cell's text: an SVG's text then reads
                segments.append(Segment(shown + after, style))  # "◆  deft-delta", not "◆deft-delta"
            else:  # a cell of its own colour ends where the column does
                segments.append(Segment(shown, style))
                segments.append(Segment(after, blank))
        return Strip(segments).adjust_cell_length(width, row_style)

    def _empty_line(self, row: int, width: int, base: Style, style: Style) -> Strip:
        lines = self.empty_message()
        if row >= len(lines):
            return Strip.blank(width, base)
        return Strip([Segment(" ", Style(bgcolor=style.bgcolor)), Segment(lines[row], style)]).crop_extend(
            0, width, base)

    def empty_message(self) -> list[str]:
        """What the empty list says: why it is empty and what to do (nothing when it is not empty)."""
        if self._sessions:
            return []
        f = self._filter
        if not f.text.strip() and f.state == "all" and f.node == ALL_NODES and f.agent == ALL_AGENTS:
            return ["No sessions yet: agents' commands appear here. Press n to start one."]
        what = " and ".join(part for part in (f"text {f.text.strip()!r}" if f.text.strip() else "",
                                               f"state {f.state}" if f.state != "all" else "",
                                               f"node {f.node}" if f.node != ALL_NODES else "",
                                               f"agent {f.agent}" if f.agent != ALL_AGENTS else "") if part)
        return [f"No session matches the filter ({what}).",
                "Escape in the filter box clears the text; f cycles the state back to all"
                + ("; o the node" if f.node != ALL_NODES else "") + ("; @ the agent" if f.agent != ALL_AGENTS else "")
                + "."]


def _style(cell: Text) -> Style:
    style = cell.style
    return Style.parse(style) if isinstance(style, str) else style
