"""A one-row widget for text that changes often (the session's title, its inputs): repainted on change only.

A ``Label``'s ``update`` relays out the whole screen; a line of fixed height never changes the layout.
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
