"""A log of a session's lines drawn with the Line API, that follows its end until the operator scrolls back,
searches as they type and selects with the mouse: what the pipe view and the log view share.

Lines are numbered from the first one the log ever held, so a log that drops its oldest lines keeps what is on
view, and the selection and the matches on it, where they were.
"""

from __future__ import annotations

import re

from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from openclaw_tui.terminal import Found, LineIndex, char_at, find_all

from .paint import binding_key_display, notice, painted, spans_of
from .pointer import Point, Selecting
from .searchbar import Recounted

Runs = list[tuple[str, Style]]
WHEEL_LINES = 3


class LineLog(ScrollView, Selecting, can_focus=True):
    """Subclasses hold the lines and say what each is: :meth:`line_count`, :meth:`line_text`, :meth:`line_runs`,
    and how many are final (:meth:`final_lines`); they call :meth:`lines_changed` when lines came or went."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.dropped = 0  # lines that left the top: the first line held is line number ``dropped``
        self._follow = True
        self.pattern: re.Pattern[str] | None = None
        self.found: Found | None = None
        self._index = LineIndex()

    # -- what a subclass says ---------------------------------------------------------------------
    def line_count(self) -> int:
        raise NotImplementedError

    def line_text(self, index: int) -> str:
        """Line ``index`` of those held (0: the oldest held) as plain text."""
        raise NotImplementedError

    def line_runs(self, index: int, base: Style) -> Runs:
        raise NotImplementedError

    def final_lines(self) -> int:
        """How many of the lines held will not change any more (all but an unfinished last one)."""
        return self.line_count()

    def text_of(self, number: int) -> str:
        return self.line_text(number - self.dropped)

    # -- following --------------------------------------------------------------------------------
    @property
    def following(self) -> bool:
        return self._follow

    def lines_changed(self, width: int, dropped: int = 0) -> None:
        """Lines came (or ``dropped`` left the top): the size is new; a log scrolled back stays on its lines."""
        self.dropped += dropped
        if dropped:
            self._index.reset()  # it counts lines from the first held
        self.virtual_size = Size(width, self.line_count())
        if self._follow:
            self.call_after_refresh(self._to_end)  # after the next layout, when the new height is known
        elif dropped:
            self.scroll_to(y=max(0, self.scroll_y - dropped), animate=False, force=True)
        if self.pattern is not None:
            self._refind()
            self.post_message(Recounted())
        self.refresh()

    def follow(self) -> None:
        """Back to the end, following it."""
        self._follow = True
        self.selection = None
        self.call_after_refresh(self._to_end)
        self.refresh()

    def _to_end(self) -> None:
        """Scroll to the end if still following: the operator may have scrolled back since it was asked."""
        if self._follow:
            self.scroll_end(animate=False, immediate=True, force=True)

    def scroll_lines(self, lines: int) -> None:
        if lines < 0:
            self._follow = False
        self.scroll_to(y=self.scroll_y + lines, animate=False, force=True)

    def scroll_page(self, direction: int) -> None:
        self.scroll_lines(direction * max(1, self.size.height - 2))

    def on_resize(self) -> None:
        """Shown, or resized: a following log goes back to its end (a scroll before layout is lost)."""
        if self._follow:
            self.call_after_refresh(self._to_end)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if not self.size.height:
            return
        if new_value >= self.max_scroll_y:
            self._follow = True  # at the end (also when a taller view cut the scroll back to it)
        elif new_value < old_value:
            self._follow = False  # the operator scrolled up to read

    # -- search -----------------------------------------------------------------------------------
    def search(self, pattern: re.Pattern[str] | None) -> Found | None:
        """Find every match; the current one is the newest on view or above it, brought on view."""
        self.pattern = pattern
        self.found = None
        self._refind()
        self._show_current()
        return self.found

    def search_step(self, older: bool) -> Found | None:
        if self.found is not None:
            self.found.step(older)
            self._show_current()
        return self.found

    def _refind(self) -> None:
        if self.pattern is None:
            self.found = None
            return
        text, starts = self._index.text(self.line_text, self.line_count(), self.final_lines())
        current = self.found.current if self.found is not None else None
        matches = [m._replace(line=m.line + self.dropped) for m in find_all(self.pattern, text, starts)]
        self.found = Found(matches, self.dropped + int(self.scroll_y) + self.size.height - 1)
        if current is not None and current in matches:
            self.found.index = matches.index(current)

    def _show_current(self) -> None:
        match = self.found.current if self.found is not None else None
        if match is None:
            return
        row = match.line - self.dropped
        height = max(1, self.size.height - 1)
        if not self.scroll_y <= row < self.scroll_y + height:
            self._follow = False
            self.scroll_to(y=max(0, row - height // 2), animate=False, force=True)
        self.refresh()

    def forget_lines(self) -> None:
        """The lines were replaced (another session): no search index or selection over them."""
        self._index.reset()
        self.dropped = 0
        self.selection = None
        if self.pattern is not None:
            self._refind()

    # -- selection --------------------------------------------------------------------------------
    def point_at(self, x: int, y: int) -> Point | None:
        count = self.line_count()
        if not count:
            return None
        index = max(0, min(count - 1, int(self.scroll_y) + max(0, min(y, self.size.height - 1))))
        return self.dropped + index, char_at(self.line_text(index), x + int(self.scroll_x))

    def begin_selection(self) -> bool:
        self._follow = False  # what is selected stays on view
        return True

    def selected_text(self) -> str | None:
        return self.selection.text(self.text_of) if self.selection is not None else None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.selection_press(event)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.selection_drag(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.selection_release(event)

    def on_click(self, event: events.Click) -> None:
        self.selection_click(event)

    # -- drawing ----------------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width, height = self.size
        base = self.rich_style
        if not self._follow and y == height - 1 and self.max_scroll_y > 0:
            back = max(0, self.max_scroll_y - scroll_y)
            key = binding_key_display(self, "follow")
            follows = f" · {key} follows" if key else ""
            match = f" · match {self.found.label}" if self.found is not None else ""  # the input may be closed
            return notice(f" −{back} lines{match}{follows} ", width, base)
        index = scroll_y + y
        if not 0 <= index < self.line_count():
            return Strip.blank(width, base)
        number = self.dropped + index
        found, selection = self.found, self.selection
        spans = spans_of(found.on_line(number) if found is not None else (), found.current if found else None,
                         selection.span(number, self.text_of) if selection is not None else None)
        strip = Strip(painted(self.line_runs(index, base), spans))
        return strip.crop_extend(scroll_x, scroll_x + width, base)
