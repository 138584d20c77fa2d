"""An agent's side of ``openclaw-tui mcp``: the SDK's own stdio client against the real command.

The server runs as ``python -m openclaw_tui mcp``, a subprocess the client owns, pointed at a private socket
through ``$OPENCLAW_TUI_SOCKET`` and given the whole environment (the suite's leftover marker must reach it and
its children). Timed polls do the waiting.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

DEADLINE_S = 20.0


def server_params(sock: Path, agent: str | None, config: str | None = None,
                  cwd: Path | None = None) -> StdioServerParameters:
    args = ["-m", "openclaw_tui"] + (["--config", config] if config else []) + ["mcp"]
    args += ["--agent", agent] if agent else []
    # The whole environment: the suite's leftover-process marker must reach the server and its children.
    return StdioServerParameters(
        command=sys.executable, args=args, env=dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock)), cwd=cwd
    )


@contextlib.asynccontextmanager
async def mcp_session(
    sock: Path,
    agent: str | None = None,
    name: str = "test-client",
    logs: list[Any] | None = None,
    config: str | None = None,
    cwd: Path | None = None,
) -> AsyncIterator[ClientSession]:
    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        if logs is not None:
            logs.append(params)

    info = types.Implementation(name=name, version="1.0")
    async with (
        stdio_client(server_params(sock, agent, config, cwd)) as (read, write),
        ClientSession(read, write, logging_callback=on_log, client_info=info) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> types.CallToolResult:
    return await session.call_tool(tool, arguments)


def text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def over_mcp(session: ClientSession) -> Callable[..., Awaitable[dict[str, Any]]]:
    """``session`` as a surface for :func:`tests.support.sessions.start_background`: the MCP result as the
    other surfaces give it (``text``, ``details``, and whether it is an error). The agent is the server's,
    named when it started."""

    async def tool_call(request: dict[str, Any], agent: None = None) -> dict[str, Any]:
        assert agent is None, "an MCP server calls as the agent it was started for"
        arguments = {k: v for k, v in request.items() if k != "tool"}
        r = await session.call_tool(request["tool"], arguments)
        return {"text": text(r), "details": r.structured_content, "isError": r.is_error}

    return tool_call


async def poll_until(
    session: ClientSession, sid: str, done: Callable[[str, types.CallToolResult], bool]
) -> tuple[str, types.CallToolResult]:
    """Timed polls (no sleeping) until ``done(output so far, last result)``; returns both."""
    seen = ""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        r = await call(session, "process", action="poll", sessionId=sid, timeout=2000)
        if r.structured_content.get("newOutputChars"):
            seen += text(r) + "\n"
        if done(seen, r):
            return seen, r
        assert r.structured_content["status"] == "running", f"session ended early: {text(r)}"
    raise AssertionError(f"condition never met; output so far {seen!r}")
