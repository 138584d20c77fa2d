"""The dashboard across two nodes in a real terminal: the real console script in a tmux pane, attached to a
real ``openclaw-tui serve`` whose config names nodes a and b, reached over real ssh (sshd on loopback, two
node hosts: the ``rig`` fixture). Agents start sessions on a, b and locally; the operator sees
them all with their node, types into a PTY on node a, kills a session on node b, and watches node b's host
die (its rows greyed, the header marking it) and come back.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support.sessions import background_id
from ..support.sshrig import SshRig
from ..support.tmuxpane import Tmux, console_script, serve_host

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def call(env: dict[str, str], config: Path, request: dict[str, object]) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "--config", str(config), "call", json.dumps(request),
                           "--agent", "agent"], env=env, capture_output=True, text=True, timeout=60, check=False)
    return dict(json.loads(proc.stdout))


@pytest.fixture(name="serving")
def serving_fixture(sock_dir: Path, nodes_config: Path) -> Iterator[dict[str, str]]:
    """This machine's host, nodes a and b in its config, on a private socket; the environment that reaches it."""
    sock = sock_dir / "sock" / "host.sock"
    sock.parent.mkdir(mode=0o700)
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(sock),
           "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS": "1000"}
    env.pop("TMUX", None)
    with serve_host(env, nodes_config):
        yield env


def row(screen: str, sid: str) -> str:
    return next((line for line in screen.splitlines() if f" {sid} " in line), "")


def test_the_dashboard_across_two_nodes_in_tmux(serving: dict[str, str], nodes_config: Path, rig: SshRig) -> None:
    def start(command: str, node: str | None = None, **kw: object) -> str:
        where = {"host": "node", "node": node} if node else {}
        request = {"tool": "exec", "command": command, "background": True, **where, **kw}
        return background_id(call(serving, nodes_config, request))

    here = start("sleep 300")
    typed = start("cat", node="a", pty=True)
    doomed = start("sleep 301", node="b")
    everyone = (here, typed, doomed)
    tmux = Tmux()
    subprocess.run(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "120",
                    "-y", "36", f"exec {shlex.join(console_script())} --config {nodes_config}"], check=True, env=serving,
                   timeout=20)

    def show_node(node: str, *listed: str) -> None:
        """Cycle the node filter (``o``) to ``node``: ``listed`` are then the sessions in the list."""
        tmux.wait(lambda s: s.splitlines()[1].rstrip().endswith(f"node: {node}")
                  and all(bool(row(s, sid)) == (sid in listed) for sid in everyone),
                  f"the node filter on {node}", retry=lambda: tmux.keys("o"))

    try:
        screen = tmux.wait(lambda s: all(row(s, sid) for sid in everyone), "every host's sessions")
        for sid, node in ((here, "local"), (typed, "a"), (doomed, "b")):  # after the mark (◆: waiting)
            assert row(screen, sid).lstrip(" ◆").split()[:2] == [node, sid]
        # every node answering: on a loaded machine a node may still be connecting (or reconnect) here
        tmux.wait(lambda s: "3 running" in s.splitlines()[0] and "unreachable" not in s.splitlines()[0],
                  "every node answering, its session counted")
        # type-through into the PTY on node a
        tmux.keys("o")
        show_node("a", typed)
        tmux.keys("t")
        tmux.wait(lambda s: "TYPE-THROUGH" in s, "type-through on")
        tmux.keys("hello-over-ssh", literal=True)
        tmux.keys("Enter")
        tmux.wait(lambda s: s.count("hello-over-ssh") >= 2, "cat's echo from node a")
        tmux.keys("C-]")
        tmux.wait(lambda s: "TYPE-THROUGH" not in s, "type-through off")
        # kill the session on node b
        tmux.keys("o")
        show_node("b", doomed)
        tmux.keys("x")
        tmux.wait(lambda s: f"Kill {doomed}" in s, "the kill question")
        tmux.keys("y")
        tmux.wait(lambda s: "SIGTERM" in row(s, doomed), "the kill done on node b")
        polled = call(serving, nodes_config, {"tool": "process", "action": "poll", "sessionId": doomed})
        assert polled["details"]["status"] != "running", polled
        tmux.keys("o")
        show_node("all", *everyone)
        # node b's host dies: its rows stay, greyed, and the header says so; then it comes back
        rig.hosts["b"].kill(signal.SIGKILL)
        screen = tmux.wait(lambda s: "b unreachable" in s.splitlines()[0], "the header marking node b")
        assert "node unreachable" in row(screen, doomed) and "running" not in row(screen, doomed)
        assert "waiting" in row(screen, typed) or "running" in row(screen, typed)
        rig.hosts["b"].start()
        rig.hosts["b"].wait_ready()
        tmux.wait(lambda s: "unreachable" not in s, "node b back", timeout=90)
        tmux.keys("q")  # sessions run: it asks, and keeping them running detaches
        tmux.wait(lambda s: "Keep running (d)" in s, "the quit question")
        tmux.keys("d")
        tmux.wait_closed()
    finally:
        tmux.run("kill-server")
        for sid in (here, typed):
            call(serving, nodes_config, {"tool": "process", "action": "kill", "sessionId": sid})
