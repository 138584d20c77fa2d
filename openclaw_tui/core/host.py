"""``SessionHost``: the one object every surface talks to — tool calls in, results and events out.

It reads each call (:mod:`.toolcall`), runs it through the tool table (:mod:`.tools`) over its
:class:`~.supervisor.Supervisor`, prepends the caller's queued exit notices, and never raises for a bad
call. Leaving ``async with`` a host ends all sessions the way a kill does, returning only once none of
their processes is left. A ticker re-checks the waiting-for-input rule (the idle rule, and the kernel's
evidence for PTYs) so watchers hear when a session starts or stops waiting.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from . import calltext, toolcall
from . import events as ev
from .config import Settings, load_settings
from .events import Event, Listener
from .handover import Handover, capture, release, restore
from .inputwait import IDLE_BEFORE_CHECK_MS, foreground_group, kernel_wait_reason
from .lifecycle import Table, fresh_table
from .liverecord import Swept
from .results import ToolResult, failure
from .session import Session
from .shell import start_probe
from .supervisor import Supervisor
from .toolcore import TerminalEngine
from .tools import run_tool

TICK_S = 0.5


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
        self.closed = False
        self.swept: asyncio.Task[list[Swept]] | None = None
        """Ends what dead hosts left behind, when the host starts; its result reports what it ended."""
        self.generation = 0
        """How many times this host re-executed itself in place (see :meth:`handover`)."""

    # -- lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SessionHost:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def start(self) -> None:
        """Begin: the waiting-for-input ticker, the login shell's PATH probe and (unless this host resumed
        after a re-exec: it swept when it first began) the sweep of what dead hosts left."""
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
            settings = self.supervisor.settings
            if settings.exec.login_path or any(a.login_path for a in settings.agents.values()):
                start_probe()  # the login shell's PATH, ready before the first run needs it
            if not self.generation:
                self.swept = asyncio.get_running_loop().create_task(self.supervisor.containment.sweep())

    async def close(self) -> None:
        """End every running session (SIGTERM, grace, SIGKILL), wait until none of their processes is left,
        then free the containment (cgroups, watchdog, live record)."""
        self.closed = True
        await self.supervisor.end_all()
        if self._ticker is not None:
            self._ticker.cancel()
        if self.swept is not None:
            await asyncio.gather(self.swept, return_exceptions=True)
        await self.supervisor.close()

    # -- a re-exec in place (see handover.py) -----------------------------------------------------
    def handover(self) -> Handover:
        """Stop watching every child and write the whole host down for its next image, which resumes it with
        :meth:`resume` (synchronous: nothing happens to a session between the two)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        found = capture(self.supervisor)
        found.state["generation"] = self.generation
        return found

    def release_handover(self, found: Handover | None) -> None:
        """The exec did not happen: go on as before :meth:`handover` (``found`` is None if it failed)."""
        release(self.supervisor, found)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    def resume(self, state: dict[str, Any]) -> None:
        """Go on as the host whose :meth:`handover` wrote ``state``: the same sessions (running ones
        supervised again at once), ids, notices and containment; :meth:`start` then begins the rest.
        Raises :class:`~.handover.CannotResume` (or any error of the restore) when it cannot."""
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
            running = [s for s in self.supervisor.registry if s.running]
            table = None
            if any(s.pty and s.stdin_writable and s.idle_ms() > IDLE_BEFORE_CHECK_MS for s in running):
                table = await fresh_table()
            for session in running:
                if session.update_waiting(self._kernel_reason(session, table)):
                    self.supervisor.publish(ev.WAITING, session)

    @staticmethod
    def _kernel_reason(session: Session, table: Table | None) -> str | None:
        child = session.child
        if table is None or not session.pty or child is None or child.stdin_fd is None:
            return None
        if session.idle_ms() <= IDLE_BEFORE_CHECK_MS:
            return None
        pgrp = foreground_group(child.stdin_fd)
        return kernel_wait_reason(child.stdin_fd, table.get(pgrp, [])) if pgrp else None
