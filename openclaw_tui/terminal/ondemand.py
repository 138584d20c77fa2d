"""Screens built on demand from a session's raw ring, for when no view holds one: the host answering a
cursor-position query, an agent reading the screen of a full-screen program, and the line a waiting
program shows (its prompt).

Nothing is kept: the screen is rebuilt from the ring with the catch-up a view uses (:mod:`.catchup`).
"""

from __future__ import annotations

from .catchup import skip_ahead
from .emulator import TerminalScreen
from .sizes import feed_sized, rows_to_rebuild
from .source import ScreenSource

SCREEN_WINDOW = 256 * 1024  # output parsed for an agent's screen read
PROMPT_WINDOW = 16 * 1024  # output parsed for the line a waiting program shows (its prompt sits at the end)


def screen_at(source: ScreenSource, offset: int, window: int) -> TerminalScreen:
    """The screen as it was once the output up to ring offset ``offset`` was drawn, at the sizes it had."""
    ring = source.raw
    first = max(ring.start, offset - window)
    _, history = ring.read(first, max(0, offset - first))
    size = ring.size_at(first) or tuple(source.pty_size)
    marks = [m for m in ring.marks_from(ring.first_mark_after(first)) if m.offset <= offset]
    screen = TerminalScreen(*size)
    begin = skip_ahead(screen, history, window, size_at=lambda i: ring.size_at(first + i),
                       rows=rows_to_rebuild(size[1], marks))
    feed_sized(screen, first + begin, history[begin:], [m for m in marks if m.offset > first + begin])
    return screen


def screen_text(source: ScreenSource) -> str:
    """The session's screen now, as an agent reads it: the rows with trailing blanks and empty rows at the
    bottom left out, then a line with the size, the cursor and which screen (main or alternate) is shown."""
    screen = screen_at(source, source.raw.end, SCREEN_WINDOW)
    rows = [row.rstrip() for row in screen.display()]
    while rows and not rows[-1]:
        rows.pop()
    x, y = screen.cursor_xy
    which = "alternate screen (a full-screen program)" if screen.modes.alt_screen else "main screen"
    cursor = f"cursor at row {y + 1}, column {x + 1}" if screen.cursor_visible else "cursor hidden"
    return "\n".join(rows) + f"\n[screen {screen.cols}x{screen.rows}, {which}, {cursor}]"


def last_line(source: ScreenSource) -> str:
    """The last non-empty row of the session's screen now, stripped (a waiting program's prompt)."""
    screen = screen_at(source, source.raw.end, PROMPT_WINDOW)
    return next((row.strip() for row in reversed(screen.display()) if row.strip()), "")
