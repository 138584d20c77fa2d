"""The dashboard in a real terminal (tmux), as an operator meets it: a prompt answered through type-through,
closing the terminal, copying, 80x24.

Each test runs the real console script in a tmux server of its own (:mod:`.tmuxpane`) and kills that server
whatever happened, then ends the host the dashboard started in the background.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import psutil
import pytest

from ..support.tmuxpane import Dashboard, Tmux, dashboard_command, end_host

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


COMMAND = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


@pytest.fixture
def tmux(sock_dir) -> Iterator[Tmux]:
    t = Tmux()
    # A private socket, so the host the dashboard starts is the test's own, not one serving elsewhere.
    env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock")}
    subprocess.run(["tmux", "-L", t.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "160",
                    "-y", "45", dashboard_command()], check=True, env=env, timeout=20)
    try:
        yield t
    finally:
        t.run("kill-server")
        end_host(sock_dir / "host.sock")


@pytest.fixture
def dashboard(request, tmp_path) -> Iterator[Dashboard]:
    size, demo = request.param
    d = Dashboard(tmp_path, size, demo)
    try:
        yield d
    finally:
        d.run("kill-server")
        d.end_host()


def exited(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # ended; its parent reaps it in its own time
    except psutil.NoSuchProcess:
        return True


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


@pytest.mark.parametrize("dashboard", [((120, 40), True)], indirect=True)
def test_closing_the_terminal_detaches_the_demo_within_2_s_and_its_sessions_run_on(dashboard: Dashboard) -> None:
    dashboard.wait(lambda s: "waiting (password)" in s and "bash build.sh" in s, "the demo's sessions")
    folder = dashboard.tmp / f"openclaw-tui-demo-{os.getuid()}"
    assert (folder / "build.sh").exists()
    # the sessions are the children of the host it started (in a session of its own), not its own
    assert [c.cmdline()[-1] for c in psutil.Process(dashboard.pid).children()] == ["serve"]
    dashboard.run("kill-server")  # the terminal goes away: SIGHUP
    began = time.monotonic()
    while not exited(dashboard.pid) and time.monotonic() - began < 10:
        time.sleep(0.02)
    took = time.monotonic() - began
    assert took <= 2.0, f"the dashboard took {took:.1f} s to end after the hang-up"
    listed = dashboard.call({"tool": "process", "action": "list"}, agent="demo")["details"]["sessions"]
    assert len(listed) == 6 and all(s["status"] == "running" for s in listed if s["command"] != "bash deploy.sh")
    assert (folder / "build.sh").exists()  # the running demo sessions still use it


@pytest.mark.parametrize("dashboard", [((160, 45), False)], indirect=True)
def test_copy_inside_tmux_says_whether_tmux_took_it_and_saves_a_file(dashboard: Dashboard) -> None:
    dashboard.wait_attached()
    sid = dashboard.call({"tool": "exec", "command": "echo copy-me-please; sleep 60", "pty": True,
                          "background": True, "workdir": "/tmp"})["details"]["sessionId"]
    # the view starts at column 0 (the list shows the name, indented)
    dashboard.wait(lambda s: any(line.startswith("copy-me-please") for line in s.splitlines()), "the session on view")
    dashboard.keys("y")
    screen = dashboard.wait(lambda s: "Not copied" in s, "the copy's notice", retry=lambda: dashboard.keys("y"))
    notice = " ".join(line.strip() for line in screen.splitlines() if line.strip()).replace("  ", " ")
    assert "set-clipboard is external" in notice and "tmux set -g set-clipboard on" in notice, notice
    copies = list((dashboard.runtime / "openclaw-tui" / "copies").glob(f"{sid}-screen-*.txt"))
    assert len(copies) == 1 and "copy-me-please" in copies[0].read_text()
    assert str(copies[0]) in notice.replace(" ", "") or copies[0].name in notice.replace(" ", "")

    dashboard.run("set", "-g", "set-clipboard", "on")
    dashboard.keys("y")
    dashboard.wait(lambda s: "through tmux (set-clipboard on)" in s, "the copy confirmed by tmux")
    assert "copy-me-please" in dashboard.run("show-buffer")  # tmux really holds the text
    dashboard.keys("x")
    dashboard.wait(lambda s: "Kill" in s, "the kill question")
    dashboard.keys("y")
    dashboard.wait(lambda s: "SIGTERM" in s or "SIGKILL" in s or "killed" in s, "the session killed")


@pytest.mark.parametrize("dashboard", [((80, 24), False)], indirect=True)
def test_at_80x24_the_exit_code_shows_and_the_quit_question_wraps(dashboard: Dashboard) -> None:
    dashboard.wait_attached()
    done = dashboard.call({"tool": "exec", "command": "sh -c 'echo a-long-line-of-output; exit 3'",
                           "background": True, "workdir": "/tmp"}, agent="an-agent-with-a-long-name")
    sid = done["details"]["sessionId"]
    running = [dashboard.call({"tool": "exec", "command": "sleep 60", "background": True, "workdir": "/tmp"})
               ["details"]["sessionId"] for _ in range(5)]
    screen = dashboard.wait(lambda s: any(sid in line and "exit 3" in line for line in s.splitlines()),
                            "the failed session's row with its exit code")
    assert "0 finished · 1 failed" in screen.splitlines()[0]
    dashboard.keys("q")
    screen = dashboard.wait(lambda s: "Keep running (d)" in s and "End them (e)" in s, "the quit question",
                            retry=lambda: dashboard.keys("q"))
    assert all(r in screen for r in running), screen
    dashboard.keys("e")
    dashboard.wait_closed()
    listed = dashboard.call({"tool": "process", "action": "list"})["details"]["sessions"]
    assert {s["sessionId"]: s["status"] for s in listed if s["sessionId"] in running} == dict.fromkeys(running, "failed")

