"""``SessionHost``: the one object every surface talks to — tool calls in, results and events out.

It validates JSON tool calls at the pydantic boundary, runs them, prepends the caller's queued exit
notices, and never raises for a bad call. It owns the registry and every session's supervisor task, and
leaving ``async with`` a host ends all sessions the way a kill does, returning only once none of
their processes is left. A ticker re-checks the waiting-for-input rule (the idle rule, and the kernel's
evidence for PTYs) so watchers hear when a session starts or stops waiting.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Protocol

from pydantic import ValidationError

from . import calltext
from . import events as ev
from .arglimits import too_long
from .config import ExecSettings, Settings, load_settings
from .containment import Containment
from .events import Event, EventBus, Listener
from .exec_tool import background_result, refused, run_exec
from .inputwait import IDLE_BEFORE_CHECK_MS, foreground_group, kernel_wait_reason
from .launch import end_session, start, supervise
from .lifecycle import Table, fresh_table
from .liverecord import Swept
from .models import ExecParams, ProcessParams, describe_error
from .names import derive_name
from .notify import Notices
from .placement import Nodes, route
from .process_tool import run_process
from .rawring import RawRing
from .registry import Registry
from .results import ToolResult, failure
from .session import Replier, Session
from .shell import start_probe

TICK_S = 0.5
TOOLS = ("exec", "process")


class TerminalEngine(Protocol):
    """What a terminal engine does for the host. The core knows no terminal: without an engine, PTY
    programs' queries go unanswered and the ``screen`` action is refused."""

    def replier(self, session: Session) -> Replier:
        """The function that answers ``session``'s terminal queries."""
        ...

    def screen(self, session: Session) -> str:
        """``session``'s screen now, as text."""
        ...


class SessionHost:
    """Runs ``exec``/``process`` tool calls against real processes.

    Args:
        config_path: TOML config file (default: ``$OPENCLAW_TUI_CONFIG`` or the XDG config path).
        env: the environment settings are read from (default ``os.environ``); children still inherit
            the real process environment.
        settings: ready-made settings, bypassing file and environment (tests, embedding).
    """

    terminal: TerminalEngine | None = None
    """The terminal engine; ``openclaw_tui.ToolHost`` is this host with the product's engine set."""
    nodes: Nodes | None = None
    """The other machines calls may run on (``placement.py``); ``openclaw_tui.ToolHost`` sets them from
    ``[nodes.NAME]`` when the config has any."""

    def __init__(
        self,
        config_path: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or load_settings(config_path, env)
        self.bus = EventBus(self._snapshot)
        self.registry = Registry(on_removed=lambda s: self._publish(ev.REMOVED, s))
        self.notices = Notices()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.closed = False
        self.containment = Containment(self.settings.containment, self.settings.state_dir,
                                       self.settings.exec.kill_grace_s)
        self.swept: asyncio.Task[list[Swept]] | None = None
        """Ends what dead hosts left behind, when the host starts; its result reports what it ended."""

    # -- lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SessionHost:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def start(self) -> None:
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
            if self.settings.exec.login_path or any(a.login_path for a in self.settings.agents.values()):
                start_probe()  # the login shell's PATH, ready before the first run needs it
            self.swept = asyncio.get_running_loop().create_task(self.containment.sweep())

    async def close(self) -> None:
        """End every running session (SIGTERM, grace, SIGKILL), wait until none of their processes is left,
        then free the containment (cgroups, watchdog, live record)."""
        self.closed = True
        running = [s for s in self.registry if s.running and s.child is not None]
        await asyncio.gather(*(end_session(s, "shutdown") for s in running), return_exceptions=True)
        await asyncio.gather(*(s.done.wait() for s in running), return_exceptions=True)
        if self._ticker is not None:
            self._ticker.cancel()
        if self.nodes is not None:  # node sessions are the nodes' own: only the connections end
            await self.nodes.close()
        for task in list(self._tasks):
            if not task.done():
                await asyncio.wait([task], timeout=5)
        if self.swept is not None:
            await asyncio.gather(self.swept, return_exceptions=True)
        await self.containment.close()
        self.registry.close()

    def force_kill(self) -> None:
        """The operator insists: SIGKILL every running session's processes now (no grace)."""
        self.containment.force_kill()

    # -- tool calls -----------------------------------------------------------------------------
    async def call(self, call: Mapping[str, Any] | str, agent: str | None = None) -> ToolResult:
        """Run one tool call (a dict or JSON text); always returns ``{"text", "details"}``."""
        try:
            res = await self._dispatch(call, agent)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the host down; say what happened instead
            res = failure(f"internal error while running the call: {type(exc).__name__}: {exc}", "internal-error")
        return self._with_notices(res, agent)

    async def _dispatch(self, call: Mapping[str, Any] | str, agent: str | None) -> ToolResult:
        if isinstance(call, str):
            try:  # a large call is decoded off the loop (see calltext.loads_large)
                call = calltext.loads(call) if len(call) < calltext.LARGE else await asyncio.to_thread(
                    calltext.loads_large, call)
            except calltext.BadJSON as exc:
                return failure(f"the call is not valid JSON: {exc}", "invalid-json")
        if not isinstance(call, Mapping):
            return failure("a tool call must be a JSON object like {\"tool\": \"exec\", \"command\": \"ls\"}", "invalid-call")
        if self.closed:
            return failure("the host is shutting down; no new calls are accepted", "host-closed")
        args = dict(call)
        tool = args.pop("tool", None)
        if tool not in TOOLS:
            return failure(f"unknown tool {calltext.shown(tool)}; valid tools: exec, process", "unknown-tool")
        if tool == "process" and not self.settings.process_allowed:
            return failure("the process tool is not allowed by this host's configuration", "tool-not-allowed")
        problem = calltext.shape_problem(args)
        if problem is not None:  # text no environment can hold is invalid-env, as a NUL there is at launch
            kind = "invalid-env" if problem.not_text and problem.parameter == "env" else "invalid-params"
            return failure(f"invalid {tool} call: {problem.sentence}", kind)
        model = ExecParams if tool == "exec" else ProcessParams
        try:
            params = model.model_validate(args)
        except ValidationError as exc:
            return failure(f"invalid {tool} call: {describe_error(exc, model)}", "invalid-params")
        routed = await route(self, params, agent)  # a node's call (or list, merged with the nodes')
        if routed is not None:
            return routed
        if isinstance(params, ExecParams):
            over = too_long(params.command, params.env, os.environ)
            if over is not None:
                return refused(over[1], over[0])
            return await run_exec(self, params, agent)
        return await run_process(self, params, agent)

    def _with_notices(self, res: ToolResult, agent: str | None) -> ToolResult:
        if agent is None:
            return res
        notices = self.notices.take(agent)
        if notices:
            res["text"] = "\n".join(n["text"] for n in notices) + "\n\n" + res["text"]
            res["details"]["notifications"] = notices
        return res

    # -- sessions -------------------------------------------------------------------------------
    def start_session(
        self,
        command: str,
        agent: str | None,
        cwd: str,
        pty: bool,
        env: Mapping[str, str],
        timeout_s: float,
        settings: ExecSettings,
    ) -> Session:
        """Spawn and register a session and its supervisor; raises LaunchError (nothing registered)."""
        session = Session(
            self.registry.new_id(), command, derive_name(command), agent, cwd, pty, settings, self._on_session_change
        )
        if pty and self.terminal is not None:
            session.replier = self.terminal.replier(session)
        start(session, env, os.environ, self.containment)
        self.registry.add(session)
        self._publish(ev.ADDED, session)
        task = asyncio.get_running_loop().create_task(self._supervise(session, timeout_s))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return session

    async def _supervise(self, session: Session, timeout_s: float) -> None:
        try:
            await supervise(session, timeout_s)
        finally:
            if session.ended_ms is None:  # supervision itself failed: never leave a live group behind
                session.mark_exited(255 << 8)
            self.containment.ended(session.id)
            session.done.set()
            notice = self.notices.on_exit(session)
            self._publish(ev.EXITED, session)
            if notice is not None:
                self.bus.publish(Event(ev.NOTIFICATION, session.id, notice))
            self.registry.finished(session)

    def background(self, session: Session) -> ToolResult:
        session.backgrounded = True
        self._publish(ev.BACKGROUNDED, session)
        return background_result(session)

    def session(self, session_id: str, agent: str | None = None) -> Session | None:
        return self.registry.get(session_id, agent)

    def sessions(self, agent: str | None = None) -> list[Session]:
        """Every session in scope, running foreground ones included, newest first (for dashboards)."""
        found = [s for s in self.registry if agent is None or s.agent == agent]
        return sorted(found, key=lambda s: s.order, reverse=True)

    def raw_output(self, session_id: str) -> RawRing | None:
        session = self.registry.get(session_id, None)
        return session.raw if session is not None else None

    # -- events ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Snapshot first, then every session event; returns an unsubscribe function."""
        return self.bus.subscribe(listener)

    def watch(self) -> AsyncIterator[Event]:
        return self.bus.watch()

    def _snapshot(self) -> Event:
        return Event(ev.SNAPSHOT, None, {"sessions": [s.details() for s in self.sessions()]})

    def _publish(self, kind: str, session: Session) -> None:
        if self.bus.active:
            self.bus.publish(Event(kind, session.id, {} if kind == ev.OUTPUT else session.details()))

    def _on_session_change(self, kind: str, session: Session) -> None:
        self._publish(ev.OUTPUT if kind == "output" else ev.INPUT, session)

    async def _tick(self) -> None:
        """Re-check who is waiting for input: the idle rule, and the kernel's evidence for PTYs."""
        while True:
            await asyncio.sleep(TICK_S)
            running = [s for s in self.registry if s.running]
            table = None
            if any(s.pty and s.stdin_writable and s.idle_ms() > IDLE_BEFORE_CHECK_MS for s in running):
                table = await fresh_table()
            for session in running:
                if session.update_waiting(self._kernel_reason(session, table)):
                    self._publish(ev.WAITING, session)

    @staticmethod
    def _kernel_reason(session: Session, table: Table | None) -> str | None:
        child = session.child
        if table is None or not session.pty or child is None or child.stdin_fd is None:
            return None
        if session.idle_ms() <= IDLE_BEFORE_CHECK_MS:
            return None
        pgrp = foreground_group(child.stdin_fd)
        return kernel_wait_reason(child.stdin_fd, table.get(pgrp, [])) if pgrp else None
