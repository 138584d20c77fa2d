"""Selecting a session's output with the mouse, for any view of numbered lines: a drag selects characters,
a double-click a word, a triple-click a line; dragging past the top or bottom scrolls.

Textual's own selection works per widget over text it lays out (and a double-click selects the whole widget);
a terminal's grid needs cells, words and lines, held by line number while the view scrolls, so the views keep
their selection here, with Textual's click chain and mouse capture.
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget

from openclaw_tui.terminal import Selection, Unit

Point = tuple[int, int]


class Selecting(Widget):
    """The mouse half of selection, mixed into a view: the view says where a cell is (:meth:`point_at`), how
    to scroll a line (:meth:`scroll_lines`) and how many rows of text it shows (:meth:`text_rows`), calls the
    ``selection_*`` methods from its mouse handlers, and paints :attr:`selection`."""

    ALLOW_SELECT = False  # Textual's screen-wide selection would select over ours

    selection: Selection | None = None
    _pressed: Point | None = None
    _moved = False

    # -- what a view provides ---------------------------------------------------------------------
    def point_at(self, x: int, y: int) -> Point | None:
        """The (line number, character) under cell ``x``, ``y`` of the view (rows past the ends: the ends)."""
        raise NotImplementedError

    def scroll_lines(self, lines: int) -> None:
        raise NotImplementedError

    def text_rows(self) -> int:
        return self.size.height

    def begin_selection(self) -> bool:
        """A selection starts (the view may freeze what it shows first); False if it cannot."""
        return True

    def selection_changed(self) -> None:
        self.refresh()

    # -- the mouse --------------------------------------------------------------------------------
    def selection_press(self, event: events.MouseDown) -> None:
        if event.button != 1:
            return
        self._pressed, self._moved = self.point_at(event.x, event.y), False
        self.capture_mouse()

    def selection_drag(self, event: events.MouseMove) -> None:
        if self._pressed is None or event.button != 1:
            return
        if event.y < 0:  # past an edge: the view scrolls a line per move, as a terminal's does
            self.scroll_lines(-1)
        elif event.y >= self.text_rows():
            self.scroll_lines(1)
        point = self.point_at(event.x, event.y)
        if point is None:
            return
        if not self._moved:
            if point == self._pressed or not self.begin_selection():
                return
            self._moved = True  # lines keep their numbers, so the point pressed still names its cell
            self.selection = Selection(self._pressed, point)
        elif self.selection is not None:
            self.selection.head = point
        self.selection_changed()

    def selection_release(self, event: events.MouseUp) -> None:
        if self._pressed is not None:
            self._pressed = None
            self.release_mouse()

    def selection_click(self, event: events.Click) -> None:
        if event.button != 1:
            return
        if event.chain in (2, 3) and self.begin_selection():
            point = self.point_at(event.x, event.y)
            if point is not None:
                self.selection = Selection(point, point, Unit.WORD if event.chain == 2 else Unit.LINE)
                self.selection_changed()
        elif event.chain == 1 and not self._moved and self.selection is not None:
            self.selection = None  # a plain click lets go of the selection
            self.selection_changed()
