"""The terminal widget read back: scrolled, searched or selected in, it stands still on the session's history
(:class:`~.pager.TerminalPager`) while the program goes on, until it follows the live screen again."""

from __future__ import annotations

import re

from openclaw_tui.remote.mirror import SessionView
from openclaw_tui.terminal import Found, LiveView, Scrollback, char_at, column_of

from .pager import TerminalPager
from .pointer import Point, Selecting
from .searchbar import Recounted


class ReadingBack(Selecting):
    """The terminal widget's reading back (``ui.sessions.terminal_view`` owns the live view and the frames)."""

    session: SessionView | None
    live: LiveView | None
    pager: TerminalPager | None
    origin: tuple[int, int]
    frames: int
    _scrollback: Scrollback | None

    def _wake(self) -> None:
        raise NotImplementedError

    @property
    def reading(self) -> bool:
        """Scrolled back, searched or selected in: the view stands still until :meth:`follow`."""
        return self.pager is not None

    def text_rows(self) -> int:
        return max(1, self.size.height - 1)  # the last row says where the view stands

    def read(self) -> TerminalPager | None:
        """Stand still where the view is and read back from here (the history arrives in a moment)."""
        if self.pager is None and self.live is not None and self.session is not None:
            if self._scrollback is None or self._scrollback.lost or self._scrollback.source is not self.session:
                self._scrollback = Scrollback(self.session)
            self.pager = TerminalPager(self.live, self._scrollback, self._history_arrived)
            self.pager.rows = self.text_rows()
            self.pager.origin_x = self.origin[0]
            self.pager.bottom = self.pager.newest - max(0, self.live.screen.rows - self.origin[1] - self.text_rows())
            self.pager.scroll(0)
            self.refresh()
        return self.pager

    def _history_arrived(self) -> None:
        self.frames += 1
        self.refresh()
        self._wake()
        if self.pager is not None and self.pager.found is not None:
            self._show_match()
            self.post_message(Recounted())

    def scroll_lines(self, lines: int) -> None:
        """Scroll the view ``lines`` up (negative) or down into the history; down past the newest follows."""
        if self.pager is None and (lines >= 0 or self.read() is None):
            return
        pager = self.pager
        assert pager is not None
        pager.scroll(lines)
        self.refresh()
        self.call_after_refresh(self._warm, -1 if lines < 0 else 1)

    def _warm(self, direction: int) -> None:
        if self.pager is not None:
            self.pager.warm(direction)

    def scroll_page(self, direction: int) -> None:
        self.scroll_lines(direction * max(1, self.text_rows() - 1))

    def follow(self) -> None:
        """Back to the live screen, following the program's output."""
        if self.pager is None:
            return
        self._close_pager()
        self.selection = None
        self.frames += 1
        self._wake()
        self.refresh()

    def _close_pager(self) -> None:
        if self.pager is not None:
            self.pager.close()
            self.pager = None

    def search(self, pattern: re.Pattern[str] | None) -> Found | None:
        pager = self.read()
        if pager is None:
            return None
        found = pager.search(pattern)
        self._show_match()
        return found

    def search_step(self, older: bool) -> Found | None:
        pager = self.pager
        if pager is None or pager.found is None:
            return None
        pager.found.step(older)
        self._show_match()
        return pager.found

    def _show_match(self) -> None:
        pager = self.pager
        match = pager.found.current if pager is not None and pager.found is not None else None
        if pager is not None and match is not None:
            pager.show_line(match.line, column_of(pager.line_text(match.line), match.start), self.size.width)
        self.refresh()

    # -- selection ------------------------------------------------------------------------------
    def point_at(self, x: int, y: int) -> Point | None:
        y = max(0, min(y, self.text_rows() - 1))
        if self.pager is not None:
            number, column = self.pager.top() + y, x + self.pager.origin_x
            return number, char_at(self.pager.line_text(number), column)
        if self.live is None:
            return None
        screen = self.live.screen
        row = min(screen.rows - 1, y + self.origin[1])
        number = screen.first_line + len(screen.grid.history) + row
        return number, char_at(screen.line_text(number - screen.first_line), x + self.origin[0])

    def begin_selection(self) -> bool:
        return self.read() is not None

    def selection_changed(self) -> None:
        if self.pager is not None:
            self.pager.selection = self.selection
        self.refresh()

    def selected_text(self) -> str | None:
        if self.selection is None or self.pager is None:
            return None
        return self.selection.text(self.pager.line_text, self.pager.wrapped)

