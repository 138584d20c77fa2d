"""A pipe session's output as a scrolling log, stderr in its own colour, drawn with the Line API.

Each sync asks the output only for what came since the characters it has seen (``Output.since``).
"""

from __future__ import annotations

from collections import deque

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from openclaw_tui.core.session import STDERR
from openclaw_tui.remote.mirror import SessionView

MAX_LINES = 20_000
STDERR_STYLE = Style(color="#ff5f5f")
MARK_STYLE = Style(dim=True, italic=True)


class StreamLog(ScrollView, can_focus=True):
    """Shows one pipe session's retained output; ``attach`` switches sessions, ``sync`` pulls new output."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: SessionView | None = None
        self._lines: deque[list[str]] = deque(maxlen=MAX_LINES)  # [stream, text]
        self._open = False  # the last line has no newline yet
        self._seen = 0
        self._widest = 0
        self._follow = True

    def attach(self, session: SessionView | None) -> None:
        if session is self.session:
            return
        self.session = session
        self.scroll_home(animate=False, immediate=True, force=True)  # no clamp of an old offset reads as a scroll up
        self._reset()
        self._follow = True
        self.sync()

    def _reset(self) -> None:
        self._lines.clear()
        self._open = False
        self._seen = 0
        self._widest = 0

    def sync(self) -> bool:
        """Take new output from the session; True if anything changed."""
        session = self.session
        if session is None:
            return False
        out = session.output
        if out.total_chars <= self._seen:
            return False
        pieces = out.since(self._seen)
        if pieces is None:  # more arrived than is still retained: start again from what is
            self._reset()
            if out.tail_start:
                self._lines.append(["mark", f"[… {out.tail_start} earlier chars are no longer retained …]"])
            pieces = out.since(out.tail_start) or []
        for chunk in pieces:
            self._append(chunk.stream, chunk.text)
        self._seen = out.total_chars
        self.virtual_size = Size(self._widest, len(self._lines))
        if self._follow:
            self.scroll_end(animate=False, force=True)  # after the next layout, when the new height is known
        self.refresh()
        return True

    def on_resize(self) -> None:
        """Shown, or resized: a following log goes back to its end (a scroll before layout is lost)."""
        if self._follow:
            self.scroll_end(animate=False, force=True)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value < old_value and self.size.height:
            self._follow = False  # the operator scrolled up to read
        elif new_value >= self.max_scroll_y:
            self._follow = True

    def _append(self, stream: str, text: str) -> None:
        parts = text.split("\n")
        last = self._lines[-1] if self._lines else None
        first = parts[0]
        if self._open and last is not None and last[0] == stream:
            last[1] += first
            self._widest = max(self._widest, len(last[1]))
        else:
            self._lines.append([stream, first])
            self._widest = max(self._widest, len(first))
        for part in parts[1:-1]:
            self._lines.append([stream, part])
            self._widest = max(self._widest, len(part))
        if len(parts) > 1 and parts[-1]:
            self._lines.append([stream, parts[-1]])
            self._widest = max(self._widest, len(parts[-1]))
        self._open = bool(parts[-1])

    def text(self) -> str:
        return "\n".join(text for _, text in self._lines)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        stream, text = self._lines[index]
        style = base + (STDERR_STYLE if stream == STDERR else MARK_STYLE if stream == "mark" else Style())
        strip = Strip([Segment(text.expandtabs(8), style)])
        return strip.crop_extend(scroll_x, scroll_x + width, base)
