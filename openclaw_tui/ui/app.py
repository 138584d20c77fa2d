"""The dashboard application: the host's sessions on screen, with toasts, the new-command dialog and quit.

The app is given its :class:`~openclaw_tui.core.host.SessionHost` and owns its lifetime on the app's loop:
it starts the host when mounted and closes it when unmounted (ending every session and waiting until
their process groups are gone), so no process outlives the dashboard. Host events arrive through
:class:`~.bridge.HostBridge` as messages (waiting changes, by the idle rule or the kernel's evidence,
come as list changes); a once-a-second tick updates the runtimes shown. Attached to a host in another
process (``openclaw-tui attach``), closing only disconnects.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import threading
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

from ..core.exitrecord import end_words
from ..core.host import SessionHost
from ..core.session import FAILED, Session
from ..remote.server import AlreadyServing, HostServer
from .bridge import HostBridge, HostGone, SessionExited, SessionOutput, SessionsChanged
from .demo import start_demo, write_scripts
from .dialogs import ConfirmDialog, NewCommandDialog
from .footer import DashboardFooter
from .header import SummaryHeader
from .sessions.rows import counts, is_waiting
from .sessions.workspace import Workspace
from .terminal_view import TerminalView

TICK_S = 1.0
EXIT_WATCHDOG_S = 5.0


class DashboardApp(App[int]):
    """The ``openclaw-tui`` dashboard.

    Args:
        host: the host whose sessions are shown; started on mount and closed on unmount.
        demo: start the example sessions of :mod:`.demo` once mounted.
        cursor_blink: blink text cursors (off for screenshots and snapshot tests).
        handle_signals: end sessions and exit on SIGTERM/SIGHUP (for the real program, not tests).
        keymap: binding id -> key(s), applied over the defaults (see :mod:`.settings`).
        attached: the host runs in another process (``openclaw-tui attach``): quitting only disconnects.
        serve_path: serve the embedded host on this socket so agents and other dashboards reach it.
    """

    CSS_PATH = "app.tcss"
    TITLE = "openclaw-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_command", "New", id="new-command"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("ctrl+q", "quit", "Quit", id="quit-ctrl", show=False),
        Binding("question_mark", "toggle_help", "Help", id="help"),  # the footer shows it when it drops keys
    ]

    def __init__(self, host: SessionHost, demo: bool = False, cursor_blink: bool = True,
                 handle_signals: bool = False, keymap: dict[str, str] | None = None, attached: bool = False,
                 serve_path: Path | None = None) -> None:
        super().__init__()
        self.attached = attached
        self.serve_path = serve_path
        self._server: HostServer | None = None
        self.user_keymap = keymap or {}
        self.host = host
        self.demo = demo
        self.cursor_blink = cursor_blink
        self.handle_signals = handle_signals
        self.bridge: HostBridge | None = None
        self._waiting: dict[str, tuple[int, float]] = {}  # announced waiting sessions -> their input_mark then
        self._answered: set[str] = set()  # announced, then seen working again after input
        self._quitting = False
        self._terminal: TerminalView | None = None
        self._demo_folder: str | None = None
        self._watchdog: threading.Timer | None = None

    def compose(self) -> ComposeResult:
        yield SummaryHeader(id="header")
        yield Workspace(self.host, id="workspace")
        yield DashboardFooter()

    @property
    def workspace(self) -> Workspace:
        return self.query_one(Workspace)

    @property
    def shown(self) -> bool:
        """Whether the dashboard's widgets are there: while the app closes they are removed before the host's
        last messages (exits, list changes) are handled, and those must not fail the exit. Both widgets the
        handlers use are checked: they are removed one after the other, in no order to rely on."""
        return bool(self.query(Workspace)) and bool(self.query(SummaryHeader))

    async def on_event(self, event: events.Event) -> None:
        # Type-through keys go to the PTY from here rather than from the focused terminal widget: under
        # heavy output each hop through the event loop waits for a round of ingest callbacks.
        terminal = self._terminal
        if (isinstance(event, events.Key) and terminal is not None and terminal.screen is self.screen
                and terminal.type_key(event)):
            return
        await super().on_event(event)

    async def on_mount(self) -> None:
        self._terminal = self.query_one(TerminalView)
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        self.host.start()
        if self.serve_path is not None:
            await self._serve(self.serve_path)
        self.bridge = HostBridge(self.host, self)
        self.set_interval(TICK_S, self._tick)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._on_terminate_signal)
        if self.demo:
            self._demo_folder = write_scripts()
            self.run_worker(start_demo(self.host, self._demo_folder), group="demo")

    async def on_unmount(self) -> None:
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(sig)
        if self.bridge is not None:
            self.bridge.close()
        if self._server is not None:
            await self._server.close()
        await self.host.close()  # embedded: ends every session; attached: only disconnects
        if self._demo_folder is not None:
            shutil.rmtree(self._demo_folder, ignore_errors=True)

    async def _serve(self, path: Path) -> None:
        """Serve the embedded host on the socket, so agents (MCP, call) and ``attach`` see these sessions."""
        assert isinstance(self.host, SessionHost)
        server = HostServer(self.host, path)
        try:
            await server.start()
        except (AlreadyServing, OSError) as exc:
            self.notify(f"Not serving the socket: {exc}", title="Socket", severity="warning", timeout=10)
            return
        self._server = server

    # -- host events ----------------------------------------------------------------------------
    def sessions(self) -> list[Session]:
        """All sessions, newest first (the host orders them by start)."""
        return self.host.sessions()

    def on_sessions_changed(self, message: SessionsChanged) -> None:
        if self.bridge is not None:
            self.bridge.list_handled()
        self._sync()

    def on_session_output(self, message: SessionOutput) -> None:
        if self.bridge is not None:
            self.bridge.output_handled(message.session_id)
        if self.shown:
            self.workspace.view.output_arrived(message.session_id)

    def on_host_gone(self, message: HostGone) -> None:
        """An attached dashboard lost its host: say so once, and in the header for as long as it shows."""
        if not self.shown:
            return
        self.query_one(SummaryHeader).host_gone = True
        self._sync()
        self.notify("The host went away: the sessions shown are no longer live, and actions fail. Quit (q) and "
                    "attach again once a host runs.", title="Host gone", severity="error", timeout=30)

    def on_session_exited(self, message: SessionExited) -> None:
        if not self.shown:
            return
        self.workspace.session_ended(message.session_id)
        self._waiting.pop(message.session_id, None)
        self._answered.discard(message.session_id)
        d = message.details
        if message.listed and not self._quitting:
            # from the state the event carries: a removed session is gone from the registry by now
            how = end_words(bool(d.get("timedOut")), d.get("exitSignal"), d.get("exitCode"))
            self.notify(f"{d['sessionId']} ({d['name']}) {d['status']}, {how}", title="Session ended",
                        severity="error" if d["status"] == FAILED else "information")

    def _tick(self) -> None:
        self._sync()

    def _sync(self) -> None:
        if not self.shown:
            return
        sessions = self.sessions()
        self.query_one(SummaryHeader).show_counts(counts(sessions))
        self.workspace.sync(sessions)
        self._check_waiting(sessions)

    def _check_waiting(self, sessions: list[Session]) -> None:
        """Toast a session that starts waiting for input (idle rule or kernel evidence).

        A program that idles reading the terminal between redraws (``top``) flips in and out of waiting
        every second; it is announced again only once it was seen working again after someone sent it
        input. Keystrokes typed into a prompt that still waits (a password, character by character) are
        not a new question.
        """
        waiting = {s.id: s for s in sessions if is_waiting(s)}
        for s in sessions:  # working again after input: its next wait is a new question
            if s.id in self._waiting and s.id not in waiting and input_mark(s) != self._waiting[s.id]:
                self._answered.add(s.id)
        typing_into = self.workspace.selected if self.workspace.type_through else None
        for sid, s in waiting.items():
            if sid in self._waiting and sid not in self._answered:
                continue
            self._answered.discard(sid)
            self._waiting[sid] = input_mark(s)
            if typing_into is s:
                continue  # the operator is typing into it: each echo and prompt is no news
            why = " (a password prompt)" if s.waiting_reason == "password-prompt" else ""
            self.notify(f"{s.id} ({s.name}) is waiting for input{why}.", title="Waiting for input",
                        severity="warning")

    # -- actions --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("new_command", "quit", "toggle_help"):
            found = self.query(Workspace)
            return not (found and found.first().type_through)  # keys belong to the session then
        return True

    def action_toggle_help(self) -> None:
        """Open or close Textual's help panel: every key of the focused widget and its ancestors.

        The footer leaves the less used keys out when the terminal is narrow; this lists them all.
        """
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_new_command(self, previous: dict[str, Any] | None = None, error: str = "") -> None:
        async def run(params: dict[str, Any] | None) -> None:
            if params:
                self.run_worker(self._exec(params), group="exec")

        self.push_screen(NewCommandDialog(previous=previous, error=error), run)

    async def _exec(self, params: dict[str, Any]) -> None:
        res = await self.host.call({"tool": "exec", **params}, agent=None)
        sid = res["details"].get("sessionId")
        if res["details"]["status"] == "failed" and res["details"].get("pid") is None:
            self.action_new_command(params, res["text"])  # refused before it ran: correct it, don't retype
        elif res["details"]["status"] == "failed":
            self.notify(res["text"], title="Command failed", severity="error")
        elif sid and self.host.session(sid) is not None:
            self._sync()
            self.workspace.select(sid)
        else:
            self.notify(res["text"][-400:], title=f"{params['command']} finished")

    async def action_quit(self) -> None:
        running = [s for s in self.host.sessions() if s.running]
        if not running or self.attached:  # attached: the sessions stay with their host
            self.exit(0)
            return

        async def answer(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._shutdown_sessions(len(running)), group="quit", exclusive=True)

        names = ", ".join(s.id for s in running[:4]) + (" …" if len(running) > 4 else "")
        self.push_screen(ConfirmDialog(f"{len(running)} session(s) still running ({names}).\n"
                                       "Quitting ends them all. Quit?", yes="Quit", title="Quit"), answer)

    def _on_terminate_signal(self) -> None:
        self.run_worker(self._terminate(), group="quit", exclusive=True)

    async def _terminate(self) -> None:
        """SIGTERM/SIGHUP: end every session first, then exit.

        After a hang-up the terminal is gone and Textual's shutdown can block on writing to it; with the
        sessions already ended there is nothing left to supervise, so a watchdog ends the process then.
        """
        self._quitting = True
        await self.host.close()  # attached: only disconnects; the sessions stay with their host
        self._watchdog = threading.Timer(EXIT_WATCHDOG_S, os._exit, args=(0,))
        self._watchdog.daemon = True
        self._watchdog.start()
        self.exit(0)

    def disarm_watchdog(self) -> None:
        """The app returned from ``run()``: the exit watchdog of :meth:`_terminate` is not needed."""
        if self._watchdog is not None:
            self._watchdog.cancel()

    async def _shutdown_sessions(self, count: int) -> None:
        self._quitting = True
        self.notify(f"Ending {count} session(s)…", title="Quitting")
        await self.host.close()
        self.exit(0)


def input_mark(session: Session) -> tuple[int, float]:
    """Changes whenever ``session`` gets input: keystrokes typed through join their line's record, so the
    count alone would miss them."""
    return len(session.inputs), session.inputs[-1].at if session.inputs else 0.0
