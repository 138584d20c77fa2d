"""The shell a command runs in, and the PATH the user's login shell sets, probed and merged."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import load_settings
from openclaw_tui.core.launch import shell
from openclaw_tui.core.launch.shell import chosen_shell, merged_path, probe_login_path, shell_argv

from ...support.hosts import hosting
from ...support.isolation import MARK
from ...support.waiting import wait_for

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="bash is not installed")


# -- the shell ---------------------------------------------------------------------------------------


@needs_bash
@pytest.mark.parametrize("unsupported", ["/usr/bin/fish", "/usr/local/bin/nu", "/usr/bin/xonsh", "/bin/tcsh"])
def test_an_unsupported_shell_runs_bash_when_it_is_on_path(unsupported: str) -> None:
    env = {"SHELL": unsupported, "PATH": os.path.dirname(BASH or "")}
    assert shell_argv("echo hi", env) == [BASH, "--noprofile", "--norc", "-c", "echo hi"]


def test_an_unsupported_shell_without_bash_on_path_runs_sh(tmp_path) -> None:
    assert shell_argv("x", {"SHELL": "/usr/bin/fish", "PATH": str(tmp_path)}) == ["/bin/sh", "-c", "x"]


@pytest.mark.parametrize("env", [{}, {"SHELL": ""}, {"SHELL": "/nonexistent/zsh"}, {"SHELL": "bash"}])
def test_no_shell_or_an_unusable_one_runs_sh(env: dict[str, str]) -> None:
    assert chosen_shell(env) == "/bin/sh"


@needs_bash
async def test_a_fish_user_gets_bash_for_every_run(monkeypatch) -> None:
    monkeypatch.setenv("SHELL", "/usr/bin/fish")
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        r = await host.call({"tool": "exec", "command": "echo ${BASH_VERSION:+bash}"}, agent="main")
    assert r["text"].strip() == "bash", r


# -- merging the login shell's PATH --------------------------------------------------------------------


def test_login_entries_go_where_the_login_shell_has_them_and_the_hosts_order_is_kept() -> None:
    login = ["/home/u/.local/bin", "/home/u/.nvm/v20/bin", "/usr/local/bin", "/usr/bin", "/bin", "/opt/late"]
    assert merged_path("/venv/bin:/usr/bin:/bin", login) == (
        "/venv/bin:/home/u/.local/bin:/home/u/.nvm/v20/bin:/usr/local/bin:/usr/bin:/bin:/opt/late"
    )
    assert merged_path("/usr/bin", ["/usr/bin"]) == "/usr/bin"
    assert merged_path("", ["/a", "/a"]) == "/a"
    assert merged_path("/usr/bin", [".", "bin", "/x"]) == "/usr/bin:/x"  # relative entries never added


# -- probing the login shell ---------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path) -> Iterator[Path]:
    """A home whose login profile greets, reads stdin and adds ~/loginbin (holding a tool) to PATH."""
    (tmp_path / "loginbin").mkdir()
    tool = tmp_path / "loginbin" / "login-only-tool"
    tool.write_text("#!/bin/sh\necho login tool ran\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    (tmp_path / ".bash_profile").write_text(
        'echo "Welcome back!"\nread answer\nexport PATH="$HOME/loginbin:$PATH"\necho "bye $PATH"\n'
    )
    yield tmp_path


def probe_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "SHELL": BASH or "", "PATH": "/usr/bin:/bin", MARK: os.environ[MARK]}


@needs_bash
def test_the_probe_reads_the_login_path_past_a_greeting_and_a_profile_that_reads_stdin(home) -> None:
    found = probe_login_path(probe_env(home))
    assert found[0] == str(home / "loginbin") and "/usr/bin" in found  # /etc/profile may set the rest


@needs_bash
def test_a_login_shell_that_hangs_gives_up_in_time_and_leaves_nothing(home) -> None:
    (home / ".bash_profile").write_text("sleep 60\n")
    start = time.monotonic()
    assert probe_login_path(probe_env(home), timeout_s=1.0) == ()
    assert time.monotonic() - start < 5


@needs_bash
def test_a_probe_given_up_lets_the_profile_clean_up_after_itself(home) -> None:
    """pyenv's rehash holds a lock file that its EXIT trap removes: a probe killed outright left it, and every
    later login shell of the user waited a minute on it."""
    lock = home / "rehash.lock"
    (home / ".bash_profile").write_text(
        f'bash -c \'set -o noclobber; echo > "{lock}"; trap "rm -f {lock}" EXIT; sleep 60\'\n')
    assert probe_login_path(probe_env(home), timeout_s=1.0) == ()
    assert not lock.exists()


@needs_bash
def test_a_daemon_holding_the_output_does_not_delay_the_answer(home) -> None:
    (home / ".bash_profile").write_text('sleep 60 &\nexport PATH="$HOME/loginbin:$PATH"\n')
    start = time.monotonic()
    assert probe_login_path(probe_env(home), timeout_s=10.0)[0] == str(home / "loginbin")
    assert time.monotonic() - start < 5  # and the sleep, in the probe's session, is gone (no_orphans)


@pytest.fixture
def login_home(home, monkeypatch) -> Iterator[Path]:
    """The host's environment is this home's, and the login PATH is probed afresh for it."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SHELL", BASH or "")
    shell.forget()
    yield home
    shell.forget()


@needs_bash
@pytest.mark.parametrize("extra", [{}, {"pty": True}, {"elevated": True}])
async def test_a_tool_on_the_login_path_runs_without_a_path(login_home, tmp_path, extra) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[tools.elevated]\nenabled = true\n")
    async with hosting(ToolHost(settings=load_settings(cfg, env={}))) as host:
        r = await host.call({"tool": "exec", "command": "login-only-tool", **extra}, agent="main")
    assert "login tool ran" in r["text"], r


@needs_bash
async def test_login_path_false_leaves_path_as_the_host_has_it(login_home, tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[tools.exec]\nloginPath = false\n")
    async with hosting(ToolHost(settings=load_settings(cfg, env={}))) as host:
        r = await host.call({"tool": "exec", "command": "login-only-tool"}, agent="main")
    assert r["details"]["exitCode"] == 127


@needs_bash
async def test_a_host_that_ends_while_its_probe_hangs_ends_the_probe_too(home, tmp_path) -> None:
    """The probe runs in a thread of the host; a host ending by SIGTERM must not leave the login shell (in a
    session of its own) or what its profile started behind it."""
    (home / ".bash_profile").write_text("sleep 60\n")
    env = {**probe_env(home), "OPENCLAW_TUI_SOCKET": str(sock := Path(tempfile.mkdtemp(dir="/tmp")) / "s"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    host = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        probe = await wait_for(lambda: next((c for c in psutil.Process(host.pid).children(recursive=True)
                                       if shell.SENTINEL in " ".join(c.cmdline())), None), 30, "the probe")
        host.send_signal(signal.SIGTERM)
        assert host.wait(timeout=30) is not None
        _, alive = psutil.wait_procs([probe], timeout=30)
        assert not alive  # it would live until the profile's sleep ends
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        shutil.rmtree(sock.parent, ignore_errors=True)
