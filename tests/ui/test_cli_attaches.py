"""Plain ``openclaw-tui`` on a running host: it attaches, says so, shows that host's sessions, and quitting
leaves them running (instead of refusing to start, as it once did).

A real ``openclaw-tui serve`` holds an agent's session; the real console script runs in a tmux pane on the
same private socket.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmuxpane import Tmux, dashboard_command

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def call(env: dict[str, str], request: dict[str, object]) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "call", json.dumps(request), "--agent", "agent"],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    return json.loads(proc.stdout)


@pytest.fixture
def serving(tmp_path) -> Iterator[dict[str, str]]:
    """A host serving on a private socket; the environment that reaches it."""
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(tmp_path / "host.sock")}
    serve = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "--config", "/dev/null", "serve"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert serve.stdout is not None and "serving" in serve.stdout.readline()
        yield env
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(30)


def test_plain_openclaw_tui_attaches_to_the_running_host_and_leaves_its_sessions(serving, tmp_path: Path) -> None:
    started = call(serving, {"tool": "exec", "command": "sleep 300", "background": True})
    sid = started["details"]["sessionId"]  # type: ignore[index]
    tmux = Tmux()
    subprocess.run(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "160",
                    "-y", "45", dashboard_command()], check=True, env=serving, timeout=20)
    try:
        screen = tmux.wait(lambda s: str(sid) in s and "Attached" in s, "the host's session and the notice")
        assert "sleep" in screen
        tmux.keys("q")  # attached: quits at once, asking nothing and ending nothing
        tmux.wait_closed()
    finally:
        tmux.run("kill-server")
    listed = call(serving, {"tool": "process", "action": "list"})
    assert [s["status"] for s in listed["details"]["sessions"]] == ["running"]  # type: ignore[index]
    call(serving, {"tool": "process", "action": "kill", "sessionId": sid})
