"""The send-keys prompt: key names for one session, read by the same parser as the agents' ``send-keys``
(:func:`~openclaw_tui.core.tools.keys.key_line_tokens`) and checked before anything is sent."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label

from openclaw_tui.core.tools import KeyEncodingError, key_line_tokens

from .base import FormDialog


class SendKeysDialog(FormDialog[list[str] | None]):
    """Dismisses with the tokens to send, or None; a bad token keeps the prompt open with the reason."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="send-keys-cancel")]

    def __init__(self, session_id: str) -> None:
        super().__init__()
        self.session_id = session_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(f"Send keys to {self.session_id}", classes="dialog-title")
            yield Label('key names: C-c (or Ctrl-C)  Enter  Up  F5  M-x  "quoted text"', classes="dialog-help")
            yield Input(placeholder='e.g. "yes" Enter', id="keys")
            yield Label("", id="send-keys-error", classes="dialog-error")

    def on_mount(self) -> None:
        self.query_one("#keys", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            tokens = key_line_tokens(event.value)
        except KeyEncodingError as exc:
            self.query_one("#send-keys-error", Label).update(str(exc))
            return
        self.dismiss(tokens)

