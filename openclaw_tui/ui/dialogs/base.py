"""What every dashboard dialog shares: the ``dialog`` CSS class, and the buttons of a form."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Button

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal dialog styled by the app's ``.dialog`` rules."""

    def __init__(self) -> None:
        super().__init__(classes="dialog")


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
