"""In a real terminal: a notification of the host rings the dashboard's terminal, so tmux marks its window.

The dashboard runs in a tmux pane of a tmux server of its own (no client attached, so tmux flags the bell on
its current window too); an agent's ``read`` prompt is the notification.
"""

from __future__ import annotations

import shutil
import time

import pytest

from ..support.tmuxpane import Dashboard

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def bell_flag(dashboard: Dashboard) -> str:
    return dashboard.run("display-message", "-p", "-t", "dash", "#{window_bell_flag}").strip()


def test_a_session_that_starts_waiting_marks_the_dashboards_tmux_window(tmp_path) -> None:
    dashboard = Dashboard(tmp_path, (120, 40))
    try:
        dashboard.wait_attached()
        assert bell_flag(dashboard) == "0", "no bell before anything needs the operator"
        sid = str(dashboard.call({"tool": "exec", "command": "read -p 'Overwrite existing config? [y/N] ' a",
                                  "pty": True, "background": True, "workdir": str(tmp_path)}, "main")
                  ["details"]["sessionId"])  # type: ignore[index]
        # the output pane shows the question at once; the list's row once the host finds it waiting
        dashboard.wait(lambda s: any(sid in line and "Overwrite existing" in line for line in s.splitlines())
                       and any(" id " in line and "prompt" in line for line in s.splitlines()),
                       "the prompt in the list's row, under a prompt column")
        deadline = time.monotonic() + 60
        while bell_flag(dashboard) != "1":
            assert time.monotonic() < deadline, f"tmux never flagged a bell; the pane shows:\n{dashboard.capture()}"
            time.sleep(0.1)
        assert "!" in dashboard.run("display-message", "-p", "-t", "dash", "#{window_flags}")
    finally:
        dashboard.run("kill-server")
        dashboard.end_host()
