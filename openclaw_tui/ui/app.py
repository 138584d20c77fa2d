"""The dashboard application: the host's sessions on screen, with notices, the new-command dialog and quit.

The app is given its host as a :class:`~openclaw_tui.remote.mirror.viewprotocols.HostView` and never owns its
lifetime: leaving only stops watching. Host events arrive through :class:`~.eventbridge.HostBridge` as
messages (:mod:`.messages`).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.errors import MarkupError
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.widgets import Static

from openclaw_tui.core.approvals import terminal_name
from openclaw_tui.core.session import Status
from openclaw_tui.core.tools import split_id
from openclaw_tui.remote.mirror import HostView, SessionView

from .announce import Announcer
from .bell import ring
from .demo import start_demo, write_scripts
from .dialogs import ApprovalQueue, NewCommandDialog, QuitDialog, SessionInfo
from .eventbridge import HostBridge
from .footer import DashboardFooter
from .header import SummaryHeader
from .help import HelpDialog, app_bindings, keys_of
from .messages import HostAttention, HostGone, HostLinkChanged, SessionExited, SessionOutput, SessionsChanged
from .notices import Notice, NoticeLine
from .sessions.filters import FilterBar
from .sessions.list import SessionList
from .sessions.rows import ALL_AGENTS, CpuWarning, agent_label, counts
from .sessions.workspace import Workspace

TICK_S = 2.0  # runtimes move on this often; events (a new session, an exit, waiting) show at once
EXIT_WATCHDOG_S = 2.0  # after SIGTERM, once everything is released: restoring the terminal must not hang the exit
QUIT_IDS_LISTED = 12
CPU_WARN = 90.0  # % of a core: a session above it for 10 s shows its CPU in red (``[dashboard] cpuWarn``)


class DashboardApp(App[int]):
    """The ``openclaw-tui`` dashboard.

    Args:
        host: the host whose sessions are shown (started on mount if it was not; never closed here).
        demo: start the example sessions of :mod:`.demo` once mounted.
        handle_signals: detach and exit on SIGTERM/SIGHUP (for the real program, not tests).
        keymap: binding id -> key(s), applied over the defaults (see :mod:`.keymap`).
        attached_to: where the host serves (its socket), shown in the header.
    """

    CSS_PATH = "app.tcss"
    TITLE = "openclaw-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_command", "New", id="new-command"),
        Binding("a", "approvals", "Approvals", id="approvals"),
        Binding("i", "info", "Info", id="info"),
        Binding("R", "rerun", "Re-run", id="rerun", show=False),  # the help has it: no room left in the footer
        Binding("q", "quit", "Quit", id="quit"),
        Binding("ctrl+q", "quit", "Quit", id="quit-ctrl", show=False),
        Binding("question_mark", "toggle_help", "Help", id="help"),  # the footer shows it when it drops keys
    ]

    def __init__(self, host: HostView, demo: bool = False, handle_signals: bool = False,
                 keymap: dict[str, str] | None = None, attached_to: str | None = None, figures: bool = True,
                 cpu_warn: float = CPU_WARN) -> None:
        super().__init__()
        self.figures = figures
        """Show the sessions' CPU and memory (the host reads them only while a dashboard shows them)."""
        self.cpu_warn = cpu_warn
        self._unwatch: Any = None
        self.attached_to = attached_to
        self.user_keymap = keymap or {}
        self.host = host
        self.demo = demo
        self.handle_signals = handle_signals
        self.bridge: HostBridge | None = None
        self.announcer = Announcer(self._post_notice, self._notice_showing)
        self._quitting = False
        self._said_gone = False
        self._released = False
        self._workspace: Workspace | None = None
        self._header: SummaryHeader | None = None
        self._watchdog: threading.Timer | None = None
        self._leave: Any = None  # tells the host this operator is no longer there to answer approvals
        self.decided_from = {"via": "dashboard", "client": "openclaw-tui dashboard", "tty": terminal_name()}
        self.rung: list[str] = []
        """What the dashboard wrote to the terminal for the host's notifications (bell, OSC 9/777), newest last."""

    def compose(self) -> ComposeResult:
        yield SummaryHeader(attached_to=self.attached_to, id="header")
        yield Workspace(self.host, id="workspace")
        yield Static(id="notice-row")  # the notice line's own row; the notice is drawn over it (see app.tcss)
        yield NoticeLine(id="notices")
        yield DashboardFooter()

    @property
    def workspace(self) -> Workspace:
        return self._workspace if self._workspace is not None else self.query_one(Workspace)

    @property
    def header(self) -> SummaryHeader:
        return self._header if self._header is not None else self.query_one(SummaryHeader)

    @property
    def shown(self) -> bool:
        """Whether the dashboard's widgets are there: while the app closes they are removed before the host's
        last messages (exits, list changes) are handled, and those must not fail the exit. Both widgets the
        handlers use are checked: they are removed one after the other, in no order to rely on. (Asked for
        every output message, so it looks at the two widgets rather than querying the whole screen.)"""
        return (self._workspace is not None and self._header is not None and self._workspace.is_attached
                and self._header.is_attached)

    async def on_event(self, event: events.Event) -> None:
        # Type-through keys go to the PTY from here rather than from the focused terminal widget: under
        # heavy output each hop through the event loop waits for a round of ingest callbacks.
        if isinstance(event, events.Key) and self._workspace is not None:
            terminal = self._workspace.keys_to  # the single view's terminal, or the tile's typed into
            if terminal is not None and terminal.screen is self.screen and terminal.type_key(event):
                return
        await super().on_event(event)

    async def on_mount(self) -> None:
        self._workspace = self.query_one(Workspace)
        self._header = self.query_one(SummaryHeader)
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        self._header.quit_key = keys_of(self, app_bindings(self, "quit"), "quit")
        self.announcer.approvals_key = keys_of(self, app_bindings(self, "approvals"), "approvals")
        self.host.start()  # a mirror not yet connected connects now; one started already goes on as it was
        self._leave = self.host.attend()
        if self.figures:
            self._unwatch = self.host.watch_figures()
            listed = self._workspace.query_one(SessionList)
            listed.figures, listed.cpu_warning = True, CpuWarning(self.cpu_warn)
        self.bridge = HostBridge(self.host, self)
        self._header.show_link(self.bridge.link, self.bridge.where)  # before the first frame: no flash of "live"
        self.set_interval(TICK_S, self._sync)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._on_terminate_signal, sig)
        if self.demo:
            self.run_worker(self._start_demo(), group="demo")

    async def _start_demo(self) -> None:
        try:
            folder = await asyncio.to_thread(write_scripts)
        except OSError as exc:
            self._demo_refused(f"cannot write the demo's scripts: {exc}")
            return
        ids = await start_demo(self.host, folder, self.announcer.expect_wait, self._demo_refused)
        if ids and self.shown:  # the newest on view, as on a host whose sessions were all there at the start
            self._sync()
            self.workspace.select(ids[-1])

    def _demo_refused(self, why: str) -> None:
        self.notify(why, title="Demo", severity="error", markup=False)

    async def on_unmount(self) -> None:
        await self._release()

    async def _release(self) -> None:
        """Stop hearing the host and the signals; the host and its sessions go on. Once, from whichever comes
        first: the unmount or a terminating signal."""
        if self._released:
            return
        self._released = True
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(sig)
        if self.bridge is not None:
            self.bridge.close()
        if self._leave is not None:
            self._leave()
        if self._unwatch is not None:
            self._unwatch()

    # -- notices --------------------------------------------------------------------------------
    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification of the app and its widgets goes to the notice line, never a toast."""
        if markup:
            try:
                message = Text.from_markup(message).plain
            except MarkupError:
                pass
        self._post_notice(Notice(message, title, severity), timeout)

    def _post_notice(self, notice: Notice, timeout: float | None = None) -> None:
        found = self.query(NoticeLine)
        if found:
            found.first().post(notice, timeout)

    def _notice_showing(self, kind: str) -> bool:
        found = self.query(NoticeLine)
        return bool(found) and found.first().showing(kind)

    # -- host events ----------------------------------------------------------------------------
    def sessions(self) -> Sequence[SessionView]:
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
            self.workspace.output_arrived(message.session_id)

    def on_host_link_changed(self, message: HostLinkChanged) -> None:
        """The link to the host changed (connecting, live, reconnecting, gone): the header shows it."""
        if self.shown:
            self.header.show_link(message.link, message.where)
            self._sync()
            if message.link == "gone":  # also when it went before the app was there to hear it
                self._say_gone(message.why)

    def on_host_gone(self, message: HostGone) -> None:
        if self.shown:
            self._say_gone(message.why)

    def _say_gone(self, why: str) -> None:
        """The host went away for good (or never came): say so once, and in the header for as long as it shows."""
        if self._said_gone:
            return
        self._said_gone = True
        self.header.show_link("gone")
        self._sync()
        why = f" ({why})" if why else ""
        self.notify(f"The host went away{why}: the sessions shown are no longer live, and actions fail. Quit "
                    f"({self.header.quit_key}) and run openclaw-tui again to start one.", title="Host gone",
                    severity="error", markup=False)

    def on_host_attention(self, message: HostAttention) -> None:
        """The host notified the operator: ring the terminal's bell and send a desktop notice (OSC 9, and
        OSC 777 where the terminal takes it), unless ``[notify] bell = false``."""
        if not message.notified.bell or self._quitting:
            return
        sequence = ring(str(message.notified.fields.get("text", "")), os.environ)
        self.rung = [*self.rung[-9:], sequence]
        if self._driver is not None and not self.is_headless:
            self._driver.write(sequence)

    def on_session_exited(self, message: SessionExited) -> None:
        if not self.shown:
            return
        self.workspace.session_ended(message.session_id)
        if message.listed and not self._quitting:
            self.announcer.session_exited(message.details)

    def on_filter_bar_changed(self, event: FilterBar.Changed) -> None:
        """The agent filter changed: the header counts that agent's sessions at once, not at the next tick."""
        if self.shown:
            self._show_counts(self.sessions())

    def _show_counts(self, sessions: Sequence[SessionView]) -> None:
        agent = self.workspace.query_one(FilterBar).row_filter.agent
        self.header.show_agent(None if agent == ALL_AGENTS else agent)
        every = counts(sessions)
        shown = every if agent == ALL_AGENTS else counts(s for s in sessions if agent_label(s) == agent)
        self.header.show_counts(shown, every["running"])

    def _sync(self) -> None:
        if not self.shown:
            return
        sessions = self.sessions()
        self._show_counts(sessions)
        self.header.show_nodes(self.host.node_states)
        journal = self.host.journal_status
        problem = None if journal.get("saving") else journal.get("problem")
        if self.header.show_journal_problem(problem) and problem:
            self.notify(f"Sessions are not being saved to disk: {problem}", title="Journal", severity="warning",
                        timeout=10, markup=False)
        self.workspace.sync(sessions)
        requests = self.host.pending_approvals()
        self.header.show_approvals(len(requests))
        # A mirror still connecting shows no sessions and no requests yet: that is no first look, whose waits
        # and requests are counted, not announced.
        if self.bridge is not None and self.bridge.link == "live":
            self.announcer.sessions_seen(sessions, self.workspace.selected if self.workspace.type_through else None)
            self.announcer.approvals_seen(requests)
        queue = next((s for s in self.screen_stack if isinstance(s, ApprovalQueue)), None)
        if queue is not None and queue.is_mounted:
            queue.show_requests()

    # -- actions --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("new_command", "quit", "toggle_help", "approvals", "info", "rerun"):
            found = self.query(Workspace)
            return not (found and found.first().type_through)  # keys belong to the session then
        return True

    def action_toggle_help(self) -> None:
        """The dashboard's keys by purpose (:mod:`.help`); ``?`` again or Escape closes it."""
        if not isinstance(self.screen, HelpDialog):
            self.push_screen(HelpDialog())

    def action_approvals(self) -> None:
        """The queue of exec approval requests, every node's too (:mod:`.dialogs.approval_queue`)."""
        if not any(isinstance(s, ApprovalQueue) for s in self.screen_stack):
            self.push_screen(ApprovalQueue(self.host, self.decided_from))

    def action_info(self) -> None:
        """The selected session's details: processes, ports, container, environment, clocks."""
        session = self.workspace.selected
        if session is not None and not isinstance(self.screen, SessionInfo):
            self.push_screen(SessionInfo(session))

    def action_rerun(self) -> None:
        """The new-command dialog filled with the selected session's call; Enter starts it anew, for the
        operator, with ``rerunOf`` naming the old one (which stays listed, to compare)."""
        session = self.workspace.selected
        if session is None:
            return
        d = session.details()
        previous: dict[str, Any] = {"command": d["command"], "workdir": d.get("cwd") or None, "pty": d["pty"],
                                    "background": True, "env": dict(d.get("env") or {}), "shownId": session.id,
                                    "rerunOf": split_id(session.id)[1] if session.node else session.id}
        if session.node:
            previous.update(host="node", node=session.node)
        self.action_new_command(previous)

    def action_new_command(self, previous: dict[str, Any] | None = None, error: str = "") -> None:
        async def run(params: dict[str, Any] | None) -> None:
            if params:
                self.run_worker(self._exec(params), group="exec")

        self.push_screen(NewCommandDialog(previous=previous, error=error, nodes=list(self.host.node_states)), run)

    async def _exec(self, params: dict[str, Any]) -> None:
        """Run the dialog's command as a session of its own, so it stays listed (with its output) after it ends.

        An ``exec`` in the foreground that ends within its yield window is answered in full and forgotten
        by the host; the operator has no agent to read that answer, so every run from the dialog is started
        in the background. Unchecking "background" means: take me to it, and type into it (PTY).
        """
        foreground = not params.get("background", True)
        call = {k: v for k, v in params.items() if k != "shownId"}  # the dialog's, not exec's
        res = await self.host.call({"tool": "exec", **call, "background": True}, agent=None)
        sid = res["details"].get("sessionId")
        if res["details"]["status"] == Status.FAILED and res["details"].get("pid") is None:
            self.action_new_command(params, res["text"])  # refused before it ran: correct it, don't retype
        elif res["details"]["status"] == Status.FAILED:
            self.notify(res["text"], title="Command failed", severity="error", markup=False)
        elif sid:
            self._sync()
            self.workspace.show_new(sid, type_into=foreground and bool(params.get("pty")))

    async def action_quit(self) -> None:
        """Quit at once when nothing runs; else ask: keep the sessions running (detach), end them, or stay."""
        running = [s for s in self.host.sessions() if s.running]
        if not running:
            self.exit(0)
            return

        def answer(choice: str | None) -> None:
            if choice == "detach":
                self.exit(0)
            elif choice == "end":
                self.run_worker(self._end_sessions([s.id for s in running]), group="quit", exclusive=True)

        ids = ", ".join(s.id for s in running[:QUIT_IDS_LISTED])
        more = f" and {len(running) - QUIT_IDS_LISTED} more" if len(running) > QUIT_IDS_LISTED else ""
        self.push_screen(QuitDialog(f"{len(running)} session{'s' if len(running) != 1 else ''} still running: "
                                    f"{ids}{more}.\nKeep them running on the host (detach), or end them?"), answer)

    async def _end_sessions(self, ids: list[str]) -> None:
        """End each session as ``process kill`` does (its whole process group, the end confirmed), then quit;
        if any could not be ended, say which and why, and stay."""
        self._quitting = True
        self.notify(f"Ending {len(ids)} session{'s' if len(ids) != 1 else ''}…", title="Quitting")
        results = await asyncio.gather(*(self.host.call({"tool": "process", "action": "kill", "sessionId": sid},
                                                        agent=None) for sid in ids))
        failed = [r["text"] for r in results
                  if r["details"].get("status") == Status.FAILED and r["details"].get("failureKind") != "not-running"]
        if failed:
            self._quitting = False
            self.notify("Not every session could be ended: " + " ".join(failed), title="Quit", severity="error",
                        markup=False)
            return
        self.exit(0)

    def _on_terminate_signal(self, sig: int = signal.SIGTERM) -> None:
        self.run_worker(self._terminate(hung_up=sig == signal.SIGHUP), group="quit", exclusive=True)

    async def _terminate(self, hung_up: bool = False) -> None:
        """SIGTERM/SIGHUP: detach (the sessions keep running with their host), release everything, then exit.

        Everything the dashboard holds is released before the exit starts. After a hang-up the terminal is
        gone and there is nothing to restore on it; Textual's shutdown would block writing to it, so the
        process ends at once. After SIGTERM the terminal is still there and is restored, with a watchdog in
        case that blocks.
        """
        self._quitting = True
        await self._release()
        if hung_up:
            os._exit(0)
        self._watchdog = threading.Timer(EXIT_WATCHDOG_S, os._exit, args=(0,))
        self._watchdog.daemon = True
        self._watchdog.start()
        self.exit(0)

    def disarm_watchdog(self) -> None:
        """The app returned from ``run()``: the exit watchdog of :meth:`_terminate` is not needed."""
        if self._watchdog is not None:
            self._watchdog.cancel()

