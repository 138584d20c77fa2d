"""The terminal widget: a PTY session drawn from the terminal engine with Textual's Line API.

It repaints only dirty rows, at most ``FPS`` times a second (one frame clock for every view), never changes the
PTY's size except while the operator types through or by :meth:`fit`, and reads back through the session's
history (:class:`~..reading.backread.ReadingBack`) when scrolled, searched or selected in.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingsMap, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from openclaw_tui.core.tools import InputRefused, paste_bytes
from openclaw_tui.remote.mirror import HostView, SessionView
from openclaw_tui.terminal import (
    LiveView,
    Scrollback,
    Style,
)

from ..reading.backread import ReadingBack
from ..reading.frameclock import BUDGET_MS, FrameClock
from ..reading.pager import TerminalPager
from ..reading.paint import binding_key_display, notice, rich_style
from ..reading.searchbar import Recounted
from .keybytes import key_event_bytes
from .terminal_mouse import TerminalMouse

LEAVE_KEY = "ctrl+right_square_bracket"
LEAVE_KEY_DISPLAY = "ctrl+]"
KEPT_WHILE_TYPING = ("scroll-up", "scroll-down")  # their keys with a modifier stay the dashboard's in type-through

def _offset(cursor: int, size: int, shown: int) -> int:
    """First cell shown of ``size`` cells in a window of ``shown``: the window holds the cursor, at either
    end when it is near that end, else centred on it (tmux's rule for a window larger than its client)."""
    if size <= shown or cursor < shown:
        return 0
    if cursor > size - shown:
        return size - shown
    return cursor - shown // 2


def kept_keys(widget: Widget) -> set[str]:
    """The keys type-through leaves to the dashboard besides the leave key: the scroll keys that carry a
    modifier (``shift+pageup``), so the history is one key away while every plain key goes to the program."""
    keys: set[str] = set()
    for node in widget.ancestors_with_self:
        found = [b for _, b in getattr(node, "_bindings", BindingsMap()) if b.id in KEPT_WHILE_TYPING]
        if found:
            bindings = BindingsMap(found)
            bindings.apply_keymap(widget.app._keymap)
            keys |= {key for _, b in bindings for key in b.key.split(",") if "+" in key}
    return keys


def _row_spans(rows: list[int], width: int) -> list[Region]:
    """Sorted row numbers as regions of consecutive rows (one region per run of dirty rows)."""
    spans: list[Region] = []
    start = prev = rows[0]
    for y in rows[1:]:
        if y != prev + 1:
            spans.append(Region(0, start, width, prev - start + 1))
            start = y
        prev = y
    spans.append(Region(0, start, width, prev - start + 1))
    return spans


class TerminalView(TerminalMouse, ReadingBack, can_focus=True):
    """Shows one PTY session's screen; ``attach(session)`` switches sessions, ``attach(None)`` detaches."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(LEAVE_KEY, "leave_type_through", "Leave type-through", id="leave-type-through",
                key_display=LEAVE_KEY_DISPLAY, priority=True),
    ]

    type_through: reactive[bool] = reactive(False, bindings=True)

    class TypeThroughChanged(Message):
        """Type-through mode was entered or left."""

        def __init__(self, active: bool) -> None:
            super().__init__()
            self.active = active

    def __init__(self, host: HostView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.host = host
        self.session: SessionView | None = None
        self.live: LiveView | None = None
        self._pending = False
        self._cursor_row: int | None = None
        self._styles: dict[Style, RichStyle] = {}
        self._base: RichStyle | None = None
        self.frames = 0  # frames that changed the screen (refresh requested)
        self._painted_frame = 0  # the last of them that was drawn (render_line ran for it)
        self._leave_keys = {LEAVE_KEY}
        self.origin = (0, 0)  # screen cell shown at the pane's top left (non-zero when the PTY is larger)
        self._restore: tuple[SessionView, tuple[int, int]] | None = None  # the size to give back after typing
        self._sending: set[asyncio.Task[None]] = set()
        self.pager: TerminalPager | None = None  # reading the history: the view stands still
        self._scrollback: Scrollback | None = None  # kept while attached, so reading again starts at once
        self._clock: FrameClock | None = None
        self._buttons = 0  # mouse buttons held, as a program in type-through was told
        self._sized_for: object = None
        self._keys_shown: tuple[object, dict[str, str]] = (None, {})  # (the keymap, binding id -> its key)
        self._size_shown = (0, 0)

    def on_mount(self) -> None:
        self._clock = FrameClock.of(self.app)
        self._wake()

    def on_unmount(self) -> None:
        if self._clock is not None:
            self._clock.forget(self)
        self._close_pager()
        if self.live is not None:
            self.live.close()
            self.live = None

    def _wake(self) -> None:
        """Something to draw may be pending: let the frame clock call until it is drawn."""
        self._pending = True
        if self._clock is not None:
            self._clock.wake(self)

    # -- session --------------------------------------------------------------------------------
    def attach(self, session: SessionView | None) -> None:
        if session is self.session:
            return
        self.type_through = False
        self._close_pager()
        self._scrollback = None
        self.selection = None
        if self.live is not None:
            self.live.close()
            self.live = None
        self.session = session
        self._cursor_row = None
        self.origin = (0, 0)
        if session is not None:
            self.live = LiveView(session, budget_ms=BUDGET_MS, on_output=self._wake)
            self._wake()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        if self.type_through:
            self.fit()  # typing through, the program gets the pane's size
        if self.pager is not None:
            self.pager.rows = self.text_rows()
            self.pager.scroll(0)
        self._wake()
        self._place()
        self.refresh()

    # -- size -----------------------------------------------------------------------------------
    def fit(self) -> bool:
        """Resize the PTY to this pane (the program gets SIGWINCH); False if there is no PTY to fit."""
        session = self.session
        width, height = self.size
        if session is None or not session.pty or not session.running or width <= 0 or height <= 0:
            return False
        session.resize(width, height)
        return True

    @property
    def cropped(self) -> bool:
        """The PTY is larger than the pane: only part of it is shown, and the last row says so."""
        return self._cropped(*self.size)

    def _cropped(self, width: int, height: int) -> bool:
        # the size is asked once per row drawn: a widget's size is worked out anew at each asking
        if self.live is None:
            return False
        screen = self.live.screen
        return screen.cols > width or screen.rows > height

    def _place(self) -> bool:
        """Choose which part of a larger screen the pane shows, keeping the cursor in it as tmux does (the
        top left when the program hides its cursor, as ``top`` does); True if that changed."""
        origin = (0, 0)
        if self.live is not None and self.cropped and self.live.screen.cursor_visible:
            screen = self.live.screen
            x, y = screen.cursor_xy
            width, height = self.size.width, max(1, self.size.height - 1)  # the last row is the notice
            origin = (_offset(x, screen.cols, width), _offset(y, screen.rows, height))
        changed = origin != self.origin
        self.origin = origin
        return changed

    def _notice(self, width: int, height: int) -> Strip:
        screen = self.live.screen  # type: ignore[union-attr]
        ox, oy = self.origin
        shown_cols = min(width, screen.cols - ox)
        shown_rows = min(height - 1, screen.rows - oy)
        key = self._key_display("fit")
        return notice(f" {screen.cols}x{screen.rows} terminal, larger than the pane: cols {ox + 1}-{ox + shown_cols}, "
                      f"rows {oy + 1}-{oy + shown_rows} shown" + (f" · {key} fits it" if key else "") + " ", width,
                      self._base)  # type: ignore[arg-type]  # set by the first render_line

    # -- frames ---------------------------------------------------------------------------------
    def frame(self, budget_ms: float = BUDGET_MS) -> bool:
        """One frame: parse within ``budget_ms`` and repaint what changed; True while more waits (the frame
        clock calls again)."""
        live = self.live
        if self._painted_frame != self.frames:
            return True  # the last frame is not on screen yet: parsing more would be wasted
        if live is None or not self._pending:
            return False  # nothing new: sleep until output, a session or a resize wakes it
        if self.pager is not None:  # reading: the live view stands still; the history takes in what came
            self._pending = False
            if self.pager.advance(budget_ms):
                self.frames += 1
                self.refresh()
                if self.pager.found is not None:
                    self.post_message(Recounted())
            self._pending = self.pager.ready and self.pager.scrollback.behind > 0
            return self._pending
        self._pending = live.behind > 0
        size = (live.screen.cols, live.screen.rows)
        live.budget = budget_ms / 1000
        if not live.advance():
            return self._pending
        screen = live.screen
        rows = screen.take_dirty()
        cursor = screen.cursor_xy[1] if screen.cursor_visible else None
        if cursor != self._cursor_row:
            rows.update(r for r in (cursor, self._cursor_row) if r is not None)
            self._cursor_row = cursor
        moved = self._place()
        if not rows and not moved and size == (screen.cols, screen.rows):
            return self._pending
        self.frames += 1
        if moved or size != (screen.cols, screen.rows) or self.cropped:
            self.refresh()  # the part shown moved, or the notice changed with it
        else:
            self.refresh(*_row_spans(sorted(rows), self.size.width))
        return self._pending

    def _shown_size(self) -> tuple[int, int]:
        """The pane's size, worked out again only when the widget's outer size changed (a widget's ``size``
        is worked out anew at each asking, and the rows of four tiles ask it thousands of times a second)."""
        outer = self.outer_size
        if outer != self._sized_for:
            size = self.size
            self._sized_for, self._size_shown = outer, (size.width, size.height)
        return self._size_shown

    def render_line(self, y: int) -> Strip:
        self._painted_frame = self.frames
        width, height = self._shown_size()
        live = self.live
        base = self._base
        if base is None:  # computing rich_style is costly; it only changes with the CSS (focus, theme)
            base = self._base = self.rich_style
            self._styles = {}
        if live is None:
            return Strip.blank(width, base)
        if self.pager is not None:
            if y == height - 1:
                return self.pager.notice(width, base, self._key_display("follow"))
            return self.pager.render_line(y, width, base, self._styles)
        if y == height - 1 and self._cropped(width, height):
            return self._notice(width, height)
        ox, oy = self.origin
        row = y + oy
        if row >= live.screen.rows:
            return Strip.blank(width, base)
        show_cursor = self.session is not None and self.session.running
        styles = self._styles
        segments = [Segment(text, rich_style(style, base, styles))
                    for text, style in live.screen.row_runs(row, show_cursor)]
        strip = Strip(segments)
        return strip.crop_extend(ox, ox + width, base) if ox or strip.cell_length > width else \
            strip.adjust_cell_length(width, base)

    def _key_display(self, binding_id: str) -> str:
        """The key bound to ``binding_id`` as the footer shows it, looked up once per keymap: the last row
        names it at every frame, and the lookup walks every ancestor's bindings."""
        keymap, shown = self._keys_shown
        if keymap is not self.app._keymap:
            shown = {}
            self._keys_shown = (self.app._keymap, shown)
        if binding_id not in shown:
            shown[binding_id] = binding_key_display(self, binding_id)
        return shown[binding_id]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base = None
        self._sized_for = None  # the padding may have changed with the style

    def screen_text(self) -> str:
        """The visible screen as plain text, trailing blanks trimmed (for copying)."""
        if self.live is None:
            return ""
        return "\n".join(row.rstrip() for row in self.live.screen.display()).rstrip("\n")

    # -- type-through ---------------------------------------------------------------------------
    def can_type(self) -> bool:
        return self.session is not None and self.session.pty and self.session.stdin_writable

    def leave_bindings(self) -> list[Binding]:
        """The leave-type-through binding(s) with the keys the app's keymap gives them.

        Textual applies a keymap to a copy of the bindings each time it looks them up, so the remapped
        keys are found the same way: the footer's source, and so the key the banner names.
        """
        bindings = BindingsMap([b for _, b in self._bindings if b.id == "leave-type-through"])
        bindings.apply_keymap(self.app._keymap)
        return [b for _, b in bindings]

    @property
    def leave_key_display(self) -> str:
        """The leave key as the footer shows it (``ctrl+]`` unless remapped)."""
        return binding_key_display(self, "leave-type-through") or LEAVE_KEY_DISPLAY

    def enter_type_through(self) -> bool:
        if not self.can_type():
            return False
        self.follow()  # typing goes to the live program: the view shows it
        self._leave_keys = {b.key for b in self.leave_bindings()} or {LEAVE_KEY}
        self._leave_keys |= kept_keys(self)
        self.type_through = True
        self.focus()
        return True

    def action_leave_type_through(self) -> None:
        self.type_through = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_type_through":
            return self.type_through
        return True

    def watch_type_through(self, active: bool) -> None:
        if active and self.session is not None:
            self._restore = (self.session, self.session.pty_size)
            self.call_after_refresh(self._fit_if_typing)  # once the banner has taken its row
        elif not active and self._restore is not None:
            session, size = self._restore
            self._restore = None
            if session.running:
                session.resize(*size)
        self.post_message(self.TypeThroughChanged(active))

    def _fit_if_typing(self) -> None:
        if self.type_through:
            self.fit()

    def type_key(self, event: events.Key) -> bool:
        """Send a key event to the session if type-through is on; False (not taken) for the leave key."""
        if not self.type_through or self.session is None:
            return False
        if event.key in self._leave_keys or event.character in self._leave_keys:
            return False  # left to the binding (remappable, so looked up in the app's keymap)
        data = key_event_bytes(event.key, event.character, self.session.tracked_modes.app_cursor)
        if data:
            self.follow()  # a key typed while scrolled back goes with the view back to the live screen
            self._send(data, "type")
        return True

    def on_key(self, event: events.Key) -> None:
        # The app normally hands keys over before they reach here (see DashboardApp.on_event).
        if self.type_key(event):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if not self.type_through or self.session is None:
            return
        event.stop()
        event.prevent_default()
        if event.text:
            self._send(paste_bytes(event.text, self.session.tracked_modes.bracketed_paste), "paste")

    def _send(self, data: bytes, action: str) -> None:
        session = self.session
        if session is None or not session.stdin_writable:
            self.type_through = False
            return
        if not self._sending:  # no earlier key still on its way: this one may go at once, as it mostly can
            try:
                if self.host.send_input_now(session.id, data, "operator", action) is not None:
                    return
            except InputRefused as exc:
                self.notify(str(exc), severity="error", markup=False)
                return
        task = asyncio.ensure_future(self._deliver(session.id, data, action))  # keeps the keys' order
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _deliver(self, session_id: str, data: bytes, action: str) -> None:
        try:
            await self.host.send_input(session_id, data, "operator", action)
        except InputRefused as exc:
            self.notify(str(exc), severity="error", markup=False)
