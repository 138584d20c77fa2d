"""``openclaw-tui mcp``: the tools ``exec`` and ``process`` for an agent, as an MCP server on stdio.

Built on the official MCP Python SDK, it holds no sessions itself: every tool call is forwarded to the host
serving this user's socket, started if none does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import warnings
from pathlib import Path
from typing import Any, get_args

import mcp_types as types
from mcp.server.connection import allowed_log_levels
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.session import ServerSession
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from openclaw_tui.core.calls import TOOL_NAMES, failure, unknown_tool
from openclaw_tui.core.session import Event, ExitNotice, Status
from openclaw_tui.core.version import __version__

from ..wire import (
    BACK_S,
    HostClient,
    HostUnavailable,
    NoHost,
    RideThrough,
    find_host,
    protocol as p,
    socket_path,
    start_host,
)
from .mcp_tools import to_mcp_result, tool_definitions

DEFAULT_SCOPE = "mcp"
LOGGER = "openclaw-tui"
LEVELS: tuple[str, ...] = get_args(types.LoggingLevel)


class McpBridge:
    """The MCP side (tool handlers, notifications) joined to one host connection."""

    def __init__(self, agent: str | None, config_path: str | None, path: Path | None = None) -> None:
        self.scope: str | None = agent or None
        self.config_path = config_path
        self.path = path or socket_path()
        self._search = path is None  # look for a host on every candidate path before each connect
        self.client: HostClient | None = None
        self.serve_proc: subprocess.Popen[bytes] | None = None
        self.min_level: types.LoggingLevel = "debug"
        self._first: asyncio.Task[HostClient] | None = None
        self._lock = asyncio.Lock()
        self._lost = False  # a host we were connected to went away
        self._tell_reconnected = False
        self._closing = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._legacy_session: ServerSession | None = None  # handshake era: the connection's own channel
        self._inflight: list[ServerRequestContext[Any, Any]] = []  # 2026-07-28 era: open tool calls
        self.tools = tool_definitions()
        self.cwd = os.getcwd()  # the agent's directory: exec calls without workdir run here

    # -- the MCP server ---------------------------------------------------------------------------
    def build_server(self) -> Server[Any]:
        with warnings.catch_warnings():  # logging is deprecated at 2026-07-28; handshake clients use it
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            server: Server[Any] = Server(
                "openclaw-tui",
                version=__version__,
                title="openclaw-tui",
                instructions=(
                    "Run shell commands with exec; long or interactive ones continue as background sessions "
                    "you supervise with process (poll with a timeout instead of sleeping; you are notified "
                    "when a background session exits)."
                ),
                on_list_tools=self._on_list_tools,
                on_call_tool=self._on_call_tool,
                on_set_logging_level=self._on_set_level,
            )
        server.add_notification_handler(
            "notifications/initialized", types.NotificationParams, self._on_initialized
        )
        return server

    async def _on_list_tools(self, ctx: ServerRequestContext[Any, Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools)

    async def _on_set_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        self.min_level = params.level
        return types.EmptyResult()

    async def _on_initialized(self, ctx: ServerRequestContext[Any, Any], params: Any) -> None:
        # The handshake is complete: this session's standalone channel reaches the client any time.
        self._legacy_session = ctx.session
        self._adopt_scope(ctx.session)

    async def _on_call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        self._adopt_scope(ctx.session)
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        if modern:
            self._inflight.append(ctx)
        elif self._legacy_session is None:  # a client that skipped notifications/initialized
            self._legacy_session = ctx.session
        try:
            res = await self.call(params.name, params.arguments)
        except Exception as exc:  # a bug here must not cost the agent its server
            res = failure(f"internal error in the MCP server: {type(exc).__name__}: {exc}", "internal-error")
        finally:
            if modern:
                self._inflight.remove(ctx)
        return to_mcp_result(res)

    def _adopt_scope(self, session: ServerSession) -> None:
        if self.scope is not None:
            return
        client_params = session.client_params
        name = client_params.client_info.name if client_params is not None else ""
        self.scope = name or DEFAULT_SCOPE
        if self.client is not None and not self.client.closed.is_set():
            self._spawn(self._follow_events(self.client))

    # -- tool calls -------------------------------------------------------------------------------
    async def call(self, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
        if name not in TOOL_NAMES:
            return unknown_tool(name)
        args = dict(arguments or {})
        if "tool" in args and args.pop("tool") != name:
            return failure(
                f"unknown parameter 'tool' in the {name} call (the tool is chosen by the call's name)",
                "invalid-params",
            )
        try:
            client = await self._host()
        except HostUnavailable as exc:
            return failure(str(exc), "no-host")
        note, self._tell_reconnected = self._tell_reconnected, False
        call = p.in_callers_directory({"tool": name, **args}, self.cwd)
        ride = RideThrough(call)
        while True:
            try:
                res = await client.call(call, agent=self.scope or DEFAULT_SCOPE)
                break
            except p.RemoteError as exc:
                return failure(f"the openclaw-tui host rejected the call: {exc}", "host-error")
            except ConnectionError:
                if not await self._recover(client):
                    self._lost = True
                    return failure(self._gone_text("while this call was running; its outcome is unknown"), "host-gone")
                why = ride.restarted()
                if why is not None:
                    return failure(why, "host-restarted")
                assert self.client is not None
                client = self.client
        if note and isinstance(res.get("text"), str):
            res["text"] = (
                "Note: the openclaw-tui host went away earlier and this server has reconnected; sessions "
                "started before that are gone.\n\n" + res["text"]
            )
        return res

    def _gone_text(self, when: str) -> str:
        return (
            f"the openclaw-tui host on {self.path} went away {when}. Sessions started on it are gone. "
            "Start it again with `openclaw-tui serve` (or open the dashboard); the next call reconnects."
        )

    async def _host(self) -> HostClient:
        client = self.client
        if client is not None and not client.closed.is_set():
            return client
        if self._first is not None and not self._first.done():
            return await asyncio.shield(self._first)
        async with self._lock:
            client = self.client
            if client is not None and not client.closed.is_set():
                return client
            if self.client is not None or self._lost:  # we had a host and it went away
                self._lost = True
                try:
                    client = await self._connect(autostart=False)
                except HostUnavailable:
                    raise HostUnavailable(self._gone_text("and is still not running")) from None
                self._tell_reconnected = True
                self._lost = False
                return client
            return await self._connect(autostart=True)  # the first attempt failed: try again

    # -- the host connection ----------------------------------------------------------------------
    def start(self) -> None:
        """Connect (starting a host if none runs) in the background."""
        self._first = asyncio.ensure_future(self._connect(autostart=True))
        self._first.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved later by calls

    async def _connect(self, autostart: bool) -> HostClient:
        if self._search:
            self.path = await asyncio.to_thread(find_host) or socket_path()
        try:
            client = await self._try_connect()
        except NoHost:
            if not autostart:
                raise HostUnavailable(f"no openclaw-tui host is running on {self.path}") from None
            client, self.serve_proc = await start_host(self.path, self.config_path, self._try_connect)
        return self._use(client)

    def _use(self, client: HostClient) -> HostClient:
        self.client = client
        self._spawn(self._watch(client))
        if self.scope is not None:
            self._spawn(self._follow_events(client))
        return client

    async def _recover(self, lost: HostClient) -> bool:
        """After ``lost`` closed: reconnect if the same host (same ``hostId``) serves again, as after it
        re-executed itself in place, its sessions kept; False when none answers or another one does. Its
        socket stays bound meanwhile, so a connection made now waits in the backlog: this is quick."""
        async with self._lock:
            now = self.client
            if now is not lost and now is not None and not now.closed.is_set():
                return now.hello.get("hostId") == lost.hello.get("hostId")  # recovered already
            try:
                client = await asyncio.wait_for(self._try_connect(), BACK_S)
            except (NoHost, HostUnavailable, TimeoutError):
                return False
            if client.hello.get("hostId") != lost.hello.get("hostId"):
                await client.close()
                return False
            self._use(client)
            return True

    async def _try_connect(self) -> HostClient:
        try:
            return await HostClient.connect(self.path, client=f"openclaw-tui mcp ({self.scope or 'agent'})")
        except NoHost:
            raise
        except (OSError, p.RemoteError) as exc:
            raise HostUnavailable(f"cannot reach the openclaw-tui host on {self.path}: {exc}") from exc

    async def _watch(self, client: HostClient) -> None:
        await client.closed.wait()
        if not self._closing and client is self.client and not await self._recover(client):
            self._lost = True
            if self.serve_proc is not None:
                self.serve_proc.poll()  # reap it if it was ours

    async def _follow_events(self, client: HostClient) -> None:
        with contextlib.suppress(ConnectionError, p.RemoteError):
            async for params in client.events():
                event = Event.from_json(params)
                notice = event.payload if event is not None else None
                if isinstance(notice, ExitNotice) and notice.agent == self.scope:
                    await self.notify(notice)

    # -- notifications ----------------------------------------------------------------------------
    async def notify(self, notice: ExitNotice) -> None:
        level: types.LoggingLevel = "warning" if notice.status == Status.FAILED else "info"
        text = notice.text
        try:
            if self._legacy_session is not None:
                if LEVELS.index(level) < LEVELS.index(self.min_level):
                    return
                message = types.LoggingMessageNotification(
                    params=types.LoggingMessageNotificationParams(level=level, data=text, logger=LOGGER)
                )
                await self._legacy_session.send_notification(message)
                return
            for ctx in list(self._inflight):  # 2026-07-28: only on a call's own stream, when it opted in
                if level in allowed_log_levels(ctx.protocol_version, ctx.meta):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", MCPDeprecationWarning)
                        await ctx.session.send_log_message(
                            level, text, LOGGER, related_request_id=ctx.request_id
                        )
                    return
        except Exception:  # the client went away; the notice still reaches the next result
            return

    # -- lifecycle --------------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self._closing = True
        if self._first is not None and not self._first.done():
            self._first.cancel()
            with contextlib.suppress(BaseException):
                await self._first
        for task in list(self._tasks):
            task.cancel()
        if self.client is not None:
            await self.client.close()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


async def serve_mcp(agent: str | None, config_path: str | None) -> int:
    bridge = McpBridge(agent, config_path)
    server = bridge.build_server()
    bridge.start()
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        await bridge.close()
    return 0


def run_mcp(agent: str | None, config_path: str | None) -> int:
    """``openclaw-tui mcp``: serve MCP on stdin/stdout until the client closes stdin."""
    try:
        return asyncio.run(serve_mcp(agent, config_path))
    except KeyboardInterrupt:
        return 130
