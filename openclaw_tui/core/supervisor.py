"""The sessions of one host and everything the tools work on: spawning, supervising, backgrounding.

``exec`` and ``process`` are functions over this object, not over the host: it holds exactly what they
need (the settings, the registry, the exit notices, the terminal engine, the nodes) and the two acts
that change a session's place (``spawn`` and ``background``). It starts one supervisor task per
session, which waits for the run to end, makes sure nothing of it survives, queues the exit notice and
tells watchers (every change goes out on ``bus``). The host around it adds the tool table, the
waiting-for-input check and the lifecycle (see :mod:`.host`), as asyncio's ``Process`` wraps a protocol.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import events as ev
from .config import ExecSettings, Settings
from .containment import Containment
from .events import Event, EventBus
from .launch import end_session, start, supervise
from .names import derive_name
from .notify import Notices
from .registry import Registry
from .session import Session
from .toolcore import TerminalEngine

if TYPE_CHECKING:
    from .placement import Nodes


class Supervisor:
    """Spawns, supervises and keeps the sessions of one host (what the tools see of it: :class:`~.toolcore.ToolCore`).

    Args:
        settings: the host's settings (each run captures its agent's exec settings when admitted).
        terminal: the terminal engine (``openclaw_tui.ToolHost`` gives the product's).
    """

    nodes: Nodes | None = None
    """The other machines calls may run on (:mod:`.placement`); ``openclaw_tui.ToolHost`` sets them from
    ``[nodes.NAME]`` when the config has any."""

    def __init__(self, settings: Settings, terminal: TerminalEngine | None = None) -> None:
        self.settings = settings
        self.terminal = terminal
        self.bus = EventBus(self._snapshot)
        self.registry = Registry(on_removed=self._removed)
        self.notices = Notices()
        self.containment = Containment(settings.containment, settings.state_dir, settings.exec.kill_grace_s)
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- sessions -------------------------------------------------------------------------------
    def spawn(self, command: str, agent: str | None, cwd: str, pty: bool, env: Mapping[str, str],
              timeout_s: float, settings: ExecSettings) -> Session:
        """Spawn and register a session and its supervisor; raises LaunchError (nothing registered)."""
        session = Session(self.registry.new_id(), command, derive_name(command), agent, cwd, pty, settings,
                          self._on_session_change, self.terminal.replier if self.terminal is not None else None)
        session.launched(start(session, env, os.environ, self.containment))
        self.registry.add(session)
        self.publish(ev.ADDED, session)
        task = asyncio.get_running_loop().create_task(self._supervise(session, timeout_s))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return session

    def background(self, session: Session) -> None:
        """The run leaves its exec call's yield window: listed, kept after it ends, notified on exit."""
        session.background()
        self.publish(ev.BACKGROUNDED, session)

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
            notice = self.notices.on_exit(session)
            self.publish(ev.EXITED, session)
            if notice is not None:
                self.bus.publish(Event(ev.NOTIFICATION, session.id, notice))
            self.registry.finished(session)

    async def end_all(self) -> None:
        """End every running session (SIGTERM, grace, SIGKILL) and wait until each is marked ended."""
        running = [s for s in self.registry if s.running and s.child is not None]
        await asyncio.gather(*(end_session(s, "shutdown") for s in running), return_exceptions=True)
        await asyncio.gather(*(s.done.wait() for s in running), return_exceptions=True)

    async def close(self) -> None:
        """After :meth:`end_all`: let the supervisors finish, the nodes go, and free the containment."""
        if self.nodes is not None:  # node sessions are the nodes' own: only the connections end
            await self.nodes.close()
        for task in list(self._tasks):
            if not task.done():
                await asyncio.wait([task], timeout=5)
        await self.containment.close()
        self.registry.close()

    # -- a re-exec in place (see handover.py) -----------------------------------------------------
    def revived(self, record: dict[str, Any]) -> Session:
        """A session of the previous image of this host, from its record (not registered yet)."""
        session = Session.from_json(record, self._on_session_change)
        if session.pty and self.terminal is not None:
            session.replier = self.terminal.replier(session)
        return session

    def adopt(self, session: Session, timeout_s: float, grace_left: float | None) -> None:
        """Supervise a running session whose child was adopted: ``timeout_s`` is what its timeout had left
        (0: none), and a termination that was under way resumes with the grace it had left."""
        self.publish(ev.ADDED, session)
        task = asyncio.get_running_loop().create_task(self._supervise(session, timeout_s))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if grace_left is not None:
            ending = asyncio.ensure_future(end_session(session, None, grace_left))
            self._tasks.add(ending)
            ending.add_done_callback(self._tasks.discard)

    def _removed(self, session: Session) -> None:
        self.notices.forget(session.id)
        self.publish(ev.REMOVED, session)

    # -- events ---------------------------------------------------------------------------------
    def publish(self, kind: str, session: Session) -> None:
        if self.bus.active:
            self.bus.publish(Event(kind, session.id, {} if kind == ev.OUTPUT else session.details()))

    def _snapshot(self) -> Event:
        return Event(ev.SNAPSHOT, None, {"sessions": [s.details() for s in self.sessions()]})

    def _on_session_change(self, kind: str, session: Session) -> None:
        self.publish(ev.OUTPUT if kind == "output" else ev.INPUT, session)
