"""One marked session's live view among the tiles: its title (id, command, status, the waiting marker) in
its top border, which stands out while the tile has the focus."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from openclaw_tui.remote.mirror import HostView, SessionView

from ..sessions.rows import WAIT_MARK, end_label, failed, state_of
from ..sessions.stream_log import StreamLog
from ..sessions.terminal_view import TerminalView

TYPING_STYLE = "bold black on #ffaf00"


class Tile(Vertical, can_focus=False):
    """Shows ``session``: a PTY session through the terminal widget (at the PTY's size, cropped as the single
    view crops it), a pipe session through the stream log."""

    def __init__(self, host: HostView, session: SessionView) -> None:
        super().__init__(classes="tile")
        self.host = host
        self.session = session
        self._title: Text | None = None
        self._body: TerminalView | StreamLog = TerminalView(host) if session.pty else StreamLog()

    def compose(self) -> ComposeResult:
        yield self._body

    def on_mount(self) -> None:
        self.body.attach(self.session)
        if isinstance(self.body, StreamLog):
            self.call_after_refresh(self.body.follow)  # laid out now: the end of what came before is on view
        self.refresh_title()

    @property
    def body(self) -> TerminalView | StreamLog:
        return self._body

    @property
    def terminal(self) -> TerminalView | None:
        body = self.body
        return body if isinstance(body, TerminalView) else None

    @property
    def typing(self) -> bool:
        terminal = self.terminal
        return terminal is not None and terminal.type_through

    def detach(self) -> None:
        """Let go of the session before the tile goes: a terminal gives back the size it had before typing."""
        terminal = self.terminal
        if terminal is not None:
            terminal.type_through = False
        self.body.attach(None)

    def output_arrived(self) -> None:
        body = self.body
        if isinstance(body, StreamLog):
            body.sync()

    def refresh_title(self) -> None:
        """The border's title: on changes and each second (the status, the waiting marker, type-through)."""
        current = self.host.session(self.session.id)
        session = self.session = current or self.session
        state = state_of(session) if current is not None else "removed"  # cleared or removed: as last seen
        end = end_label(session)
        title = Text()
        if state == "waiting":
            title.append(f"{WAIT_MARK} ", style="bold #ffaf00")
        title.append(session.id, style="bold")
        title.append(f" · {session.name} · ")
        title.append(state, style="bold #ffaf00" if state == "waiting" else "bold")
        if end:
            title.append(f" {end}", style="bold red" if failed(session) else "")
        terminal = self.terminal
        if terminal is not None and terminal.type_through:
            title.append(" ")
            title.append(f" TYPE-THROUGH · {terminal.leave_key_display} leaves ", style=TYPING_STYLE)
        if title != self._title:
            self._title = title
            self.border_title = title
