"""The node commands end to end: ``bridge`` as a byte bridge, ``nodes``, ``attach --node`` in tmux, and an
agent's MCP client reaching a node through the local host, over real ssh where a node is involved."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.remote.wire.client import HostClient

from ..support.hosts import hosting
from ..support.mcpclients import call, mcp_session, over_mcp, text
from ..support.sessions import start_background
from ..support.sshrig import NodeHost, SshRig, nodes_toml
from ..support.tmuxpane import Tmux
from ..support.waiting import wait_for

DEADLINE_S = 30.0


def cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui", *args], env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=120, check=False, cwd=cwd)


def bridge(sock: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "bridge", "--socket", str(sock), *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def answers(proc: subprocess.Popen[bytes], count: int) -> list[dict[str, Any]]:
    assert proc.stdout is not None
    return [json.loads(proc.stdout.readline()) for _ in range(count)]


def request(id_: int, method: str, params: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params},
                      ensure_ascii=False).encode() + b"\n"


# -- bridge ---------------------------------------------------------------------------------------
async def test_the_bridge_carries_the_protocol_byte_for_byte_and_ends_with_its_input(served) -> None:
    host, sock = served
    proc = await asyncio.to_thread(bridge, sock)
    assert proc.stdin is not None
    try:
        # Two requests split at odd places, one of them non-ASCII: the host sees them as sent.
        data = request(1, "hello", {"client": "é-client"}) + request(
            2, "call", {"call": {"tool": "exec", "command": "printf 'naïve ✓ %s' x"}, "agent": "ünï"})
        proc.stdin.write(data[:7])
        proc.stdin.flush()
        proc.stdin.write(data[7:50])
        proc.stdin.flush()
        proc.stdin.write(data[50:])
        proc.stdin.flush()
        got = {a["id"]: a["result"] for a in await asyncio.to_thread(answers, proc, 2)}
        assert got[1]["server"] == "openclaw-tui" and got[1]["pid"] == os.getpid()
        assert got[2]["text"] == "naïve ✓ x" and got[2]["details"]["status"] == "completed"
        proc.stdin.close()  # the client is done: the bridge ends, leaving the host running
        assert await asyncio.to_thread(proc.wait, DEADLINE_S) == 0
        assert not host.closed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_the_bridge_ends_when_the_host_goes_away(sock) -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        proc = await asyncio.to_thread(bridge, sock)
        try:
            assert proc.stdin is not None
            proc.stdin.write(request(1, "hello", {"client": "t"}))
            proc.stdin.flush()
            assert (await asyncio.to_thread(answers, proc, 1))[0]["id"] == 1
            await server.close()
            assert await asyncio.to_thread(proc.wait, DEADLINE_S) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_the_bridge_with_no_start_and_no_host_fails_in_one_line(sock_dir) -> None:
    proc = cli("bridge", "--socket", str(sock_dir / "none.sock"), "--no-start")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "not starting one (--no-start)" in proc.stderr and proc.stderr.count("\n") == 1


def test_the_bridge_starts_a_host_when_none_serves(sock) -> None:
    # The host it starts is meant to outlive it: ended here (and, should this fail first, by the guard).
    proc = bridge(sock)
    started_pid = None
    try:
        assert proc.stdin is not None
        proc.stdin.write(request(1, "hello", {"client": "t"}))
        proc.stdin.flush()
        started_pid = answers(proc, 1)[0]["result"]["pid"]
        assert started_pid != proc.pid and psutil.Process(started_pid).is_running()
        proc.stdin.close()
        assert proc.wait(DEADLINE_S) == 0
        assert psutil.Process(started_pid).is_running()  # the host stays, as mcp's does
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if started_pid is not None:
            os.kill(started_pid, signal.SIGTERM)
            psutil.wait_procs([psutil.Process(started_pid)], timeout=DEADLINE_S)
    assert not psutil.pid_exists(started_pid) or psutil.Process(started_pid).status() == psutil.STATUS_ZOMBIE


# -- nodes ----------------------------------------------------------------------------------------
def test_nodes_lists_each_node_and_whether_it_answers(rig: SshRig, nodes_config: Path) -> None:
    proc = cli("--config", str(nodes_config), "nodes")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["a", "b"]
    for line in lines:
        assert "answers  openclaw-tui 0.1.0  0 sessions (0 running)" in line and " ms round trip" in line, line

    broken = rig.write_config(nodes_config.read_text() + rig.node_toml("locked", key="stranger"), "broken.toml")
    rig.hosts["b"].stop()  # and b's host is gone: `nodes` only looks, it starts nothing
    proc = cli("--config", str(broken), "nodes")
    assert proc.returncode == 1
    by_node = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert "answers" in by_node["a"]
    assert "no answer" in by_node["b"] and "not starting one" in by_node["b"]
    assert "no answer" in by_node["locked"] and "Permission denied" in by_node["locked"]


def test_nodes_without_any_node_says_how_to_add_one(tmp_path) -> None:
    proc = cli("--config", "/dev/null", "nodes")
    assert proc.returncode == 2 and "[nodes.NAME]" in proc.stderr


# -- attach --node --------------------------------------------------------------------------------
@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    t = Tmux()
    try:
        yield t
    finally:
        t.run("kill-server")


async def test_attach_node_shows_the_nodes_sessions_in_a_real_terminal(rig: SshRig, nodes_config: Path,
                                                                       tmux: Tmux) -> None:
    async with await HostClient.connect(rig.hosts["a"].socket) as node:
        res = await node.call({"tool": "exec", "command": "printf 'node-a-says-hi\\n'; sleep 300",
                               "background": True}, agent="alice")
        sid = res["details"]["sessionId"]
        command = f"{sys.executable} -m openclaw_tui --config {nodes_config} attach --node a"
        env = {**os.environ, "TERM": "xterm-256color"}
        await asyncio.to_thread(subprocess.run, ["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d",
                                "-s", "dash", "-x", "120", "-y", "30", command], check=True, env=env, timeout=20)
        screen = await asyncio.to_thread(tmux.wait, lambda s: sid in s or "printf" in s, "the node's session")
        assert "Attached to node a" in screen or "alice" in screen
        await asyncio.to_thread(tmux.wait, lambda s: "node-a-says-hi" in s, "the session's output",
                                retry=lambda: tmux.keys("Enter"))
        tmux.keys("q")  # a session runs: quitting asks; keeping it running detaches
        await asyncio.to_thread(tmux.wait, lambda s: "Keep running (d)" in s, "the quit question",
                                retry=lambda: tmux.keys("q"))
        tmux.keys("d")
        await asyncio.to_thread(tmux.wait_closed)
        res = await node.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="alice")
        assert res["details"]["status"] == "running"  # still running on the node
        await node.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="alice")


def test_attach_to_an_unknown_node_names_the_configured_ones(nodes_config: Path) -> None:
    proc = cli("--config", str(nodes_config), "attach", "--node", "nowhere")
    assert proc.returncode == 2 and "configured nodes: a, b" in proc.stderr


# -- agents ---------------------------------------------------------------------------------------
@pytest.fixture
def local_host(rig: SshRig) -> Iterator[NodeHost]:
    """This machine's host as a real ``openclaw-tui serve`` whose config names nodes a and b."""
    local = NodeHost(rig.root, "local", nodes_toml(rig))
    local.start()
    try:
        local.wait_ready()
        yield local
    finally:
        local.stop()


async def test_an_mcp_agent_runs_on_a_node_and_hears_of_its_exit_once(local_host: NodeHost, rig: SshRig,
                                                                      tmp_path: Path) -> None:
    logs: list[Any] = []
    async with mcp_session(local_host.socket, "alice", logs=logs, cwd=tmp_path) as alice:
        r = await call(alice, "exec", command="pwd", host="node", node="b")
        assert text(r) == str(rig.hosts["b"].workdir)  # not the agent's directory: that is this machine's
        sid = await start_background(over_mcp(alice), "sleep 0.3; echo finished-on-b", host="node", node="b")
        assert sid.startswith("b/")
        await wait_for(lambda: [log for log in logs if sid in log.data],
                       what="the node's exit as a log message")
        r = await call(alice, "process", action="list")
        assert text(r).count(f"[exit] {sid} ") == 1
        r = await call(alice, "process", action="list")
        assert f"[exit] {sid}" not in text(r)
        assert len([log for log in logs if sid in log.data]) == 1


def _sleepers(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.info["cmdline"] == ["sleep", marker]:
            found.append(proc)
    return found


async def test_a_cancelled_foreground_call_ends_its_run_on_the_node(local_host: NodeHost) -> None:
    marker = "301.25"
    async with await HostClient.connect(local_host.socket) as client:
        # Cancelled here, the call is cancelled on this machine's host, which cancels it on the node's.
        waiting = asyncio.ensure_future(client.call({"tool": "exec", "command": f"sleep {marker}", "yieldMs": 60000,
                                                     "host": "node", "node": "a"}, agent="alice"))
        deadline = time.monotonic() + DEADLINE_S
        while not _sleepers(marker):
            assert time.monotonic() < deadline and not waiting.done(), "the run never started on the node"
            await asyncio.sleep(0.05)
        waiting.cancel()
        while _sleepers(marker):
            assert time.monotonic() < deadline, "the run outlived its cancelled call"
            await asyncio.sleep(0.05)
