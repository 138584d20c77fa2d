"""The sessions of one host and everything the tools work on: spawning, supervising, backgrounding.

It is the tools' ``ToolCore``, and keeps the journal of the sessions it backgrounds.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..approvals import Approvals
from ..attention import Mutes
from ..config import ExecSettings, Settings
from ..containment import Containment, Swept
from ..journal import (
    HeldRecord,
    Journal,
    Recovered,
    RecoveredSession,
    Restored,
    caps_of,
    leftover_of,
    owed_notice,
    rebuild,
    status,
)
from ..launch import end_session, start, supervise
from ..session import (
    NEW_OUTPUT,
    Event,
    EventBus,
    EventKind,
    JournalState,
    Registry,
    Resources,
    Session,
    SessionState,
    Snapshot,
    derive_name,
    now_ms,
)
from ..tools import Notices, TerminalEngine
from . import decisions
from .figures import FigureWatch

if TYPE_CHECKING:
    from ..tools import Nodes


class Supervisor:
    """Spawns, supervises and keeps the sessions of one host (what the tools see of it:
    :class:`~openclaw_tui.core.tools.toolcore.ToolCore`).

    Args:
        settings: the host's settings (each run captures its agent's exec settings when admitted).
        terminal: the terminal engine (``openclaw_tui.ToolHost`` gives the product's).
    """

    nodes: Nodes | None = None
    """The other machines calls may run on (:mod:`openclaw_tui.core.tools.nodecalls`);
    ``openclaw_tui.ToolHost`` sets them from ``[nodes.NAME]`` when the config has any."""

    def __init__(self, settings: Settings, terminal: TerminalEngine | None = None) -> None:
        self.settings = settings
        self.terminal = terminal
        self.bus = EventBus(self._snapshot)
        self.registry = Registry(on_removed=self._removed)
        self.notices = Notices()
        self.mutes = Mutes()
        """The operator's mutes: no notification of these sessions and agents (kept in the journal)."""
        self.containment = Containment(settings.containment, settings.state_dir, settings.exec.kill_grace_s)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.journal = Journal.disabled()
        """Where sessions are journaled: nowhere until :meth:`restore` hands over the host's journal."""
        self.registry.on_issued = lambda session_id: self.journal.issued(session_id)
        self.notices.on_told = self._told
        self.approvals = Approvals(settings.approvals_file)
        """The runs waiting for the operator's approval, and the allowlist they are judged with."""
        self.approvals.on_settled = lambda pending: decisions.settled(self, pending)
        self.approvals.on_change = lambda kind, request: decisions.changed(self, kind, request)
        self.approvals.on_notice = lambda request: decisions.notice(self, request)
        self.figures = FigureWatch(lambda: self.registry, self._figures_read)
        """What each running session costs and holds (``details.resources``), read while someone looks."""

    # -- sessions -------------------------------------------------------------------------------
    def spawn(self, command: str, agent: str | None, cwd: str, pty: bool, env: Mapping[str, str],
              timeout_s: float, settings: ExecSettings, script: str | None = None) -> Session:
        """Spawn and register a session and its supervisor; raises LaunchError (nothing registered).
        ``script`` runs instead of ``command`` as written (the command line exec approvals judged)."""
        session = self._new(command, agent, cwd, pty, settings)
        session.launched(start(session, env, os.environ, self.containment, script))
        self.registry.add(session)
        self.publish(EventKind.ADDED, session)
        self.supervise(session, timeout_s)
        return session

    def reserve(self, command: str, agent: str | None, cwd: str, pty: bool, settings: ExecSettings) -> Session:
        """Register a session that has not started: it waits for the operator's approval (see :mod:`.decisions`)."""
        session = self._new(command, agent, cwd, pty, settings)
        session.exit.started = False
        self.registry.add(session)
        self.publish(EventKind.ADDED, session)
        return session

    def _new(self, command: str, agent: str | None, cwd: str, pty: bool, settings: ExecSettings) -> Session:
        session = Session(self.registry.new_id(), command, derive_name(command), agent, cwd, pty, settings,
                          self._on_session_change, self.terminal.replier if self.terminal is not None else None)
        session.muted = self.mutes.covers(session.id, agent)
        return session

    def supervise(self, session: Session, timeout_s: float) -> None:
        """Watch a launched session until it ends (:meth:`finish`)."""
        task = asyncio.get_running_loop().create_task(self._supervise(session, timeout_s))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def background(self, session: Session) -> None:
        """The run leaves its exec call's yield window: listed, kept after it ends, notified on exit."""
        session.background()
        self.record(session)
        self.publish(EventKind.BACKGROUNDED, session)

    async def look(self, sessions: Sequence[Session]) -> None:
        """A call reads these sessions: their figures, at most 2 s old."""
        await self.figures.fresh(sessions)

    def _figures_read(self, figures: dict[str, dict[str, Any]]) -> None:
        self.bus.publish(Event(EventKind.RESOURCES, None, Resources(figures)))

    def sessions(self, agent: str | None = None) -> list[Session]:
        """Every session in scope, running foreground ones included, newest first."""
        found = [s for s in self.registry if agent is None or s.agent == agent]
        return sorted(found, key=lambda s: s.order, reverse=True)

    async def _supervise(self, session: Session, timeout_s: float) -> None:
        try:
            await supervise(session, timeout_s)
        finally:
            if session.running:  # supervision itself failed: never leave a live group behind
                session.mark_exited(255 << 8)
            self.containment.ended(session.id)
            session.done.set()
            self.finish(session)

    def finish(self, session: Session) -> None:
        """A session ended: its exit notice, its record's end, the watchers, and its place in the registry."""
        notice = self.notices.on_exit(session)
        session.record_exit(notice)
        self.publish(EventKind.EXITED, session)
        if notice is not None:
            self.bus.publish(Event(EventKind.NOTIFICATION, session.id, notice))
        self.registry.finished(session)

    async def end_all(self) -> None:
        """End every running session (SIGTERM, grace, SIGKILL) and wait until each is marked ended; a run
        still waiting for the operator ends never run."""
        self.approvals.void_all("the host shut down before anyone decided")
        running = [s for s in self.registry if s.running and s.child is not None]
        await asyncio.gather(*(end_session(s, "shutdown") for s in running), return_exceptions=True)
        await asyncio.gather(*(s.done.wait() for s in running), return_exceptions=True)

    async def close(self) -> None:
        """After :meth:`end_all`: let the supervisors finish, the nodes go, and free the containment."""
        await self.figures.close()
        if self.nodes is not None:  # node sessions are the nodes' own: only the connections end
            await self.nodes.close()
        for task in list(self._tasks):
            if not task.done():
                await asyncio.wait([task], timeout=5)
        await self.approvals.close()
        await self.containment.close()
        self.registry.close()

    # -- a re-exec in place (see reexec_state.py) -------------------------------------------------
    def revived(self, record: dict[str, Any]) -> Session:
        """A session of the previous image of this host, from its record (not registered yet)."""
        session = Session.from_json(record, self._on_session_change)
        if session.pty and self.terminal is not None:
            session.replier = self.terminal.replier(session)
        return session

    def adopt(self, session: Session, timeout_s: float, grace_left: float | None) -> None:
        """Supervise a running session whose child was adopted: ``timeout_s`` is what its timeout had left
        (0: none), and a termination that was under way resumes with the grace it had left."""
        self.publish(EventKind.ADDED, session)
        self.supervise(session, timeout_s)
        if grace_left is not None:
            ending = asyncio.ensure_future(end_session(session, None, grace_left))
            self._tasks.add(ending)
            ending.add_done_callback(self._tasks.discard)

    def _removed(self, session: Session) -> None:
        self.notices.forget(session.id)
        if self.mutes.forget(session.id):
            self.journal.mutes(self.mutes.to_json())
        if session.journal is not None:
            self.journal.forget(session.id)
        self.publish(EventKind.REMOVED, session)

    # -- the journal ----------------------------------------------------------------------------
    def record(self, session: Session, catch_up: bool = True) -> None:
        """Journal ``session`` from now on (backgrounded sessions are: only they are kept). One a re-exec
        resumed goes on from its :class:`~openclaw_tui.core.journal.HeldRecord`: what it printed since the
        handover."""
        held = session.journal if isinstance(session.journal, HeldRecord) else None
        if self.journal.writing and (session.journal is None or held is not None):
            record = self.journal.session(session.id, caps_of(session))  # (may add to ``held``)
            if held is not None:
                held.replay(record)
            session.keep_record(record, catch_up and held is None)

    def restore(self, journal: Journal, found: Recovered, swept: list[Swept]) -> Restored:
        """Take over ``journal`` and bring back what it holds (``found``): no id it issued is issued again;
        finished sessions within their TTL are listed again, sessions that were running when their host
        died are listed as ended (``host-died``, with ``swept``'s word on their processes) and their agents
        get the exit notice on their next call, as do agents never told of an exit. Sessions already here
        (adopted across a re-exec) keep running and are journaled on, from what their record held at the
        handover and what they printed since (their :class:`~openclaw_tui.core.journal.HeldRecord`)."""
        self.journal = journal
        for session_id in found.issued:
            self.registry.issued.add(session_id)
        decisions.recovered(self, found.approvals)
        if found.mutes:  # the journal's are the newest (a re-exec wrote them down before it handed over)
            self.mutes = Mutes.from_json(found.mutes)
        done = Restored()
        now = now_ms()
        for old in sorted(found.sessions.values(), key=lambda r: r.meta.get("order", 0)):
            here = self.registry.get(old.session_id, None)
            if here is not None:
                self.record(here, catch_up=False)
                continue
            try:
                session = rebuild(old, self._on_session_change)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                done.problems.append(f"the journal record of session {old.session_id} could not be read back "
                                     f"({type(exc).__name__}: {exc}); left on disk")
                continue
            self._restore_one(session, old, now, swept, done)
        self.registry.evict_restored()
        self.release_held_records()  # of sessions whose record is gone: those running are caught up below
        for session in self.registry:  # running here but never journaled (adopted before a journal existed)
            if session.backgrounded and session.running:
                self.record(session)
            session.muted = self.mutes.covers(session.id, session.agent)
        return done

    def release_held_records(self) -> None:
        """Drop what a re-exec's sessions still keep for a journal that did not take them (see :meth:`restore`)."""
        for session in self.registry:
            if isinstance(session.journal, HeldRecord):
                session.record_to(None)

    def _restore_one(self, session: Session, old: RecoveredSession, now: int, swept: list[Swept],
                     done: Restored) -> None:
        owed = owed_notice(old)
        died = session.running
        if died:
            session.mark_host_died(now, leftover_of(session.id, swept))
        ttl_left_s = (session.settings.ttl_ms - (now - (session.exit.ended_ms or now))) / 1000
        if ttl_left_s <= 0:
            self.journal.forget(session.id)
            done.expired += 1
            return
        session.record_to(self.journal.session(session.id))
        if died:
            session.record_exit(self.notices.on_exit(session))
            done.died += 1
        else:
            if owed is not None:
                self.notices.add(owed)
            done.finished += 1
        session.muted = self.mutes.covers(session.id, session.agent)
        self.registry.restore(session, ttl_left_s)
        self.publish(EventKind.ADDED, session)
        if died:  # its end is news now, to whoever listens (the operator's notifications)
            self.publish(EventKind.EXITED, session)

    # -- the operator's mutes -------------------------------------------------------------------------
    def set_mute(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> list[Session]:
        """Mute (or unmute) a session or an agent: recorded in the journal, and each session it covers
        now published (``session-muted``); returns those sessions."""
        if self.mutes.set(muted, session_id, agent):
            self.journal.mutes(self.mutes.to_json())
        for session in self.registry:
            now = self.mutes.covers(session.id, session.agent)
            if now != session.muted:
                session.muted = now
                self.publish(EventKind.MUTED, session)
        return [s for s in self.registry if s.id == session_id or (session_id is None and s.agent == agent)]

    def _told(self, session_id: str) -> None:
        session = self.registry.get(session_id, None)
        if session is not None:
            session.mark_told()

    def journal_status(self) -> dict[str, Any]:
        """Whether sessions are being saved to disk, and the journal's problem if it has one."""
        return status(self.journal)

    def journal_state(self) -> JournalState:
        """:meth:`journal_status` as the events tell it."""
        return JournalState(self.journal.writing, self.journal.problem)

    # -- events ---------------------------------------------------------------------------------
    def publish(self, kind: EventKind, session: Session) -> None:
        if self.bus.active:
            payload = NEW_OUTPUT if kind == EventKind.OUTPUT else SessionState(session.details())
            self.bus.publish(Event(kind, session.id, payload))

    def _snapshot(self) -> Event:
        sessions = tuple(s.details() for s in self.sessions())
        approvals = tuple(r.to_json() for r in self.approvals.pending())
        return Event(EventKind.SNAPSHOT, None, Snapshot(sessions, self.journal_state(), approvals=approvals))

    def _on_session_change(self, kind: str, session: Session) -> None:
        self.publish(EventKind.OUTPUT if kind == "output" else EventKind.INPUT, session)
