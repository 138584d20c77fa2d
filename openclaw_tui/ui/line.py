"""A one-row widget for text that changes often (the session's title, its inputs): repainted on change only.

A ``Label``'s ``update`` asks for a new layout of the whole screen, and the title changes at every
tick (its runtime): that relayout was most of the dashboard's idle CPU. A line of fixed height never changes the
layout, so here a change is only a repaint of the row, and no change is nothing at all.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class TextLine(Widget):
    """Shows :meth:`show`'s text on one row."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()

    def show(self, text: Text) -> None:
        if text != self._text:
            self._text = text
            self.refresh()

    def render(self) -> Text:
        return self._text
