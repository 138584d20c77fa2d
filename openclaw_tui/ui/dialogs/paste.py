"""The paste dialog: multi-line text for one session, bracketed only if the program asked for it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, TextArea

from .base import FormDialog


class PasteDialog(FormDialog[str | None]):
    """Dismisses with the text to paste (Ctrl+S or the button), or None.

    Args:
        session_id: shown in the title.
        bracketed: whether the program enabled bracketed paste (``ESC[?2004h``); stated in the dialog.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Paste", id="paste-send", priority=True),
        Binding("escape", "cancel", "Cancel", id="paste-cancel"),
    ]

    def __init__(self, session_id: str, bracketed: bool) -> None:
        super().__init__()
        self.session_id = session_id
        self.bracketed = bracketed

    def compose(self) -> ComposeResult:
        how = (
            "bracketed: the program enabled bracketed paste, so it can tell this from typing"
            if self.bracketed
            else "raw: the program did not enable bracketed paste, so newlines act as Enter"
        )
        with Vertical(classes="dialog-box paste-box"):
            yield Label(f"Paste into {self.session_id}", classes="dialog-title")
            yield Label(how, id="paste-mode", classes="dialog-help")
            yield TextArea(id="paste-text", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Paste (ctrl+s)", id="send", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#paste-text", TextArea).focus()

    def action_send(self) -> None:
        self.submit()

    def submit(self) -> None:
        text = self.query_one("#paste-text", TextArea).text
        self.dismiss(text if text else None)

