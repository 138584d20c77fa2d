"""The workspace: sessions pane over session view, and the operator's actions on the selected session.

Every action goes through ``host.call(..., agent=None)`` exactly as an agent's would, except type-through
keystrokes, which take the host's input path directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input

from openclaw_tui.core.session import Status
from openclaw_tui.remote.mirror import HostView, SessionView

from ..clipboard import copy_notice, save_copy, tmux_set_clipboard
from ..dialogs import ConfirmDialog, PasteDialog, SendKeysDialog
from ..reading.linelog import LineLog
from ..reading.paint import binding_key_display
from ..tiles import MAX_TILES, TileGrid
from .filters import FilterBar
from .list import SessionList
from .pane import SessionsPane
from .panel import SessionPanel
from .terminal_view import TerminalView

_SESSION_ACTIONS = {"type_through", "send_keys", "submit", "paste", "kill", "clear", "remove", "copy", "toggle_log",
                    "fit", "toggle_mute", "export", "search", "search_step", "zoom", "mark", "tile"}


_NOT_TILED = {"toggle_log", "search", "search_step", "zoom", "mark"}  # the single view's own, or the list's
LIST_SHARE = (12, 0.6)  # the sessions pane is never taller than its rows, nor than 12 rows or 60% of the workspace


class Workspace(Vertical):
    """Owns the per-session key bindings; ``sync`` is called whenever sessions change."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "type_through", "Type-through", id="type-through"),
        Binding("k", "send_keys", "Keys", id="send-keys"),
        Binding("s", "submit", "Submit", id="submit"),
        Binding("p", "paste", "Paste", id="paste"),
        Binding("x", "kill", "Kill", id="kill"),
        Binding("c", "clear", "Clear", id="clear"),
        Binding("r", "remove", "Remove", id="remove"),
        Binding("y,ctrl+c", "copy", "Copy", id="copy"),
        Binding("l", "toggle_log", "Log", id="log"),
        Binding("equals_sign", "fit", "Fit", id="fit"),
        Binding("m", "toggle_mute", "Mute", id="mute"),
        Binding("e", "export", "Export", id="export"),
        Binding("ctrl+f", "search", "Search", id="search"),
        Binding("n", "search_step(True)", "Next match", id="search-next"),
        Binding("N", "search_step(False)", "Previous match", id="search-previous"),
        Binding("pageup,shift+pageup", "scroll(-1)", "Back", id="scroll-up", show=False),
        Binding("pagedown,shift+pagedown", "scroll(1)", "Forward", id="scroll-down", show=False),
        Binding("end,escape", "follow", "Follow", id="follow", priority=True),
        Binding("z", "zoom", "Zoom", id="zoom"),
        Binding("space", "mark", "Mark", id="mark"),
        Binding("v", "tile", "Tile", id="tile"),
    ]

    def __init__(self, host: HostView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.host = host
        self._type_into: str | None = None  # a new session to type into once it is on view
        self.marked: list[str] = []  # the sessions v tiles, in the order they were marked
        self._terminal: TerminalView | None = None
        self._typing_tile: TerminalView | None = None

    def compose(self) -> ComposeResult:
        yield SessionsPane(id="sessions")
        yield SessionPanel(self.host, id="session-view")
        yield TileGrid(self.host, id="tiles")

    def on_mount(self) -> None:
        self._terminal = self.view.terminal
        self.query_one(SessionList).focus()

    @property
    def view(self) -> SessionPanel:
        return self.query_one(SessionPanel)

    @property
    def selected(self) -> SessionView | None:
        """The session on view, if it is also the list's highlighted row (else None).

        The view follows the list by message, so for a moment after a filter change it may still show a
        session the list no longer does; actions must never reach a session that is not shown.
        """
        if self.tiled:  # the focused tile's
            tile = self.tiles.focused_tile
            if tile is None:
                return None
            return self.host.session(tile.session.id) or tile.session
        session = self.view.session
        if session is None or session.id != self.query_one(SessionList).selected_id:
            return None
        return session

    @property
    def type_through(self) -> bool:
        terminal = self.keys_to  # asked by the footer too, even while the app closes
        return terminal is not None and terminal.type_through

    @property
    def keys_to(self) -> TerminalView | None:
        """The terminal type-through keys go to while it is on: the single view's, or a tile's."""
        return self._typing_tile if self.tiled else self._terminal

    @property
    def tiled(self) -> bool:
        return self.has_class("-tiled")

    @property
    def tiles(self) -> TileGrid:
        return self.query_one(TileGrid)

    def sync(self, sessions: Sequence[SessionView]) -> None:
        self.query_one(SessionsPane).show(sessions, self.host.node_states)
        self._fit_list()
        self.view.refresh_info()
        marked = [m for m in self.marked if self.host.session(m) is not None]
        if marked != self.marked:
            self.marked = marked
            self.query_one(SessionList).show_marks(marked)
        if self.tiled:
            self.tiles.refresh_titles()
            return
        shown = self.view.session
        if shown is not None and self.host.session(shown.id) not in (shown, None):
            # its node answers again, over a new mirror: view the live session, not the one last seen
            self.run_worker(self.view.show(self.host.session(shown.id)), group="view", exclusive=True)

    def on_resize(self) -> None:
        self._fit_list()

    def on_filter_bar_changed(self, event: FilterBar.Changed) -> None:
        # not stopped: the app's header counts the agent the filter chose
        self._fit_list()

    def _fit_list(self) -> None:
        """The sessions pane takes its rows (the filter bar, the header, a row per session) up to its share,
        and the session view the rest."""
        rows, share = LIST_SHARE
        pane = self.query_one(SessionsPane)
        wanted = 2 + max(1, pane.session_list.rows_wanted())
        height = max(3, min(wanted, rows, int(self.size.height * share) if self.size.height else rows))
        if pane.styles.height is None or pane.styles.height.value != height:
            pane.styles.height = height

    def output_arrived(self, session_id: str) -> None:
        """New output for ``session_id``: the views that pull it (a pipe session's stream log) take it now."""
        if self.tiled:
            self.tiles.output_arrived(session_id)
        else:
            self.view.output_arrived(session_id)

    def select(self, session_id: str) -> bool:
        """Move the list cursor to ``session_id``; False if it is not (yet) listed."""
        return self.query_one(SessionList).select(session_id)

    def show_new(self, session_id: str, type_into: bool = False) -> None:
        """Select a session the operator just started; ``type_into``: enter type-through once it is on view."""
        self._type_into = session_id if type_into else None
        if self.select(session_id) and self.selected is not None and self.selected.id == session_id:
            self._type_into_new()

    async def on_session_list_selected(self, event: SessionList.Selected) -> None:
        event.stop()
        if self.tiled:
            return  # the single view shows the list's session again when the tiles go
        session = self.host.session(event.session_id) if event.session_id else None
        await self.view.show(session)
        self._type_into_new()

    def _type_into_new(self) -> None:
        session = self.selected
        if session is not None and session.id == self._type_into:
            self._type_into = None
            if session.stdin_writable:
                self.view.terminal.enter_type_through()

    def on_terminal_view_type_through_changed(self, event: TerminalView.TypeThroughChanged) -> None:
        event.stop()
        if self.tiled:
            self._typing_tile = self.tiles.typing
            self.tiles.refresh_titles()
            self.refresh_bindings()
            self.app.refresh_bindings()
            return
        self.view.set_type_through(event.active)
        selected = self.selected
        self.query_one(SessionsPane).pin(selected.id if event.active and selected is not None else None)
        if not event.active and self.view.terminal.has_focus:
            self.query_one(SessionList).focus()
        self.refresh_bindings()
        self.app.refresh_bindings()

    def session_ended(self, session_id: str) -> None:
        if self.tiled:
            for tile in self.tiles.tiles:
                if tile.session.id == session_id and tile.terminal is not None:
                    tile.terminal.type_through = False
            self.tiles.refresh_titles()
            return
        if self.selected is not None and self.selected.id == session_id:
            self.view.terminal.type_through = False
            self.view.refresh_info()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _SESSION_ACTIONS and self.type_through:
            return False  # keys belong to the session then
        if action in _NOT_TILED and self.tiled:
            return False
        if action == "follow":
            return self._reading() and not isinstance(self.screen.focused, Input)
        if action == "search_step":
            return self.view.searching
        return True

    # -- reading the output ---------------------------------------------------------------------
    @property
    def zoomed(self) -> bool:
        return self.has_class("-zoomed")

    def _body(self) -> TerminalView | LineLog | None:
        """The view of output the reading keys act on: the single view's, or the focused tile's."""
        if self.tiled:
            tile = self.tiles.focused_tile
            return tile.body if tile is not None else None
        return self.view.body

    def _terminal_of(self) -> TerminalView | None:
        """The terminal widget the session keys act on (None: a pipe session, or nothing on view)."""
        body = self._body()
        return body if isinstance(body, TerminalView) else None

    def _reading(self) -> bool:
        """The view is scrolled back, searched or selected in, rather than following the output."""
        body = self._body()
        if isinstance(body, TerminalView):
            return body.reading or body.selection is not None
        return body is not None and (not body.following or body.found is not None or body.selection is not None)

    def action_scroll(self, direction: int) -> None:
        body = self._body()
        if body is not None:
            reading = self._reading()
            body.scroll_page(direction)
            if self._reading() != reading:  # the footer changes only when the follow key comes or goes
                self.refresh_bindings()

    def action_follow(self) -> None:
        """Back to live: the search ends, the selection goes, the view follows the output again."""
        self.view.end_search()
        body = self._body()
        if body is not None:
            body.selection = None
            body.follow()
        self.refresh_bindings()

    def action_search(self) -> None:
        if not self.view.open_search():
            self.notify("No session selected.", severity="warning")
        self.refresh_bindings()

    def action_search_step(self, older: bool) -> None:
        self.view.step_search(older)

    def action_zoom(self) -> None:
        """The session's view over the whole workspace (the header and footer stay), or back."""
        zoomed = not self.zoomed
        self.set_class(zoomed, "-zoomed")
        body = self._body()
        if zoomed and body is not None:
            body.focus()
        elif not zoomed:
            self.query_one(SessionList).focus()

    # -- helpers --------------------------------------------------------------------------------
    def _target(self, need_input: bool = False) -> SessionView | None:
        session = self.selected
        if session is None:
            self.notify("No session selected.", severity="warning")
            return None
        if need_input and not session.stdin_writable:
            if not session.running:
                why = f"{session.id} has ended: it cannot take input."
            else:
                why = (f"{session.id} runs on pipes with stdin closed, so it cannot take input; run interactive "
                       "programs with pty.")
            self.notify(why, severity="warning")
            return None
        return session

    async def _process(self, action: str, session: SessionView, **params: Any) -> dict[str, Any]:
        res = await self.host.call({"tool": "process", "action": action, "sessionId": session.id, **params}, agent=None)
        if res["details"].get("status") == Status.FAILED:
            self.notify(res["text"], title=f"{action} failed", severity="error")
        return res

    # -- actions --------------------------------------------------------------------------------
    async def action_type_through(self) -> None:
        session = self._target(need_input=True)
        if session is None:
            return
        if self.view.log_mode and not self.tiled:
            await self.view.toggle_log()
        terminal = self._terminal_of()
        if not session.pty or terminal is None or not terminal.enter_type_through():
            self.notify(f"{session.id} is not a PTY session; type-through needs a terminal.", severity="warning")

    def action_send_keys(self) -> None:
        session = self._target(need_input=True)
        if session is None:
            return

        async def send(tokens: list[str] | None) -> None:
            if tokens:
                await self._process("send-keys", session, keys=tokens)

        self.app.push_screen(SendKeysDialog(session.id), send)

    async def action_submit(self) -> None:
        session = self._target(need_input=True)
        if session is not None:
            await self._process("submit", session)

    def action_paste(self) -> None:
        session = self._target(need_input=True)
        if session is None:
            return
        bracketed = session.tracked_modes.bracketed_paste

        async def send(text: str | None) -> None:
            if text:
                await self._process("paste", session, text=text, bracketed=bracketed)

        self.app.push_screen(PasteDialog(session.id, bracketed), send)

    def action_kill(self) -> None:
        session = self._target()
        if session is None:
            return
        if not session.running:
            self.notify(f"{session.id} has already ended; use c to clear it.", severity="warning")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._process("kill", session), group="actions")

        self.app.push_screen(ConfirmDialog(f"Kill {session.id} ({session.name})?\nIts whole process group is "
                                           "terminated (SIGTERM, then SIGKILL).", yes="Kill", title="Kill session"),
                             answer)

    async def action_clear(self) -> None:
        session = self._target()
        if session is not None:
            await self._process("clear", session)

    def action_remove(self) -> None:
        session = self._target()
        if session is None:
            return
        if not session.running:
            self.run_worker(self._process("remove", session), group="actions")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._process("remove", session), group="actions")

        self.app.push_screen(ConfirmDialog(f"{session.id} is still running. Kill and remove it?", yes="Remove",
                                           title="Remove session"), answer)

    async def action_copy(self) -> None:
        """Send the text to the clipboard (OSC 52), save it to a file, and say what is known of each."""
        session = self._target()
        if session is None:
            return
        view = self.view
        body = self._body()
        selected = body.selected_text() if body is not None else None
        if selected:
            text, what = selected, "selection"
        elif view.log_mode and not self.tiled:
            text, what = view.log_pane.text, "log-page"
        elif isinstance(body, TerminalView):
            text, what = body.screen_text(), "screen"
        else:
            text, what = session.output.full_text(), "log"
        self.app.copy_to_clipboard(text)
        saved, error = None, ""
        try:
            saved = save_copy(text, f"{session.id}-{what}")
        except OSError as exc:
            error = str(exc)
        message, severity = copy_notice(f"the {what.replace('-', ' ')} of {session.id}", len(text.splitlines()),
                                        await tmux_set_clipboard(), saved, error)
        self.notify(message, title="Copy", severity=severity, timeout=12, markup=False)

    def action_fit(self) -> None:
        """Resize the selected PTY to the pane: the one thing besides type-through that resizes it."""
        session = self._target()
        terminal = self._terminal_of()
        if session is not None and (terminal is None or not terminal.fit()):
            self.notify(f"{session.id} has no running terminal to fit.", severity="warning")

    async def action_toggle_mute(self) -> None:
        """Mute the selected session's notifications (the host's hooks, the bell, the notice line), or
        unmute it; the host keeps the mute across restarts."""
        session = self._target()
        if session is None:
            return
        res = await self.host.mute(not session.muted, session.id)
        failed = res["details"].get("status") == "failed"
        self.notify(res["text"], title="Mute", severity="error" if failed else "information", markup=False)

    async def action_export(self) -> None:
        """Save the selected session's recording (asciicast for a PTY, timed text for pipes) where the host
        keeps its state, named after the session; the notice says where."""
        session = self._target()
        if session is None:
            return
        res = await self._process("export", session)
        if res["details"].get("status") != Status.FAILED:
            self.notify(f"Saved {session.id}'s recording to {res['details']['path']}", title="Export",
                        timeout=12, markup=False)

    async def action_toggle_log(self) -> None:
        if self._target() is not None:
            await self.view.toggle_log()
            if not self.view.log_mode:
                self.query_one(SessionList).focus()  # back where the arrows move the selection

    # -- several sessions at once ---------------------------------------------------------------
    def action_mark(self) -> None:
        """Mark the selected session to be tiled, or unmark it."""
        session = self._target()
        if session is None:
            return
        if session.id in self.marked:
            self.marked.remove(session.id)
            said = f"{session.id} unmarked"
        else:
            self.marked.append(session.id)
            said = f"{session.id} marked"
        self.query_one(SessionList).show_marks(self.marked)
        count = len(self.marked)
        key = binding_key_display(self, "tile") or "v"
        more = (f"{count} marked; {key} tiles them" + (f" (the first {MAX_TILES})" if count > MAX_TILES else "")
                if count > 1 else f"{count} marked; mark another to tile" if count else "none marked")
        self.notify(f"{said}: {more}.", title="Mark", markup=False)

    async def action_tile(self) -> None:
        """Show up to four marked sessions at once, or go back to the list and the single view."""
        if self.tiled:
            await self.tiles.show([])
            self._typing_tile = None
            self.set_class(False, "-tiled")
            listed = self.query_one(SessionList).selected_id
            await self.view.show(self.host.session(listed) if listed else None)
            self.query_one(SessionList).focus()
            self.refresh_bindings()
            return
        sessions = [s for m in self.marked if (s := self.host.session(m)) is not None]
        mark = binding_key_display(self, "mark") or "space"
        if len(sessions) < 2:
            why = (f"only {sessions[0].id} is marked, and tiles need two ({binding_key_display(self, 'zoom') or 'z'} "
                   "zooms one session)" if sessions else "no session is marked")
            self.notify(f"Nothing to tile: {why}. {mark} marks the selected session; mark two to "
                        f"{MAX_TILES}.", title="Tile", severity="warning", markup=False)
            return
        if len(sessions) > MAX_TILES:
            self.notify(f"{len(sessions)} sessions are marked: the first {MAX_TILES} marked are tiled.", title="Tile",
                        markup=False)
        self.set_class(True, "-tiled")
        await self.view.show(None)  # only what is on screen draws
        await self.tiles.show(sessions[:MAX_TILES])
        self.refresh_bindings()
