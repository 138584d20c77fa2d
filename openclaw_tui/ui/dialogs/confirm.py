"""A yes/no question in a modal dialog (kill, remove a running session, quit with sessions running)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from .base import Dialog


class ConfirmDialog(Dialog[bool]):
    """Asks ``question``; dismisses with True for the ``yes`` button (or ``y``), False otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm-yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm-no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", title: str = "Confirm") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.dialog_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Label(self.question, id="confirm-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error")  # the keys, since the footer
                yield Button("Cancel (n)", id="no")  # below still shows the dashboard's own

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
