"""Exec approvals answered by hand in a real terminal: the real console script in a tmux pane, attached to a real
``openclaw-tui serve`` that asks the operator for every run outside the sandbox. Two agents' commands wait;
the operator opens the queue, approves one and denies the other with a reason, and each agent reads the
outcome with its own calls.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support.tmuxpane import Tmux, dashboard_command, serve_host

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture(name="asking_env")
def asking_env_fixture(tmp_path: Path, sock_dir: Path) -> Iterator[tuple[dict[str, str], Path]]:
    sock = sock_dir / "sock" / "host.sock"
    sock.parent.mkdir(mode=0o700)
    config = tmp_path / "config.toml"
    config.write_text('[tools.exec]\nhost = "gateway"\nask = "on-miss"\n')
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(sock),
           "XDG_CONFIG_HOME": str(tmp_path / "config-home")}
    env.pop("TMUX", None)
    with serve_host(env, config):
        yield env, config


def call(env: dict[str, str], config: Path, request: dict[str, object], agent: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "--config", str(config), "call", json.dumps(request),
                           "--agent", agent], env=env, capture_output=True, text=True, timeout=60, check=False)
    return dict(json.loads(proc.stdout))


def awaiting(screen: str, n: int | None) -> bool:
    """Whether the header counts ``n`` requests (None: no count), in its long form or a narrow one's."""
    found = re.search(r" (\d+) (awaiting approval|to approve) ", screen.splitlines()[0])
    return (found is None) if n is None else (found is not None and int(found.group(1)) == n)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
def test_the_operator_approves_one_request_and_denies_another_by_hand(asking_env: tuple[dict[str, str], Path],
                                                                      size: tuple[int, int]) -> None:
    env, config = asking_env
    cols, rows = size
    first = call(env, config, {"tool": "exec", "command": "echo approved-by-hand", "background": True,
                               "workdir": "/tmp"}, "builder")
    assert first["details"]["status"] == "approval-pending", first
    tmux = Tmux()
    subprocess.run(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", str(cols),
                    "-y", str(rows), dashboard_command()], check=True, env=env, timeout=20)
    try:
        tmux.wait(lambda s: awaiting(s, 1), "the header's count")
        second = call(env, config, {"tool": "exec", "command": "touch /tmp/never-made-by-approvals", "background": True,
                                    "workdir": "/tmp"}, "cleaner")
        assert second["details"]["status"] == "approval-pending", second
        tmux.wait(lambda s: awaiting(s, 2) and "Approval needed: cleaner" in s, "the second announced")
        tmux.keys("a")
        screen = tmux.wait(lambda s: "Approvals: 2 requests waiting" in s, "the queue", retry=lambda: tmux.keys("a"))
        assert "builder @ local" in screen and "cleaner @ local" in screen and "echo approved-by-hand" in screen
        tmux.keys("Enter")  # never approves
        tmux.wait(lambda s: "Enter never approves" in s, "the word on Enter")
        tmux.keys("o")  # the first row: the oldest request, the builder's
        tmux.wait(lambda s: "Approvals: 1 request waiting" in s, "one request left")
        tmux.keys("d")
        tmux.wait(lambda s: "Deny ap-" in s, "the reason prompt")
        tmux.keys("not in /tmp, please", literal=True)
        tmux.keys("Enter")
        tmux.wait(lambda s: "Approvals: none waiting" in s, "the queue empty")
        tmux.keys("Escape")
        tmux.wait(lambda s: awaiting(s, None), "the header without a count")
    finally:
        tmux.run("kill-server")
    done = call(env, config, {"tool": "process", "action": "poll", "sessionId": first["details"]["sessionId"],
                              "timeout": 10000}, "builder")
    assert done["details"]["status"] == "completed" and "approved-by-hand" in done["text"], done
    denied = call(env, config, {"tool": "process", "action": "poll", "sessionId": second["details"]["sessionId"]},
                  "cleaner")
    assert denied["details"]["status"] == "failed" and denied["details"]["failureKind"] == "approval-denied", denied
    assert "not in /tmp, please" in denied["text"] and not Path("/tmp/never-made-by-approvals").exists()
    past = subprocess.run([sys.executable, "-m", "openclaw_tui", "approvals", "--history", "--json"], env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    decisions = {r["sessionId"]: r["decision"] for r in json.loads(past.stdout)}
    assert decisions[first["details"]["sessionId"]]["state"] == "approved"
    assert decisions[second["details"]["sessionId"]]["client"] == "openclaw-tui dashboard"
