"""Terminal modes and the saved cursor: the switches a program flips and the dashboard must honour.

Stock pyte records private modes but acts on few of them. Here the alternate screen really is a second
grid (``?47``/``?1047`` switch, ``?1049`` also saves and restores the cursor, as in xterm and tmux), the
saved cursor is one slot that each save overwrites (xterm), not pyte's stack, and the modes that change
how keys, pastes and clicks must be encoded are collected in :class:`TerminalModes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from pyte import modes as mo

from .cells import DEFAULT_CELL, Cell
from .reflow import Lines

ALT_SCREEN_MODES = (47, 1047, 1049)
MOUSE_TRACKING_MODES = (9, 1000, 1002, 1003)


class TerminalModes(NamedTuple):
    """Modes a program switched on that the dashboard must honour when it sends keys, pastes or clicks."""

    alt_screen: bool
    app_cursor: bool
    app_keypad: bool
    bracketed_paste: bool
    mouse_tracking: int | None  # 9, 1000, 1002 or 1003 when the program asked for mouse reports
    mouse_sgr: bool  # reports in the ``ESC[<b;x;yM`` form (mode 1006)


class _SavedCursor(NamedTuple):
    x: int
    y: int
    attrs: Cell
    graphics: tuple[bool, bool]
    shift: int
    origin: bool
    wrap: bool


class ModeSwitching:
    """Mode handling mixed into :class:`~.screen.TerminalScreen`."""

    buffer: Any
    cursor: Any
    lines: int
    mode: set[int]
    dirty: set[int]
    margins: Any
    private_modes: dict[int, bool]
    app_keypad: bool
    _main_buffer: Any
    _main_size: tuple[int, int]
    history: Any
    hscrolled: int
    columns: int
    _saved: _SavedCursor | None
    _saved_for_alt: _SavedCursor | None
    _graphics: list[bool]
    _shift: int

    if TYPE_CHECKING:

        def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None: ...

        def cursor_position(self, line: int | None = None, column: int | None = None) -> None: ...

        def ensure_hbounds(self) -> None: ...

        def ensure_vbounds(self, use_margins: bool | None = None) -> None: ...

        def _new_buffer(self) -> Any: ...

        def _take_lines(self, lines: Lines, cols: int, rows: int) -> None: ...

    @property
    def alt_screen(self) -> bool:
        return self._main_buffer is not None

    @property
    def modes(self) -> TerminalModes:
        tracking = [m for m in MOUSE_TRACKING_MODES if self.private_modes.get(m)]
        return TerminalModes(
            alt_screen=self.alt_screen,
            app_cursor=self.private_modes.get(1, False),
            app_keypad=self.app_keypad,
            bracketed_paste=self.private_modes.get(2004, False),
            mouse_tracking=tracking[-1] if tracking else None,
            mouse_sgr=self.private_modes.get(1006, False),
        )

    # -- modes -----------------------------------------------------------------------------------

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        self._set_modes(modes, bool(kwargs.get("private")), True)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        self._set_modes(modes, bool(kwargs.get("private")), False)

    def _set_modes(self, modes: tuple[int, ...], private: bool, on: bool) -> None:
        if not private:
            for mode in modes:
                if mode in (mo.IRM, mo.LNM):
                    (self.mode.add if on else self.mode.discard)(mode)
            return
        for mode in modes:
            self.private_modes[mode] = on
            if mode in ALT_SCREEN_MODES:
                self._enter_alt(mode) if on else self._leave_alt(mode)
            elif mode == 1048:
                self.save_cursor() if on else self.restore_cursor()
            elif mode == 3:
                # DECCOLM: tmux clears and homes without resizing; a pane's width is not the program's to set.
                self.erase_in_display(2)
                self.cursor_position()
            elif mode in (6, 7, 25):
                (self.mode.add if on else self.mode.discard)(mode << 5)
                if mode == 6:
                    self.cursor_position()

    def _enter_alt(self, mode: int) -> None:
        if self._main_buffer is not None:
            return
        if mode == 1049:
            self._saved_for_alt = self._snapshot_cursor()
        self._main_buffer = self.buffer
        self._main_size = (self.columns, self.lines)
        self.buffer = self._new_buffer()
        self.dirty.update(range(self.lines))

    def _leave_alt(self, mode: int) -> None:
        saved = self._saved_for_alt if mode == 1049 else None
        if self._main_buffer is not None and self._main_size != (self.columns, self.lines):
            self._restore_main_resized(saved)
            if saved is not None:  # its position was brought through the resize; the rest comes back as saved
                x, y = self.cursor.x, self.cursor.y
                self._apply_cursor(saved)
                self.cursor.x, self.cursor.y = x, y
        else:
            if self._main_buffer is not None:
                self.buffer = self._main_buffer
            if saved is not None:
                self._apply_cursor(saved)
        if self._main_buffer is not None:
            self._main_buffer = None
            self.dirty.update(range(self.lines))
        self.cursor.x = min(self.cursor.x, self.columns - 1)  # tmux leaves no wrap pending, even here
        self.cursor.y = min(self.cursor.y, self.lines - 1)

    def _restore_main_resized(self, saved: _SavedCursor | None) -> None:
        """The main screen saved at another size comes back as tmux brings it back: the alternate rows are
        first brought to the saved size (the history may shift with them), the saved rows replace them,
        and then the whole is resized to the current size with the main screen's rules."""
        cols, rows = self.columns, self.lines
        saved_cols, saved_rows = self._main_size
        lines = Lines(self.history, self.buffer, self.hscrolled, False, self.cursor.x, self.cursor.y)
        lines.resize(cols, saved_cols, saved_rows, reflow=True)
        x, y = (saved.x, saved.y) if saved is not None else lines.cursor
        lines = Lines(lines.history, self._main_buffer, lines.hscrolled, True, x, y)
        lines.resize(saved_cols, cols, rows, reflow=True)
        self._take_lines(lines, cols, rows)
        self.cursor.x = min(self.cursor.x, cols - 1)

    # -- saved cursor ----------------------------------------------------------------------------

    def _snapshot_cursor(self) -> _SavedCursor:
        c = self.cursor
        return _SavedCursor(
            c.x,
            c.y,
            c.attrs,
            (self._graphics[0], self._graphics[1]),
            self._shift,
            mo.DECOM in self.mode,
            mo.DECAWM in self.mode,
        )

    def _apply_cursor(self, saved: _SavedCursor) -> None:
        self.cursor.x, self.cursor.y, self.cursor.attrs = saved.x, saved.y, saved.attrs
        self._graphics = list(saved.graphics)
        self._shift = saved.shift
        for flag, mode in ((saved.origin, mo.DECOM), (saved.wrap, mo.DECAWM)):
            (self.mode.add if flag else self.mode.discard)(mode)
        self.ensure_hbounds()
        self.ensure_vbounds()

    def save_cursor(self) -> None:
        """DECSC / ``CSI s``: one slot, overwritten by each save (xterm), not pyte's stack."""
        self._saved = self._snapshot_cursor()

    def restore_cursor(self) -> None:
        """DECRC / ``CSI u``: back to the saved slot, or home with default attributes if none."""
        if self._saved is not None:
            self._apply_cursor(self._saved)
        else:
            self.mode.discard(mo.DECOM)
            self.cursor.attrs = DEFAULT_CELL
            self.cursor_position()

    def soft_reset(self) -> None:
        """DECSTR (``CSI ! p``): modes, margins and attributes reset; the text stays."""
        self.mode = {mo.DECAWM, mo.DECTCEM}
        self.margins = None
        self.cursor.attrs = DEFAULT_CELL
        self._graphics, self._shift, self._saved = [False, False], 0, None
        for mode in (1, 2004, 9, 1000, 1002, 1003, 1006):
            self.private_modes.pop(mode, None)
