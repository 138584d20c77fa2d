"""Plain ``openclaw-tui`` is always a client: it attaches to the host serving the socket, or starts one in
the background when none does, and that host outlives it. Quitting asks whether to keep the running sessions
(detach) or end them; closing the terminal detaches.

The real console script runs in a tmux pane on a private socket; agents' sessions are started by the real
``openclaw-tui call``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from ..support.tmuxpane import Dashboard, Tmux, dashboard_command, host_pid, serve_host

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def call(env: dict[str, str], request: dict[str, object]) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "call", json.dumps(request), "--agent", "agent"],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    return json.loads(proc.stdout)


@pytest.fixture
def serving(sock_dir) -> Iterator[dict[str, str]]:
    """A host serving on a private socket; the environment that reaches it."""
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock")}
    with serve_host(env, "/dev/null"):
        yield env


def test_plain_openclaw_tui_attaches_to_the_running_host_and_leaves_its_sessions(serving, tmp_path: Path) -> None:
    started = call(serving, {"tool": "exec", "command": "sleep 300", "background": True})
    sid = started["details"]["sessionId"]  # type: ignore[index]
    tmux = Tmux()
    subprocess.run(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "160",
                    "-y", "45", dashboard_command()], check=True, env=serving, timeout=20)
    try:
        # the header names the socket too where it fits: how long its path is decides which form shows
        quitting = re.compile(r"attached( to \S+)? · q: keep (running )?or end 1")
        screen = tmux.wait(lambda s: str(sid) in s and quitting.search(s),
                           "the host's session, and the header saying what quitting does")
        assert "sleep" in screen
        tmux.keys("q")
        tmux.wait(lambda s: "Keep running (d)" in s, "the quit question", retry=lambda: tmux.keys("q"))
        tmux.keys("d")
        tmux.wait_closed()
    finally:
        tmux.run("kill-server")
    listed = call(serving, {"tool": "process", "action": "list"})
    assert [s["status"] for s in listed["details"]["sessions"]] == ["running"]  # type: ignore[index]
    call(serving, {"tool": "process", "action": "kill", "sessionId": sid})


def status(dashboard: Dashboard, sid: str) -> str:
    listed = dashboard.call({"tool": "process", "action": "list"})["details"]["sessions"]  # type: ignore[index]
    return next(s["status"] for s in listed if s["sessionId"] == sid)  # type: ignore[index]


def quit_with(dashboard: Dashboard, answer: str) -> None:
    dashboard.keys("q")
    dashboard.wait(lambda s: "Keep running (d)" in s, "the quit question", retry=lambda: dashboard.keys("q"))
    dashboard.keys(answer)
    dashboard.wait_closed()


def test_with_no_host_openclaw_tui_starts_one_that_outlives_it(tmp_path: Path) -> None:
    dashboard = Dashboard(tmp_path, (160, 45))
    try:
        dashboard.wait_attached()
        pid = host_pid(dashboard.sock)
        assert pid is not None
        host = psutil.Process(pid)
        assert host.cmdline()[-1] == "serve" and os.getsid(pid) == pid and host.terminal() is None
        assert (dashboard.sock.parent / "serve.log").exists()  # its output goes there, not to the terminal

        sid = str(dashboard.call({"tool": "exec", "command": "sleep 300", "background": True,
                                  "workdir": str(tmp_path)})["details"]["sessionId"])  # type: ignore[index]
        dashboard.wait(lambda s: sid in s, "the agent's session listed")
        quit_with(dashboard, "d")  # keep it running
        assert status(dashboard, sid) == "running" and host.is_running()

        dashboard.open()  # again: the same host, the same session
        dashboard.wait(lambda s: sid in s and "1 running" in s, "the same session shown again")
        assert host_pid(dashboard.sock) == pid
        quit_with(dashboard, "e")  # end them
        assert status(dashboard, sid) == "failed" and host.is_running()

        later = str(dashboard.call({"tool": "exec", "command": "sleep 300", "background": True,
                                    "workdir": str(tmp_path)})["details"]["sessionId"])  # type: ignore[index]
        dashboard.open()
        dashboard.wait(lambda s: later in s, "a new session shown")
        dashboard_pid = dashboard.pid
        dashboard.run("kill-session", "-t", "dash")  # the terminal goes away: SIGHUP detaches
        deadline = time.monotonic() + 10
        while psutil.pid_exists(dashboard_pid) and psutil.Process(dashboard_pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline, "the dashboard did not end after the hang-up"
            time.sleep(0.05)
        assert status(dashboard, later) == "running" and host.is_running()
    finally:
        dashboard.run("kill-server")
        dashboard.end_host()


def test_attach_never_starts_a_host(sock_dir: Path) -> None:
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock")}
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "--config", "/dev/null", "attach"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "no openclaw-tui host is running" in proc.stderr, proc
    assert not (sock_dir / "host.sock").exists() and not (sock_dir / "serve.log").exists()
