"""``SessionHost``: the one object every surface talks to — tool calls in, results and events out.

It runs each call through the tool table over its :class:`~.supervisor.Supervisor`, never raises for a bad
call, and ends every session with proof when it is left.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from ..approvals import Refused
from ..attention import Attention, Outcome, waiting_prompt
from ..calls import ToolResult, calltext, failure, result, toolcall
from ..config import Settings, load_settings
from ..containment import Swept
from ..journal import Restored, open_journal
from ..launch import end_probes, start_probe
from ..procs import (
    IDLE_BEFORE_CHECK_MS,
    ForegroundGroups,
    foreground_group,
    kernel_wait_reason,
)
from ..session import Event, EventKind, JournalState, Listener, Session, Status, now_ms
from ..tools import (
    InputRefused,
    InputSent,
    TerminalEngine,
    run_tool,
    send_input,
    send_input_now,
)
from .figures import once
from .reexec_state import Handover, capture, release, restore
from .supervisor import Supervisor

TICK_S = 0.5
log = logging.getLogger(__name__)


class SessionHost:
    """Runs ``exec``/``process`` tool calls against real processes.

    Args:
        config_path: TOML config file (default: ``$OPENCLAW_TUI_CONFIG`` or the XDG config path).
        env: the environment settings are read from (default ``os.environ``); children still inherit
            the real process environment.
        settings: ready-made settings, bypassing file and environment (tests, embedding).
        terminal: the terminal engine (``openclaw_tui.ToolHost`` is this host with the product's engine).
    """

    def __init__(
        self,
        config_path: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        settings: Settings | None = None,
        terminal: TerminalEngine | None = None,
    ) -> None:
        self.supervisor = Supervisor(settings or load_settings(config_path, env), terminal)
        """The sessions and what the tools work on (registry, notices, containment, nodes)."""
        self._ticker: asyncio.Task[None] | None = None
        self._groups = ForegroundGroups()
        self.closed = False
        self.swept: asyncio.Task[list[Swept]] | None = None
        """Ends what dead hosts left behind, when the host starts; its result reports what it ended."""
        self.restored: asyncio.Task[Restored] | None = None
        """Brings back the sessions of the last host on this socket (see :meth:`persist`); calls wait for it."""
        self._journal_told: JournalState | None = None
        self.generation = 0
        """How many times this host re-executed itself in place (see :meth:`handover`)."""
        core = self.supervisor
        self.attention = Attention(core.settings.notify, core.bus.publish, core.mutes.covers)
        """Tells the operator of sessions that need them, by the rules and hooks of ``[notify]``."""
        self._unhear: Callable[[], None] | None = None

    # -- lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SessionHost:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def start(self) -> None:
        """Begin: the waiting-for-input ticker, the login shell's PATH probe and (unless this host resumed
        after a re-exec: it swept when it first began) the sweep of what dead hosts left."""
        if self._unhear is None:
            self._unhear = self.supervisor.bus.subscribe(self.attention)
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
            settings = self.supervisor.settings
            if settings.exec.login_path or any(a.login_path for a in settings.agents.values()):
                start_probe()  # the login shell's PATH, ready before the first run needs it
            if not self.generation:
                self.swept = asyncio.get_running_loop().create_task(self.supervisor.containment.sweep())

    def persist(self, socket: str | os.PathLike[str]) -> None:
        """Keep this host's sessions across its starts, as the host serving ``socket``: journal them under
        the state directory (``tools.exec.persist = false``: not at all), and first bring back what the
        last host on that socket left there. Tool calls wait until that is done. Called once (by the
        server, when it has bound the socket); later calls do nothing."""
        if self.restored is None:
            self.restored = asyncio.get_running_loop().create_task(self._restore(socket))

    async def _restore(self, socket: str | os.PathLike[str]) -> Restored:
        settings = self.supervisor.settings
        if not settings.persist:
            self.supervisor.release_held_records()
            return Restored()
        journal, found = await asyncio.to_thread(open_journal, settings, socket)
        try:
            running = [s for sid, s in found.sessions.items() if s.exit is None and self.session(sid) is None]
            swept: list[Swept] = []
            if running and self.swept is not None:  # their processes: what the sweep of dead hosts found
                try:
                    swept = await asyncio.shield(self.swept)
                except Exception:  # noqa: BLE001  (serve reports the failed sweep; nothing is known of them)
                    swept = []
            done = self.supervisor.restore(journal, found, swept)
        except Exception as exc:  # noqa: BLE001  (a record this code cannot take must not stop the host)
            journal.degrade(f"journal stopped: restoring the sessions failed ({type(exc).__name__}: {exc}); "
                            "sessions are kept in memory only")
            self.supervisor.journal = journal
            self.supervisor.release_held_records()
            done = Restored()
        if self.generation:  # the audit lists the re-exec once, by the image that took over
            self.supervisor.journal.act({"act": "reexec", "by": "host", "atMs": now_ms(),
                                         "detail": f"re-executed in place (generation {self.generation}), "
                                                   f"{len(self.supervisor.registry)} sessions kept"})
        line = done.describe()
        if line:
            log.info("openclaw-tui: %s", line)
        self._journal_check()
        return done

    async def close(self) -> None:
        """End every running session (SIGTERM, grace, SIGKILL), wait until none of their processes is left,
        then free the containment (cgroups, watchdog, live record) and close the journal."""
        self.closed = True
        end_probes()
        if self.restored is not None:
            await asyncio.wait([self.restored])
        await self.supervisor.end_all()
        if self._ticker is not None:
            self._ticker.cancel()
        if self._unhear is not None:
            self._unhear()
        await self.attention.close()
        if self.swept is not None:
            await asyncio.gather(self.swept, return_exceptions=True)
        await self.supervisor.close()
        await asyncio.to_thread(self.supervisor.journal.close)

    # -- a re-exec in place (see reexec_state.py) -------------------------------------------------
    def handover(self) -> Handover:
        """Stop watching every child and write the whole host down for its next image, which resumes it with
        :meth:`resume` (synchronous: nothing happens to a session between the two)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        end_probes()
        found = capture(self.supervisor)
        found.state["generation"] = self.generation
        # what the journal was handed is on disk before the exec ends its writer thread; the next image
        # opens the same journal (:meth:`persist`) and records its sessions on from where they stand
        self.supervisor.journal.flush()
        return found

    def release_handover(self, found: Handover | None) -> None:
        """The exec did not happen: go on as before :meth:`handover` (``found`` is None if it failed)."""
        release(self.supervisor, found)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    def resume(self, state: dict[str, Any]) -> None:
        """Go on as the host whose :meth:`handover` wrote ``state``: the same sessions (running ones
        supervised again at once), ids, notices and containment; :meth:`start` then begins the rest.
        Raises :class:`~.reexec_state.CannotResume` (or any error of the restore) when it cannot."""
        restore(self.supervisor, state)
        self.generation = int(state.get("generation", 0)) + 1

    def force_kill(self) -> None:
        """The operator insists: SIGKILL every running session's processes now (no grace)."""
        self.supervisor.containment.force_kill()

    # -- tool calls -----------------------------------------------------------------------------
    async def call(self, call: Mapping[str, Any] | str, agent: str | None = None) -> ToolResult:
        """Run one tool call (a dict or JSON text); always returns ``{"text", "details"}``."""
        try:
            res = await self._run(call, agent)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the host down; say what happened instead
            res = failure(f"internal error while running the call: {type(exc).__name__}: {exc}", "internal-error")
        return self._with_notices(res, agent)

    async def _run(self, call: Mapping[str, Any] | str, agent: str | None) -> ToolResult:
        try:  # a large call is decoded off the loop (see calltext.loads_large)
            large = isinstance(call, str) and len(call) >= calltext.LARGE
            read = await asyncio.to_thread(toolcall.read, call, True) if large else toolcall.read(call)
        except toolcall.BadCall as exc:
            return exc.result
        if self.closed:
            return failure("the host is shutting down; no new calls are accepted", "host-closed")
        if self.restored is not None and not self.restored.done():
            await asyncio.wait([self.restored])  # the journal's sessions and ids first
        return await run_tool(self.supervisor, read, agent)

    def _with_notices(self, res: ToolResult, agent: str | None) -> ToolResult:
        if agent is None:
            return res
        notices = self.supervisor.notices.take(agent)
        if notices:
            res["text"] = "\n".join(n["text"] for n in notices) + "\n\n" + res["text"]
            res["details"]["notifications"] = notices
        return res

    # -- sessions -------------------------------------------------------------------------------
    def session(self, session_id: str, agent: str | None = None) -> Session | None:
        return self.supervisor.registry.get(session_id, agent)

    def sessions(self, agent: str | None = None) -> list[Session]:
        """Every session in scope, running foreground ones included, newest first (for dashboards)."""
        return self.supervisor.sessions(agent)

    @property
    def journal_status(self) -> dict[str, Any]:
        """``{"saving": bool, "problem": str | None}``: whether sessions are being saved to disk, and why
        not when they should be (shown in the log, a ``list`` note and the dashboard's header)."""
        return self.supervisor.journal_status()

    @property
    def node_states(self) -> dict[str, str | None]:
        """Other hosts whose sessions this one shows beside its own: none (see the dashboard's fleet)."""
        return {}

    async def send_input(self, session_id: str, data: bytes, source: str, action: str) -> InputSent:
        """A frontend's input (the operator's keys), by the one input path
        (:func:`~openclaw_tui.core.tools.send_input`); raises :class:`~openclaw_tui.core.tools.InputRefused`
        when none of it can be taken."""
        return await send_input(self._input_target(session_id), data, source, action)

    def send_input_now(self, session_id: str, data: bytes, source: str, action: str) -> InputSent | None:
        """:meth:`send_input` at once when nothing has to wait; None (nothing sent) when it must go by
        :meth:`send_input` (see :func:`~openclaw_tui.core.tools.send_input_now`)."""
        return send_input_now(self._input_target(session_id), data, source, action)

    def _input_target(self, session_id: str) -> Session:
        session = self.session(session_id)
        if session is None:
            raise InputRefused(f"cannot send input: no session {session_id}", "unknown-session")
        return session

    # -- exec approvals (the operator's) -----------------------------------------------------------
    def pending_approvals(self) -> list[dict[str, Any]]:
        """Every request waiting for the operator, oldest first (see ``ApprovalRequest.to_json``)."""
        return [r.to_json() for r in self.supervisor.approvals.pending()]

    def approval_history(self) -> list[dict[str, Any]]:
        """Past requests with their decisions, newest last."""
        return [r.to_json() for r in self.supervisor.approvals.history]

    async def decide_approval(self, approval_id: str, decision: str, reason: str | None = None,
                              patterns: list[dict[str, Any]] | None = None,
                              where: dict[str, Any] | None = None) -> ToolResult:
        """The operator's decision (``allow-once``, ``allow-always``, ``deny``) on a request named by its
        ``approvalId`` or reserved ``sessionId``; ``where`` says where it was taken (``via``, ``client``,
        ``tty``, ``pid``). A failed result says why it could not be taken; the request then waits on."""
        if self.restored is not None and not self.restored.done():
            await asyncio.wait([self.restored])
        try:
            request = await self.supervisor.approvals.decide(approval_id, decision, where or {"via": "api"},
                                                             reason, patterns)
        except Refused as exc:
            return failure(str(exc), exc.kind)
        d = request.decision
        assert d is not None
        started = "" if d.state != "approved" else (" It started." if d.ran else " It could not start: see its "
                                                                                  "session.")
        return result(f"{request.approval_id} (session {request.session_id}) {d.words()}.{started}", Status.COMPLETED,
                      approval=request.to_json())

    def attend(self) -> Callable[[], None]:
        """An operator frontend watches for requests (``operatorAttached``) until the returned function is called."""
        approvals = self.supervisor.approvals
        approvals.approvers += 1

        def leave() -> None:
            approvals.approvers -= 1

        return once(leave)

    def watch_figures(self) -> Callable[[], None]:
        """A frontend shows the sessions' figures: every running session's ``details.resources`` is read
        every 2 s (off the loop) and published (``session-resources``) until the returned function is called."""
        return self.supervisor.figures.watch()

    # -- events ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Snapshot first, then every session event; returns an unsubscribe function."""
        return self.supervisor.bus.subscribe(listener)

    def watch(self) -> AsyncIterator[Event]:
        return self.supervisor.bus.watch()

    async def _tick(self) -> None:
        """Re-check who is waiting for input: the idle rule, and the kernel's evidence for PTYs."""
        while True:
            await asyncio.sleep(TICK_S)
            self._journal_check()
            running = [s for s in self.supervisor.registry if s.running]
            asked = {s: group for s in running if (group := self._foreground_of_idle_pty(s)) is not None}
            if asked:
                members = await self._groups.members(sorted(set(asked.values())))
            else:
                members = {}
                self._groups.forget()
            for session in running:
                group = asked.get(session)
                reason = None
                if group is not None and session.child is not None and session.child.stdin_fd is not None:
                    reason = kernel_wait_reason(session.child.stdin_fd, members.get(group, []))
                changed = session.update_waiting(reason)
                if session.waiting_for_input and session.prompt is None:  # a new spell (output clears it)
                    session.prompt = self._prompt_of(session)
                    changed = True
                if changed:
                    self.supervisor.publish(EventKind.WAITING, session)

    def _prompt_of(self, session: Session) -> str:
        """What ``session`` waits at; a screen that cannot be read must not stop the waiting checks."""
        terminal = self.supervisor.terminal
        try:
            return waiting_prompt(session, terminal.last_line if terminal is not None else None)
        except Exception:  # noqa: BLE001  (a bug in reading the screen: no prompt, and say so)
            log.exception("openclaw-tui: could not read the prompt of session %s", session.id)
            return ""

    # -- the operator's notifications -------------------------------------------------------------
    async def mute(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> ToolResult:
        """Mute (or unmute) one session, or every session of ``agent`` (now and later): no notification of
        them reaches a hook or a dashboard's bell. Kept in the journal, so it outlives a restart. A failed
        result names the problem (no such session, neither or both given)."""
        if (session_id is None) == (agent is None):
            return failure("name a session (sessionId) or an agent to mute, not both", "invalid-params")
        if self.restored is not None and not self.restored.done():
            await asyncio.wait([self.restored])
        if session_id is not None and self.session(session_id) is None:
            return failure(f"no session {session_id!r} (openclaw-tui ls lists them)", "unknown-session")
        touched = self.supervisor.set_mute(muted, session_id, agent)
        count = f"{len(touched)} session{'' if len(touched) == 1 else 's'} now"
        what = f"session {session_id}" if session_id is not None else f"agent {agent!r} ({count})"
        return result(f"{'Muted' if muted else 'Unmuted'} {what}.", Status.COMPLETED, muted=muted,
                      sessionId=session_id, agent=agent, sessions=[s.id for s in touched],
                      mutes=self.supervisor.mutes.to_json())

    async def notify_test(self) -> list[Outcome]:
        """A test notification through every configured hook, and how each delivery went."""
        return await self.attention.test()

    def _journal_check(self) -> None:
        """Tell watchers (and the log) once when the journal's state changed: a disk that filled up."""
        now = self.supervisor.journal_state()
        if now == self._journal_told:
            return
        if now.problem and (self._journal_told.problem if self._journal_told else None) != now.problem:
            log.info("openclaw-tui: %s", now.problem)  # serve prints it; an embedding program may log it
        self._journal_told = now
        self.supervisor.bus.publish(Event(EventKind.JOURNAL, None, now))

    @staticmethod
    def _foreground_of_idle_pty(session: Session) -> int | None:
        """The foreground process group of a PTY session quiet long enough to ask the kernel about, or None."""
        child = session.child
        if not session.pty or child is None or child.stdin_fd is None or not session.stdin_writable:
            return None
        if session.idle_ms() <= IDLE_BEFORE_CHECK_MS:
            return None
        return foreground_group(child.stdin_fd) or None
