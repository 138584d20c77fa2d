"""The notice line: the dashboard's notifications on one row of their own, above the footer.

One notice at a time, the newest replacing the one shown and merging those of its kind; the app's ``notify``
goes through :meth:`NoticeLine.post`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

LIFETIME_S = {"information": 4.0, "warning": 6.0, "error": 10.0}
STYLES = {"information": "", "warning": "bold black on #ffaf00", "error": "bold white on #b00020"}
SIGNS = {"information": "•", "warning": "▲", "error": "✖"}
MAX_ROWS = 3  # a longer notice is cut (it is whole in its Shown message)


@dataclass
class Notice:
    """One notice: ``kind`` groups notices that merge (``waiting``, ``exit``); None never merges."""

    message: str
    title: str = ""
    severity: str = "information"
    kind: str | None = None
    at: float = field(default_factory=time.monotonic)

    @property
    def text(self) -> str:
        return f"{self.title}: {self.message}" if self.title else self.message


class NoticeLine(Widget):
    """Shows the current notice; :meth:`post` shows a new one, :meth:`current` says what shows."""

    @dataclass
    class Shown(Message):
        """``notice`` is shown now (whole, however much of it the line has room for)."""

        notice: Notice

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._current: Notice | None = None
        self._timer: Timer | None = None

    @property
    def current(self) -> Notice | None:
        return self._current

    def post(self, notice: Notice, timeout: float | None = None) -> None:
        """Show ``notice`` now, for ``timeout`` seconds (default by severity), replacing the one shown."""
        self._current = notice
        if self._timer is not None:
            self._timer.stop()
        lifetime = LIFETIME_S.get(notice.severity, 4.0) if timeout is None else timeout
        self._timer = self.set_timer(lifetime, self._expire)
        self.refresh(layout=True)  # a long notice takes a second or third row
        self.post_message(self.Shown(notice))

    def showing(self, kind: str) -> bool:
        """Whether a notice of ``kind`` shows now (so a new one of that kind merges into it)."""
        return self._current is not None and self._current.kind == kind

    def clear(self) -> None:
        """Take the notice shown off the line now."""
        if self._timer is not None:
            self._timer.stop()
        self._expire()

    def _expire(self) -> None:
        self._current = None
        self._timer = None
        self.refresh(layout=True)

    def render(self) -> Text:
        notice = self._current
        if notice is None:
            return Text("")
        line = f" {SIGNS.get(notice.severity, '•')} {' '.join(notice.text.split())} "
        width = self.size.width
        if cell_len(line) > width * MAX_ROWS > 1:
            line = set_cell_size(line, width * MAX_ROWS - 1) + "…"
        return Text(line, style=STYLES.get(notice.severity, ""), end="")
