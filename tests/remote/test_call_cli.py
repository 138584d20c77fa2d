"""``openclaw-tui call`` on bad input and bad luck: a clear failed result or one line, never a traceback."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.remote.wire.client import HostClient
from openclaw_tui.remote.wire.socketpaths import SOCKET_PATH_MAX

from ..support.hosts import hosting
from ..support.waiting import finished


def _cli(args: list[str], env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False, cwd=cwd)


@pytest.mark.parametrize("argument", [
    json.dumps(json.dumps({"tool": "exec", "command": "echo twice"})),  # a JSON string holding a call
    "[1, 2]",
    "5",
])
async def test_a_call_that_is_not_a_json_object_is_status_2_and_runs_nothing(served, argument) -> None:
    host, sock = served
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    proc = await asyncio.to_thread(_cli, ["call", argument], env)
    assert proc.returncode == 2 and proc.stdout == "", proc
    assert "JSON object" in _one_line(proc.stderr)
    assert host.sessions() == []


async def test_the_protocol_call_is_an_object_too(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        res = await client.request("call", {"call": json.dumps({"tool": "exec", "command": "echo twice"}),
                                            "agent": "a"})
    assert res["details"]["failureKind"] == "invalid-call"
    assert host.sessions() == []


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr and stderr.strip().count("\n") == 0, stderr
    return stderr.strip()


def _call_in_background(sock, command: str) -> subprocess.Popen[str]:
    call = json.dumps({"tool": "exec", "command": command, "yieldMs": 60_000})
    # As typed in a terminal: Ctrl-C is heard (a suite started in the background inherits SIGINT ignored,
    # and Python then leaves it ignored).
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "call", call], text=True,
                            env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


async def _until_a_session_runs(host) -> Any:
    deadline = asyncio.get_running_loop().time() + 30
    while not host.sessions():
        assert asyncio.get_running_loop().time() < deadline, "the call never started its command"
        await asyncio.sleep(0.02)
    return host.sessions()[0]


async def _finished(proc: subprocess.Popen[str]) -> tuple[int, str]:
    status, _, err = await finished(proc)
    return status, err


async def test_a_host_that_goes_away_mid_call_is_one_line_and_status_2(sock) -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        try:
            proc = _call_in_background(sock, "sleep 60")
            await _until_a_session_runs(host)
        finally:
            await server.close()
        status, err = await _finished(proc)
    assert status == 2 and "closed the connection" in _one_line(err)


async def test_ctrl_c_during_a_call_is_status_130_and_cancels_the_call(served) -> None:
    host, sock = served
    proc = _call_in_background(sock, "sleep 60")
    session = await _until_a_session_runs(host)
    proc.send_signal(signal.SIGINT)
    status, err = await _finished(proc)
    assert status == 130 and "Traceback" not in err, err
    await asyncio.wait_for(session.done.wait(), 20)
    assert session.exit.killed_by == "cancelled"


@pytest.mark.parametrize("command", [["serve"], ["call", '{"tool": "process", "action": "list"}']])
def test_a_socket_path_too_long_is_one_line_naming_the_limit(tmp_path, command) -> None:
    sock = tmp_path / ("x" * (SOCKET_PATH_MAX - len(str(tmp_path)))) / "host.sock"
    proc = _cli(command, {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)})
    assert proc.returncode == 2 and f"at most {SOCKET_PATH_MAX} bytes" in _one_line(proc.stderr)


def test_serve_refuses_a_socket_directory_open_to_others_in_one_line(sock_dir) -> None:
    shared = sock_dir / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    proc = _cli(["serve"], {**os.environ, "OPENCLAW_TUI_SOCKET": str(shared / "host.sock")})
    assert proc.returncode == 2 and "open to other users" in _one_line(proc.stderr)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o777


def test_serve_refuses_a_socket_directory_of_someone_else_in_one_line(someone_elses_dir) -> None:
    theirs = someone_elses_dir
    proc = _cli(["serve"], {**os.environ, "OPENCLAW_TUI_SOCKET": str(theirs / "openclaw-test-host.sock")})
    assert proc.returncode == 2 and "not a directory owned by you" in _one_line(proc.stderr)


async def test_an_exec_call_without_workdir_runs_where_call_was_run(served, tmp_path) -> None:
    _, sock = served
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    done = await asyncio.to_thread(_cli, ["call", '{"tool": "exec", "command": "pwd"}'], env, tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["text"].strip() == str(tmp_path)


@pytest.mark.parametrize("command", [[], ["attach"], ["serve"], ["web"]], ids=["dashboard", "attach", "serve", "web"])
def test_a_config_that_does_not_parse_stops_the_command_naming_where(command: list[str], sock_dir: Path,
                                                                     tmp_path: Path) -> None:
    """Each command that reads the operator's config says where it does not parse, and starts nothing
    (``attach`` too: it reads the keymap and the nodes there)."""
    bad = tmp_path / "config.toml"
    bad.write_text("[tools.exec\nhost = 'gateway'\n")
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock")}
    done = _cli(["--config", str(bad), *command], env)
    assert done.returncode == 2, done
    assert done.stderr.startswith("openclaw-tui: config: ") and "line 1" in done.stderr, done.stderr
    assert not (sock_dir / "host.sock").exists()  # no host was started or looked for
