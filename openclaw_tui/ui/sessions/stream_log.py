"""A pipe session's output as a scrolling log, stderr in its own colour, drawn with the Line API.

Each sync asks the output only for what came since the characters it has seen (``Output.since``).
"""

from __future__ import annotations

from rich.style import Style

from openclaw_tui.core.session import STDERR
from openclaw_tui.remote.mirror import SessionView

from ..reading.linelog import LineLog, Runs

MAX_LINES = 20_000
STDERR_STYLE = Style(color="#ff5f5f")
MARK_STYLE = Style(dim=True, italic=True)


class StreamLog(LineLog):
    """Shows one pipe session's retained output; ``attach`` switches sessions, ``sync`` pulls new output."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: SessionView | None = None
        self._lines: list[list[str]] = []  # [stream, text], the newest MAX_LINES
        self._open = False  # the last line has no newline yet
        self._seen = 0
        self._widest = 0

    def attach(self, session: SessionView | None) -> None:
        if session is self.session:
            return
        self.session = session
        self.scroll_home(animate=False, immediate=True, force=True)  # no clamp of an old offset reads as a scroll up
        self._reset()
        self.forget_lines()
        self.follow()
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
            self.forget_lines()
            if out.tail_start:
                self._lines.append(["mark", f"[… {out.tail_start} earlier chars are no longer retained …]"])
            pieces = out.since(out.tail_start) or []
        for chunk in pieces:
            self._append(chunk.stream, chunk.text)
        self._seen = out.total_chars
        dropped = 0
        if len(self._lines) > MAX_LINES:  # a tenth at once, as the terminal's history is trimmed
            dropped = len(self._lines) - MAX_LINES + MAX_LINES // 10
            del self._lines[:dropped]
        self.lines_changed(self._widest, dropped=dropped)
        return True

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

    # -- the lines, for the log ------------------------------------------------------------------
    def line_count(self) -> int:
        return len(self._lines)

    def line_text(self, index: int) -> str:
        return self._lines[index][1].expandtabs(8)

    def final_lines(self) -> int:
        return len(self._lines) - (1 if self._open else 0)

    def line_runs(self, index: int, base: Style) -> Runs:
        stream, _ = self._lines[index]
        style = base + (STDERR_STYLE if stream == STDERR else MARK_STYLE if stream == "mark" else Style())
        return [(self.line_text(index), style)]
