"""The search input under a session's output: it searches as the operator types, shows where the view stands
among the matches ("3/14"), and toggles between plain text and a regular expression."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input

from ..line import TextLine


class Recounted(Message):
    """Posted by a view whose matches changed without a keystroke (new lines arrived, the history came)."""


class SearchBar(Horizontal):
    """Posts :class:`Changed` on each keystroke, :class:`Step` for Enter, :class:`Closed` for Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "step", "Next match", id="search-step", priority=True),
        Binding("ctrl+r", "toggle_regex", "Regex", id="search-regex", priority=True),
        Binding("escape", "close", "Close search", id="search-close", priority=True),
    ]

    class Changed(Message):
        def __init__(self, text: str, regex: bool) -> None:
            super().__init__()
            self.text, self.regex = text, regex

    class Step(Message):
        """The next match back in time."""

    class Closed(Message):
        """The input closed; the view stays where the match is."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.regex = False

    def compose(self) -> ComposeResult:
        yield TextLine(classes="search-label")
        yield Input(id="search-text", placeholder="search the output")
        yield TextLine(id="search-count")

    def open(self) -> None:
        """Show the bar and take the keys; the text of the last search stays, selected, to type over."""
        self.display = True
        text = self.query_one(Input)
        self.screen.set_focus(text)  # at once: Widget.focus waits a turn, and keys typed fast would miss it
        text.select_all()
        self._label()

    @property
    def text(self) -> str:
        return self.query_one(Input).value

    def show_count(self, label: str, error: str = "") -> None:
        """``3/14``, or why there is no search (a bad regular expression)."""
        line = Text(f" {error} " if error else f" {label} ", style="bold red" if error else "bold")
        self.query_one("#search-count", TextLine).show(line)

    def _label(self) -> None:
        mode = "regex" if self.regex else "text"
        self.query_one(".search-label", TextLine).show(Text.assemble((" search ", "bold"), (f"[{mode}] ", "dim")))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(event.value, self.regex))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()

    def action_step(self) -> None:
        self.post_message(self.Step())

    def action_toggle_regex(self) -> None:
        self.regex = not self.regex
        self._label()
        self.post_message(self.Changed(self.text, self.regex))

    def action_close(self) -> None:
        self.display = False
        self.post_message(self.Closed())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.query_one(Input).has_focus  # only while the operator types a search
