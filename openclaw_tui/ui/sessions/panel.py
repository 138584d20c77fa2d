"""The selected session: a title line, its output, and the last inputs with who sent them.

Only the body on screen is attached to its session, so a session nobody looks at costs the UI nothing.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ContentSwitcher, Label, Static

from openclaw_tui.remote.mirror import HostView, SessionView
from openclaw_tui.terminal import Found, SearchError, compile_search

from .. import clock
from ..line import TextLine
from ..reading.searchbar import Recounted, SearchBar
from .inputs import input_preview
from .log_pane import LogPane
from .rows import agent_label, end_label, failed, state_of, where_label
from .stream_log import StreamLog
from .terminal_view import TerminalView

LOG_REFRESH_S = 1.0


class SessionPanel(Vertical):
    """Shows ``session`` (or a hint when there is none)."""

    def __init__(self, host: HostView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.host = host
        self.session: SessionView | None = None
        self.log_mode = False
        self._log_dirty = False

    def compose(self) -> ComposeResult:
        yield TextLine(id="view-title")
        yield Label("", id="type-through-banner")
        with ContentSwitcher(initial="view-empty", id="view-body"):
            yield Static("No session selected. Press n to start a command.", id="view-empty")
            yield TerminalView(self.host, id="terminal")
            yield StreamLog(id="stream")
            yield LogPane(self.host, id="log-pane")
        yield SearchBar(id="search")
        yield TextLine(id="view-inputs")

    def on_mount(self) -> None:
        self.set_interval(LOG_REFRESH_S, self._refresh_log)

    @property
    def terminal(self) -> TerminalView:
        return self.query_one(TerminalView)

    @property
    def stream(self) -> StreamLog:
        return self.query_one(StreamLog)

    @property
    def log_pane(self) -> LogPane:
        return self.query_one(LogPane)

    @property
    def body(self) -> TerminalView | StreamLog | LogPane | None:
        """The view of the session's output on screen (None: no session)."""
        views: dict[str, TerminalView | StreamLog | LogPane] = {"terminal": self.terminal, "stream": self.stream,
                                                                "log-pane": self.log_pane}
        return views.get(self.query_one(ContentSwitcher).current or "")

    @property
    def searching(self) -> bool:
        """A search is on (its matches highlighted), whether or not its input is open."""
        body = self.body
        return body is not None and _found(body) is not None

    async def show(self, session: SessionView | None) -> None:
        self.session = session
        self.end_search()
        await self._switch()
        self.refresh_info()

    # -- search ---------------------------------------------------------------------------------
    def open_search(self) -> bool:
        if self.body is None:
            return False
        self.query_one(SearchBar).open()
        return True

    def end_search(self) -> None:
        """No search any more: the input closes and the matches are no longer marked."""
        bar = self.query_one(SearchBar)
        bar.display = False
        body = self.body
        if body is not None and _found(body) is not None:
            body.search(None)

    def on_search_bar_changed(self, event: SearchBar.Changed) -> None:
        event.stop()
        body = self.body
        if body is None:
            return
        try:
            pattern = compile_search(event.text, event.regex)
        except SearchError as exc:
            body.search(None)
            self.query_one(SearchBar).show_count("", str(exc))
            return
        self._count(body.search(pattern))

    def on_search_bar_step(self, event: SearchBar.Step) -> None:
        event.stop()
        self.step_search(older=True)

    def on_search_bar_closed(self, event: SearchBar.Closed) -> None:
        event.stop()
        if self.body is not None:
            self.body.focus()  # where n and N step through the matches

    def on_recounted(self, event: Recounted) -> None:
        event.stop()
        body = self.body
        if body is not None:
            self._count(_found(body))

    def step_search(self, older: bool) -> None:
        body = self.body
        if body is not None:
            self._count(body.search_step(older))

    def _count(self, found: Found | None) -> None:
        self.query_one(SearchBar).show_count(found.label if found is not None else "")

    async def toggle_log(self) -> None:
        self.end_search()
        self.log_mode = not self.log_mode
        await self._switch()
        if self.log_mode:
            self.log_pane.focus()

    async def _switch(self) -> None:
        session = self.session
        body = "view-empty"
        if session is not None:
            body = "log-pane" if self.log_mode else ("terminal" if session.pty else "stream")
        self.terminal.attach(session if body == "terminal" else None)
        self.stream.attach(session if body == "stream" else None)
        if body == "log-pane":
            await self.log_pane.show(session.id if session else None)
        self.query_one(ContentSwitcher).current = body

    def output_arrived(self, session_id: str) -> None:
        """New output for ``session_id``: the stream log pulls it now; the log pane on its next tick."""
        if self.session is None or self.session.id != session_id:
            return
        if self.stream.session is not None:
            self.stream.sync()
        self._log_dirty = True

    async def _refresh_log(self) -> None:
        if self.log_mode and self._log_dirty and self.log_pane.following:
            self._log_dirty = False
            await self.log_pane.load()

    def set_type_through(self, active: bool) -> None:
        """Show or hide the banner; it names the leave key as bound now (the keymap may remap it)."""
        banner = self.query_one("#type-through-banner", Label)
        if active:
            key = self.terminal.leave_key_display
            banner.update(f" TYPE-THROUGH  every key goes to the session - press {key} to leave ")
        banner.display = active

    def refresh_info(self) -> None:
        """Title (id, name, agent, state, runtime, io, cwd) and the last inputs; called on changes and each second."""
        title = self.query_one("#view-title", TextLine)
        inputs = self.query_one("#view-inputs", TextLine)
        session = self.session
        if session is None:
            title.show(Text.assemble(" ", ("no session", "dim")))
            inputs.show(Text())
            return
        state = state_of(session)
        end = end_label(session)
        where = where_label(session)
        pieces = [
            (session.id, "bold"), (f"· {session.name} · {agent_label(session)} ·", ""),
            (state, "bold #ffaf00" if state == "waiting" else "bold"),
            *([(end, "bold red" if failed(session) else "")] if end else []),
            (f"· {clock.format_runtime(clock.runtime_ms(session))} · {'pty' if session.pty else 'pipe'} ·", ""),
            (where.plain, where.style), (f"· {session.cwd}", "dim"),
        ]
        text = Text(" ")
        for n, (words, style) in enumerate(pieces):  # the space after a piece is its own: no run of text
            text.append(words + (" " if n + 1 < len(pieces) else ""), style=style)  # starts with a blank
        text.no_wrap, text.overflow = True, "ellipsis"
        title.show(text)
        inputs.show(self._inputs_line(session))

    @staticmethod
    def _inputs_line(session: SessionView) -> Text:
        line = Text(" ")
        line.append("inputs: ", style="dim")
        records = list(session.inputs)[-3:]  # keystrokes typed through are one record per line already
        if not records:
            line.append("none", style="dim")
        for rec in reversed(records):  # newest first, each by its end: what was typed last
            line.append(rec.source, style="bold cyan" if rec.source == "operator" else "bold magenta")
            shown = input_preview(rec.preview)
            line.append(f" {rec.action} {shown if len(shown) <= 24 else '…' + shown[-23:]}")
            line.append("   ")
        return line


def _found(body: TerminalView | StreamLog | LogPane) -> Found | None:
    if isinstance(body, TerminalView):
        return body.pager.found if body.pager is not None else None
    return body.found
