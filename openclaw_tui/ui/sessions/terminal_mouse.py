"""The terminal widget's mouse: reports to a program that asked for them while the operator types through,
else the dashboard's scrolling and selection."""

from __future__ import annotations

from typing import Any

from textual import events

from openclaw_tui.terminal import Act, mouse_report, tracking

WHEEL_LINES = 3
_BUTTONS = {1: 0, 2: 1, 3: 2}  # Textual's button numbers -> a mouse report's


class TerminalMouse:
    """Mixed into :class:`~.terminal_view.TerminalView`: Textual finds these handlers along its classes."""

    def _report(self, act: Act, button: int, event: events.MouseEvent) -> bool:
        """Send the program a mouse report, if it asked for them and the operator types through; True if
        the event went to the program. With shift held, the mouse is the dashboard's (or the terminal's)."""
        view: Any = self  # the TerminalView this is mixed into
        session = view.session
        if not view.type_through or session is None or event.shift:
            return False
        modes = session.tracked_modes.modes
        if tracking(modes) is None:
            return False
        x, y = event.x + view.origin[0], event.y + view.origin[1]
        data = mouse_report(modes, act, button, x, y, held=bool(view._buttons), meta=event.meta, ctrl=event.ctrl)
        if data:
            view._send(data, "mouse")
        return True

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        view: Any = self  # the TerminalView this is mixed into
        event.stop()
        if not view._report(Act.PRESS, 64, event):
            view.scroll_lines(-WHEEL_LINES)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        view: Any = self  # the TerminalView this is mixed into
        event.stop()
        if not view._report(Act.PRESS, 65, event):
            if view.pager is not None and view.pager.back <= WHEEL_LINES and not view.selection:
                view.follow()
            else:
                view.scroll_lines(WHEEL_LINES)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        view: Any = self  # the TerminalView this is mixed into
        button = _BUTTONS.get(event.button, 0)
        if view._report(Act.PRESS, button, event):
            view._buttons |= 1 << button
            return
        view.selection_press(event)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        view: Any = self  # the TerminalView this is mixed into
        if view._report(Act.MOTION, _BUTTONS.get(event.button, 0), event):
            return
        view.selection_drag(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        view: Any = self  # the TerminalView this is mixed into
        button = _BUTTONS.get(event.button, 0)
        if view._report(Act.RELEASE, button, event):
            view._buttons &= ~(1 << button)
            return
        view.selection_release(event)

    def on_click(self, event: events.Click) -> None:
        view: Any = self  # the TerminalView this is mixed into
        if not (view.type_through and view.session is not None and tracking(view.session.tracked_modes.modes)):
            view.selection_click(event)
