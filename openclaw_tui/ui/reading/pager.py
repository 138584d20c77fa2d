"""The terminal view scrolled back: the session's history, searched and selected in, standing still while the
program goes on.

Lines are held by their numbers (every line that ever scrolled into a screen's history has one), so new output
never moves what is on view. At first the lines are the live view's own screen, frozen where it was (it keeps
the last thousand lines a resize needs); the whole history, replayed from the raw ring in a thread, takes over
as soon as it is ready, at the same place, and is then kept current while the view reads it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.strip import Strip

from openclaw_tui.terminal import (
    Found,
    LineIndex,
    LiveView,
    Scrollback,
    Selection,
    Style,
    TerminalScreen,
    find_all,
)

from .paint import notice, painted, rich_style, spans_of

REUSE_BYTES = 32 * 1024  # a scrollback read before is brought up to date rather than replayed again...
REUSE_BUDGET_MS = 1000.0  # ...at once: that many bytes take well under this
STRIPS_KEPT = 4096  # history lines kept drawn: a few pages either side of the view, for paging back and forth


class TerminalPager:
    """Which lines of a session's terminal history the view shows, and the search and selection over them.

    Args:
        live: the live view, frozen while it is read (its owner stops advancing it).
        scrollback: the session's scrollback, built already or built now (from where the live view stopped).
        on_change: called on the loop when the history arrives or grows, so the view repaints.
    """

    def __init__(self, live: LiveView, scrollback: Scrollback, on_change: Callable[[], None]) -> None:
        self.live = live
        self.scrollback = scrollback
        self.on_change = on_change
        self.screen: TerminalScreen = live.screen
        self.bottom = self.last  # the number of the line at the view's bottom
        self.rows = 1
        self.origin_x = 0
        self.pattern: re.Pattern[str] | None = None
        self.found: Found | None = None
        self.selection: Selection | None = None
        self._index = LineIndex()
        self._indexed: tuple[int, int, int] | None = None  # (screen, generation, first number) of the index
        self._task: asyncio.Task[None] | None = None
        self._strips: dict[int, Strip] = {}  # drawn history lines by number, oldest drawn first
        self._strips_for: tuple[object, ...] | None = None  # (screen, generation, base) they were drawn for
        self._paint: tuple[RichStyle, dict[Style, RichStyle]] | None = None  # the last render_line's styles
        if scrollback.reusable(live.offset, REUSE_BYTES):  # read before: bring it to where the view is
            scrollback.advance(REUSE_BUDGET_MS, upto=live.offset)
            self._adopt(scrollback.screen)  # type: ignore[arg-type]  # reusable: it has a screen
        else:
            self._task = asyncio.ensure_future(self._build())

    # -- which lines ------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """The whole history is here (not just the live view's last thousand lines)."""
        return self.screen is self.scrollback.screen

    @property
    def alternate(self) -> bool:
        return self.screen.alt_screen

    @property
    def first(self) -> int:
        """The number of the first line there is to read (on the alternate screen, its top row: the history
        belongs to the main screen under it)."""
        screen = self.screen
        return screen.first_line + (len(screen.grid.history) if screen.alt_screen else 0)

    @property
    def last(self) -> int:
        return self.screen.first_line + self.screen.lines - 1

    @property
    def back(self) -> int:
        """How many lines the view's bottom is above the newest."""
        return self.newest - self.bottom

    @property
    def newest(self) -> int:
        """Where the view's bottom stands when scrolled all the way down: at the last line, or below it when the
        view is taller than the screen, so the screen's top row stays at the view's top as the live view shows
        it (reading back never makes the lines jump)."""
        screen = self.screen
        return max(self.last, screen.first_line + len(screen.grid.history) + self.rows - 1)

    def line_text(self, number: int) -> str:
        return self.screen.line_text(number - self.screen.first_line)

    def wrapped(self, number: int) -> bool:
        return self.screen.line_wrapped(number - self.screen.first_line)

    def top(self) -> int:
        return self.bottom - self.rows + 1

    def scroll(self, lines: int) -> None:
        """Up (``lines`` < 0) or down, never past the first line or the newest."""
        self.bottom = self._clamp(self.bottom + lines)

    def _clamp(self, bottom: int) -> int:
        return max(min(self.newest, self.first + self.rows - 1), min(self.newest, bottom))

    def show_line(self, number: int, column: int, width: int) -> None:
        """Bring line ``number`` (and its character ``column``) on view, centred if it was off it."""
        if not self.top() <= number <= self.bottom:
            self.bottom = self._clamp(number + self.rows // 2)
        cols = self.screen.cols
        if not self.origin_x <= column < self.origin_x + width:
            self.origin_x = max(0, min(cols - width, column - width // 2))

    # -- the history arriving and growing ---------------------------------------------------------
    async def _build(self) -> None:
        await self.scrollback.build(upto=self.live.offset)
        if self.scrollback.screen is not None:
            self._adopt(self.scrollback.screen)
            self.on_change()

    def _adopt(self, screen: TerminalScreen) -> None:
        """Read ``screen`` from now on, at the same distance from the newest line (both end where the live
        view stopped), the selection moved with it."""
        shift = (screen.first_line + screen.lines - 1) - self.last
        self.screen = screen
        self.bottom = self._clamp(self.bottom + shift)
        if self.selection is not None:
            sel = self.selection
            sel.anchor, sel.head = (sel.anchor[0] + shift, sel.anchor[1]), (sel.head[0] + shift, sel.head[1])
        self._refind()

    def advance(self, budget_ms: float) -> bool:
        """Replay what arrived since into the history; True if the view must repaint."""
        if not self.ready:
            return False
        generation, back = self.screen.generation, self.back
        if not self.scrollback.advance(budget_ms):
            return False
        if self.screen.generation != generation:  # rewrapped by a resize: keep the distance, drop the rest
            self.bottom = self._clamp(self.newest - back)
            self.selection = None
        self.bottom = self._clamp(self.bottom)
        self._refind()
        return True

    def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    # -- search -----------------------------------------------------------------------------------
    def search(self, pattern: re.Pattern[str] | None) -> Found | None:
        """Find every match; the current one is the newest at or above the view's bottom, brought on view."""
        self.pattern = pattern
        self._refind(move=True)
        return self.found

    def _refind(self, move: bool = False) -> None:
        if self.pattern is None:
            self.found = None
            return
        first, screen = self.first, self.screen
        history = screen.first_line + len(screen.grid.history) - first  # final lines: the history
        text, starts = self._line_index().text(lambda n: self.line_text(first + n), self.last - first + 1, history)
        current = self.found.current if self.found is not None and not move else None
        matches = [m._replace(line=m.line + first) for m in find_all(self.pattern, text, starts)]
        self.found = Found(matches, self.bottom)
        if current is not None and current in matches:
            self.found.index = matches.index(current)

    def _line_index(self) -> LineIndex:
        """The whole history's index, built with it and kept current (see :class:`Scrollback`); else, for the
        live view's own lines or an alternate screen's, one of the pager's own."""
        screen = self.screen
        if screen is self.scrollback.screen and not screen.alt_screen:
            return self.scrollback.index
        key = (id(screen), screen.generation, self.first)
        if key != self._indexed:
            self._index.reset()
            self._indexed = key
        return self._index

    # -- drawing ----------------------------------------------------------------------------------
    def render_line(self, y: int, width: int, base: RichStyle, styles: dict[Style, RichStyle]) -> Strip:
        number = self.top() + y
        if not self.first <= number <= self.last:
            return Strip.blank(width, base)
        self._paint = (base, styles)
        strip = self._drawn(number, base, styles)
        found, selection = self.found, self.selection
        spans = spans_of(found.on_line(number) if found is not None else (), found.current if found else None,
                         selection.span(number, self.line_text) if selection is not None else None)
        if spans:
            strip = Strip(painted([(seg.text, seg.style or base) for seg in strip], spans))
        if self.origin_x:
            strip = strip.crop(self.origin_x, self.origin_x + width)
        return strip.adjust_cell_length(width, base)

    def _drawn(self, number: int, base: RichStyle, styles: dict[Style, RichStyle]) -> Strip:
        """Line ``number`` in its own styles; a history line (final: only a resize rewraps it) is drawn once and
        kept, so paging back and forth redraws nothing, and :meth:`warm` can draw the next page ahead."""
        screen = self.screen
        key = (id(screen), screen.generation, base)
        if key != self._strips_for:
            self._strips.clear()
            self._strips_for = key
        strip = self._strips.get(number)
        if strip is not None:
            return strip
        strip = Strip([Segment(text, rich_style(style, base, styles))
                       for text, style in screen.line_runs(number - screen.first_line)])
        if number < screen.first_line + len(screen.grid.history):
            if len(self._strips) >= STRIPS_KEPT:
                del self._strips[next(iter(self._strips))]
            self._strips[number] = strip
        return strip

    def warm(self, direction: int) -> None:
        """Draw the page beyond the view in ``direction`` (-1: older) ahead of the key that shows it, once
        the view's own frame is on screen."""
        if self._paint is None:
            return
        top = self.top()
        ahead = range(top - self.rows, top) if direction < 0 else range(self.bottom + 1, self.bottom + 1 + self.rows)
        for number in ahead:
            if self.first <= number <= self.last:
                self._drawn(number, *self._paint)

    def notice(self, width: int, base: RichStyle, follow_key: str) -> Strip:
        follows = f" · {follow_key} follows" if follow_key else ""
        if self.alternate:
            text = f" the program is on its alternate screen: no history here{follows} "
        else:
            behind = "+" if self.ready and self.scrollback.behind else ""
            match = f" · match {self.found.label}" if self.found is not None else ""  # the input may be closed
            text = (f" −{self.back}{behind} lines{match}{follows}" + ("" if self.ready else " · reading the history…")
                    + " ")
        if self.screen.cols > width:
            text += f"· cols {self.origin_x + 1}-{min(self.screen.cols, self.origin_x + width)} of {self.screen.cols} "
        return notice(text, width, base)
