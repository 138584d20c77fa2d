"""The question quitting asks while sessions run: keep them running on the host (detach), end them, or stay.

Detaching is the first answer and has the focus: the dashboard is a client of its host, so leaving never has
to end anything.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from .base import Dialog

QuitAnswer = Literal["detach", "end"]


class QuitDialog(Dialog[QuitAnswer | None]):
    """Asks what to do with the running sessions; dismisses with ``"detach"``, ``"end"`` or None (cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "answer('detach')", "Detach", id="quit-detach"),
        Binding("e", "answer('end')", "End them", id="quit-end"),
        Binding("escape,c", "answer(None)", "Cancel", id="quit-cancel"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Quit", classes="dialog-title")
            yield Label(self.question, id="quit-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep running (d)", id="detach", variant="primary")
                yield Button("End them (e)", id="end", variant="error")
                yield Button("Cancel (c)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#detach", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        answer = event.button.id
        self.dismiss(answer if answer in ("detach", "end") else None)  # type: ignore[arg-type]

    def action_answer(self, answer: QuitAnswer | None) -> None:
        self.dismiss(answer)
