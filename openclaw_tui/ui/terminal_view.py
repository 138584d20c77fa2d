"""The terminal widget: a PTY session drawn from the terminal engine with Textual's Line API.

A :class:`~openclaw_tui.terminal.LiveView` keeps a screen current with the session's raw output; this
widget advances it at most ``FPS`` times a second, only when output arrived and the previous frame is on
screen, then refreshes just the rows the screen marked dirty (plus the rows the cursor left and entered). Each row is a few
``(text, Style)`` runs; terminal styles are converted to Rich styles once and cached. The PTY follows
the widget's size. In type-through mode every key and paste goes to the session as the operator's
input; Ctrl+] (the telnet escape, which programs rarely need) leaves it, or the key the keymap binds.
"""

from __future__ import annotations

from typing import ClassVar

from rich.color import Color
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingsMap, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..core.keys import paste_bytes
from ..core.session import Session
from ..terminal import LiveView, Style
from .keymap import key_event_bytes

FPS = 40  # frame cap; headroom above the 30 paints/s the dashboard must keep during a flood
BUDGET_MS = 8.0
LEAVE_KEY = "ctrl+right_square_bracket"
LEAVE_KEY_DISPLAY = "ctrl+]"


def _colour(value: int | str | None) -> Color | None:
    if value is None:
        return None
    if isinstance(value, int):
        return Color.from_ansi(value)
    return Color.parse(value)


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


class TerminalView(Widget, can_focus=True):
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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: Session | None = None
        self.live: LiveView | None = None
        self._pending = False
        self._cursor_row: int | None = None
        self._styles: dict[Style, RichStyle] = {}
        self._base: RichStyle | None = None
        self.frames = 0  # frames that changed the screen (refresh requested)
        self.paints = 0  # frames that were actually drawn (render_line ran for them)
        self._painted_frame = 0
        self._leave_keys = {LEAVE_KEY}

    def on_mount(self) -> None:
        self.set_interval(1 / FPS, self._frame)

    # -- session --------------------------------------------------------------------------------
    def attach(self, session: Session | None) -> None:
        if session is self.session:
            return
        self.type_through = False
        if self.live is not None:
            self.live.close()
            self.live = None
        self.session = session
        self._cursor_row = None
        self._start_live()
        self.refresh()

    def _start_live(self) -> None:
        width, height = self.size
        if self.session is None or self.live is not None or width <= 0 or height <= 0:
            return
        self.live = LiveView(self.session, width, height, budget_ms=BUDGET_MS, on_output=self._mark)
        self._pending = True

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        if width <= 0 or height <= 0:
            return
        if self.live is None:
            self._start_live()
        elif (width, height) != (self.live.screen.cols, self.live.screen.rows):
            self.live.resize(width, height)
            self._pending = True
        self.refresh()

    def on_unmount(self) -> None:
        if self.live is not None:
            self.live.close()
            self.live = None

    def _mark(self) -> None:
        self._pending = True

    # -- frames ---------------------------------------------------------------------------------
    def _frame(self) -> None:
        live = self.live
        if live is None or not self._pending or self._painted_frame != self.frames:
            return  # nothing new, or the last frame is not on screen yet: parsing more would be wasted
        self._pending = live.behind > 0
        if not live.advance():
            return
        screen = live.screen
        rows = screen.take_dirty()
        cursor = screen.cursor_xy[1] if screen.cursor_visible else None
        if cursor != self._cursor_row:
            rows.update(r for r in (cursor, self._cursor_row) if r is not None)
            self._cursor_row = cursor
        if not rows:
            return
        self.frames += 1
        self.refresh(*_row_spans(sorted(rows), self.size.width))

    def render_line(self, y: int) -> Strip:
        if self.frames != self._painted_frame:
            self._painted_frame = self.frames
            self.paints += 1
        width = self.size.width
        live = self.live
        base = self._base
        if base is None:  # computing rich_style is costly; it only changes with the CSS (focus, theme)
            base = self._base = self.rich_style
            self._styles = {}
        if live is None or y >= live.screen.rows:
            return Strip.blank(width, base)
        show_cursor = self.session is not None and self.session.running
        styles = self._styles
        segments = []
        for text, style in live.screen.row_runs(y, show_cursor):
            rich = styles.get(style)
            if rich is None:
                rich = styles[style] = base + RichStyle(
                    color=_colour(style.fg), bgcolor=_colour(style.bg), bold=style.bold, dim=style.dim,
                    italic=style.italic, underline=style.underline, reverse=style.reverse,
                    strike=style.strikethrough,
                )
            segments.append(Segment(text, rich))
        return Strip(segments).adjust_cell_length(width, base)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base = None

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
        found = self.leave_bindings()
        return self.app.get_key_display(found[0]) if found else LEAVE_KEY_DISPLAY

    def enter_type_through(self) -> bool:
        if not self.can_type():
            return False
        self._leave_keys = {b.key for b in self.leave_bindings()} or {LEAVE_KEY}
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
        self.post_message(self.TypeThroughChanged(active))

    def type_key(self, event: events.Key) -> bool:
        """Send a key event to the session if type-through is on; False (not taken) for the leave key."""
        if not self.type_through or self.session is None:
            return False
        if event.key in self._leave_keys or event.character in self._leave_keys:
            return False  # left to the binding (remappable, so looked up in the app's keymap)
        data = key_event_bytes(event.key, event.character, self.session.modes.app_cursor)
        if data:
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
            self._send(paste_bytes(event.text, self.session.modes.bracketed_paste), "paste")

    def _send(self, data: bytes, action: str) -> None:
        session = self.session
        if session is None or not session.stdin_writable:
            self.type_through = False
            return
        try:
            session.send(data, "operator", action)
        except (BufferError, BrokenPipeError) as exc:
            self.notify(f"could not send to {session.id}: {exc}", severity="error")
