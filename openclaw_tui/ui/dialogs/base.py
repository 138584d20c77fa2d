"""What every dashboard dialog shares: the ``dialog`` CSS class and the app's cursor-blink setting.

Screenshots and snapshot tests need a cursor that does not blink (a blinking one is drawn or not
depending on the moment of capture), so the app carries one ``cursor_blink`` flag that each dialog
applies to its text fields when it mounts (Textual calls this handler as well as a subclass's own).
"""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Button, Input, TextArea

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal dialog styled by the app's ``.dialog`` rules."""

    def __init__(self) -> None:
        super().__init__(classes="dialog")

    def on_mount(self) -> None:
        blink = bool(getattr(self.app, "cursor_blink", True))
        for field in self.query(Input):
            field.cursor_blink = blink
        for area in self.query(TextArea):
            area.cursor_blink = blink


class FormDialog(Dialog[ResultType]):
    """A dialog that collects input: its primary button runs :meth:`submit`; Cancel and Escape give None."""

    def submit(self) -> None:
        raise NotImplementedError

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self.submit()

    def action_cancel(self) -> None:
        self.dismiss(None)
