"""End to end in a real terminal: ``openclaw-tui`` inside tmux, a prompt answered through type-through.

The real console script runs in a tmux pane (its own server, so nothing else is touched). The test
starts a PTY session waiting at a prompt through the new-command dialog, enters type-through mode, types
the answer with ``tmux send-keys`` and polls ``tmux capture-pane`` until the session is shown finished.
It then quits the dashboard with its own key and kills the tmux server whatever happened.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

COMMAND = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


class Tmux:
    def __init__(self) -> None:
        self.socket = f"openclaw-e2e-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> str:
        return self.proc(*args).stdout

    def proc(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              check=False, capture_output=True, text=True, timeout=20)

    def wait_closed(self, timeout: float = 30.0) -> None:
        """Wait until the pane's program exited (tmux then ends the session and the server)."""
        deadline = time.monotonic() + timeout
        while self.proc("has-session", "-t", "dash").returncode == 0:
            if time.monotonic() > deadline:
                raise AssertionError(f"the dashboard did not exit; the pane shows:\n{self.capture()}")
            time.sleep(0.1)

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", "dash")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "dash", *(["-l"] if literal else []), *keys)

    def wait(self, predicate: Callable[[str], bool], what: str, timeout: float = 60.0,
             retry: Callable[[], None] | None = None) -> str:
        """Poll the pane until ``predicate``; ``retry`` is called every few seconds (a key the app was
        still too busy starting up to take)."""
        deadline = time.monotonic() + timeout
        next_retry = time.monotonic() + 3
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture()
            if predicate(screen):
                return screen
            if retry is not None and time.monotonic() > next_retry:
                retry()
                next_retry = time.monotonic() + 3
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the pane shows:\n{screen}")


def dashboard_command() -> str:
    script = shutil.which("openclaw-tui")
    base = script if script else f"{sys.executable} -m openclaw_tui.cli"
    return f"env OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS=1000 {base} --config /dev/null"


@pytest.fixture
def tmux(tmp_path) -> Iterator[Tmux]:
    t = Tmux()
    # The dashboard serves its host on a socket: a private one, so a dashboard already open elsewhere
    # (which would make this one refuse to start) cannot get in the way.
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(tmp_path / "host.sock")}
    subprocess.run(["tmux", "-L", t.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "160",
                    "-y", "45", dashboard_command()], check=True, env=env, timeout=20)
    try:
        yield t
    finally:
        t.run("kill-server")


def test_prompt_answered_through_type_through_in_a_real_terminal(tmux: Tmux) -> None:
    tmux.wait(lambda s: "openclaw-tui" in s and "New" in s, "the dashboard")
    tmux.keys("n")
    tmux.wait(lambda s: "New command" in s, "the new-command dialog", retry=lambda: tmux.keys("n"))
    tmux.keys(COMMAND, literal=True)
    tmux.wait(lambda s: "read -r -p" in s, "the command typed into the dialog")
    tmux.keys("Enter")
    # The terminal view starts at column 0; the dialog (which also shows "name?") is indented.
    tmux.wait(lambda s: any(line.startswith("name?") for line in s.splitlines()), "the prompt on the terminal")
    tmux.wait(lambda s: any(line.startswith(" ◆ ") for line in s.splitlines()), "the session's row marked waiting")
    tmux.keys("t")
    tmux.wait(lambda s: "TYPE-THROUGH" in s, "the type-through banner")
    tmux.keys("world", literal=True)
    tmux.keys("Enter")
    screen = tmux.wait(lambda s: "hello world" in s and "exit 0" in s, "the session finishing")
    assert "completed" in screen
    assert "TYPE-THROUGH" not in tmux.wait(lambda s: "TYPE-THROUGH" not in s, "type-through left at exit")
    tmux.keys("q")  # nothing runs any more, so the dashboard quits without asking
    tmux.wait_closed()
