"""One host per user, whatever the caller's environment: the socket path from facts, and clients that find
a host on any candidate path instead of starting a second one.

The runtime directory's base (``/run/user``) and ``/tmp`` are pointed at scratch directories here, so the
machine's own sockets (and other hosts running on it) are never touched; the MCP server launched through
the official SDK gets them the same way, by a launcher that sets them before the CLI runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.stdio import get_default_environment

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import default_secrets
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.remote.wire import socketpaths as paths
from openclaw_tui.remote.wire.socketpaths import candidate_paths, find_host, socket_path

from ..support.hosts import hosting
from ..support.isolation import MARK

UID = os.getuid()


@pytest.fixture
def machine(sock_dir, monkeypatch) -> Path:
    """A scratch ``/run/user`` (with this user's runtime directory) and ``/tmp``, short enough for sockets."""
    (sock_dir / "run" / "user" / str(UID)).mkdir(parents=True, mode=0o700)
    (sock_dir / "tmp").mkdir()
    monkeypatch.setattr(paths, "RUN_USER", str(sock_dir / "run" / "user"))
    monkeypatch.setattr(paths, "TMP", str(sock_dir / "tmp"))
    return sock_dir


def test_the_runtime_directory_is_found_without_xdg_runtime_dir(machine) -> None:
    runtime = machine / "run" / "user" / str(UID)
    assert socket_path({}) == runtime / "openclaw-tui" / "host.sock"
    assert socket_path({"XDG_RUNTIME_DIR": str(runtime)}) == socket_path({})  # the same host either way
    other = machine / "xdg"
    other.mkdir()
    assert candidate_paths({"XDG_RUNTIME_DIR": str(other)}) == [
        other / "openclaw-tui" / "host.sock", runtime / "openclaw-tui" / "host.sock",
        machine / "tmp" / f"openclaw-tui-{UID}" / "host.sock",
    ]
    assert candidate_paths({"OPENCLAW_TUI_SOCKET": "/x/h.sock", "XDG_RUNTIME_DIR": str(other)}) == [Path("/x/h.sock")]


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to make a directory of another user")
def test_a_runtime_directory_of_someone_else_is_not_used(machine) -> None:
    os.chown(machine / "run" / "user" / str(UID), 65534, 65534)
    assert socket_path({}) == machine / "tmp" / f"openclaw-tui-{UID}" / "host.sock"


async def test_a_host_on_another_candidate_path_is_found(machine) -> None:
    fallback = machine / "tmp" / f"openclaw-tui-{UID}" / "host.sock"  # where a host without a runtime dir serves
    xdg = machine / "xdg"
    xdg.mkdir()
    env = {"XDG_RUNTIME_DIR": str(xdg)}
    assert find_host(env) is None
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, fallback)
        await server.start()
        try:
            assert socket_path(env) == xdg / "openclaw-tui" / "host.sock"
            assert find_host(env) == fallback
        finally:
            await server.close()


def test_every_candidate_directory_is_hidden_from_sandboxed_runs(tmp_path) -> None:
    for env in ({}, {"XDG_RUNTIME_DIR": str(tmp_path)}, {"OPENCLAW_TUI_SOCKET": str(tmp_path / "s" / "h.sock")}):
        secrets = default_secrets(env)
        for path in candidate_paths(env):
            assert str(path.parent) in secrets, (env, path)
    assert f"/run/user/{UID}/openclaw-tui" in default_secrets({})  # whether or not it exists yet


LAUNCHER = (
    "import sys\n"
    "from openclaw_tui.remote.wire import socketpaths as paths\n"
    "paths.RUN_USER, paths.TMP = sys.argv[1], sys.argv[2]\n"
    "from openclaw_tui.cli import main\n"
    "sys.exit(main(['mcp', '--agent', 'agent']))\n"
)


async def test_an_agent_started_by_the_mcp_sdk_reaches_the_operators_host(machine) -> None:
    """The SDK starts servers with only HOME, PATH, SHELL, TERM...: no XDG_RUNTIME_DIR. The operator's host
    serves in the runtime directory; the agent's server must find it there, not start a second host."""
    operators = machine / "run" / "user" / str(UID) / "openclaw-tui" / "host.sock"
    assert socket_path({"XDG_RUNTIME_DIR": str(operators.parent.parent)}) == operators
    env = {**get_default_environment(), MARK: os.environ[MARK]}  # the marker: a second host would be caught
    assert "XDG_RUNTIME_DIR" not in env and "OPENCLAW_TUI_SOCKET" not in env
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-c", LAUNCHER, str(machine / "run" / "user"), str(machine / "tmp")])
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, operators)
        await server.start()
        try:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                r: Any = await session.call_tool("exec", {"command": "sleep 30", "background": True})
                assert isinstance(r, types.CallToolResult) and not r.is_error, r
                sid = r.structured_content["sessionId"]
                assert [s.id for s in host.sessions()] == [sid]  # the operator sees the agent's session
                await session.call_tool("process", {"action": "kill", "sessionId": sid})
            assert not (machine / "tmp" / f"openclaw-tui-{UID}").exists()  # no second host was started
        finally:
            await server.close()
