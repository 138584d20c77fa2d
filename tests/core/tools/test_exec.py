"""exec: parameters, defaults, clamps, and the foreground / background / failed results."""

from __future__ import annotations

import asyncio
import os
import stat
from typing import get_args

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config import PlacementMode
from openclaw_tui.core.containment import sandbox
from openclaw_tui.core.tools.models import ExecParams

from ...support.hosts import exec_settings, hosting, make_host
from ...support.sessions import poll_until, start_background
from ...support.waiting import wait_for

DETAIL_FIELDS = {"status", "sessionId", "pid", "startedAt", "cwd", "tail", "exitCode", "exitSignal",
                 "durationMs", "truncated", "timedOut", "failureKind", "host"}


async def test_foreground_run_returns_output_directly_and_is_not_retained(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "echo out; echo err >&2"}, agent="main")
    assert r["details"]["status"] == "completed"
    assert "out" in r["text"] and "err" in r["text"]
    assert DETAIL_FIELDS <= set(r["details"])
    assert r["details"]["sessionId"] is None and r["details"]["exitCode"] == 0
    # tools.exec.host defaults to auto: the sandbox where bubblewrap works, the host (gateway) elsewhere
    assert r["details"]["host"] == ("sandbox" if sandbox.availability().usable else "gateway")
    assert len(host.sessions()) == 0


async def test_nonzero_exit_is_completed_with_the_code_in_the_text(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "echo partial; exit 3"}, agent="main")
    assert r["details"]["status"] == "completed"
    assert r["details"]["exitCode"] == 3
    assert "exit code 3" in r["text"]
    r = await host.call({"tool": "exec", "command": "exit 4"}, agent="main")
    assert r["text"] == "[exit code 4]"  # no output: the code alone, not after an empty line


async def test_command_not_found_fails_with_127(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "definitely-not-a-command-xyz"}, agent="main")
    assert r["details"]["status"] == "failed"
    assert r["details"]["exitCode"] == 127
    assert r["details"]["failureKind"] == "not-found"


async def test_not_executable_fails_with_126(host: ToolHost, tmp_path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("echo hi\n")
    script.chmod(stat.S_IRUSR | stat.S_IWUSR)
    r = await host.call({"tool": "exec", "command": str(script)}, agent="main")
    assert r["details"]["status"] == "failed"
    assert r["details"]["exitCode"] == 126
    assert r["details"]["failureKind"] == "not-executable"


async def test_timeout_fails_with_timed_out_and_advice(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "sleep 30", "timeout": 0.3}, agent="main")
    assert r["details"]["status"] == "failed"
    assert r["details"]["timedOut"] is True
    assert r["details"]["failureKind"] == "timeout"
    assert "side effects" in r["text"]
    assert "raise timeout" in r["text"] and "background: true" in r["text"]  # how to allow more time


async def test_a_background_run_that_timed_out_says_how_to_allow_more_time(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "sleep 30", "timeout": 0.5, "background": True}, agent="main")
    sid = r["details"]["sessionId"]
    r = await host.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 10000}, agent="main")
    assert r["details"]["timedOut"] is True and "timed out" in r["text"] and "raise timeout" in r["text"]


async def test_timeout_seconds_alias_is_accepted(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "sleep 30", "timeoutSeconds": 0.3}, agent="main")
    assert r["details"]["timedOut"] is True
    r = await host.call({"tool": "exec", "command": "true", "timeout": 1, "timeoutSeconds": 5}, agent="main")
    assert r["details"]["status"] == "failed" and "give only one" in r["text"]


async def test_default_timeout_applies_to_backgrounded_runs(tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[tools.exec]\ntimeoutSec = 1\n")
    async with hosting(ToolHost(config_path=cfg, env={})) as host:
        sid = await start_background(host.call, "sleep 60", agent="main")
        s = host.session(sid)
        await asyncio.wait_for(s.done.wait(), 20)
        assert s.exit.timed_out and s.status == "failed"


async def test_timeout_zero_disables_the_timeout(tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[tools.exec]\ntimeoutSec = 1\n")
    async with hosting(ToolHost(config_path=cfg, env={})) as host:
        r = await host.call({"tool": "exec", "command": "sleep 1.5; echo survived", "timeout": 0}, agent="main")
        assert "survived" in r["text"] and r["details"]["timedOut"] is False


async def test_child_gets_openclaw_shell_and_env_overrides(host: ToolHost) -> None:
    r = await host.call(
        {"tool": "exec", "command": "echo $OPENCLAW_SHELL $GREETING $N", "env": {"GREETING": "hello", "N": 5}},
        agent="main",
    )
    assert r["text"].strip() == "exec hello 5"


@pytest.mark.parametrize("key", ["PATH", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "PYTHONPATH", "BASH_ENV", "ENV", "IFS"])
async def test_refused_env_override_fails_before_anything_spawns(host: ToolHost, key: str) -> None:
    r = await host.call({"tool": "exec", "command": "echo hi", "env": {key: "x"}}, agent="main")
    assert r["details"]["status"] == "failed"
    assert r["details"]["failureKind"] == "env-refused"
    assert key in r["text"]
    assert len(host.sessions()) == 0


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("CLASSPATH", "a language runtime would load code"), ("JAVA_TOOL_OPTIONS", "runtime"),
        ("_JAVA_OPTIONS", "runtime"), ("JDK_JAVA_OPTIONS", "runtime"), ("NODE_PATH", "runtime"),
        ("GEM_PATH", "runtime"), ("GEM_HOME", "runtime"), ("LUA_PATH_5_4", "runtime"),
        ("NODE_TLS_REJECT_UNAUTHORIZED", "TLS certificate checks"), ("SSL_CERT_FILE", "TLS"),
        ("REQUESTS_CA_BUNDLE", "TLS"), ("CURL_CA_BUNDLE", "TLS"), ("SSLKEYLOGFILE", "decrypt TLS traffic"),
        ("HTTPS_PROXY", "another host"), ("https_proxy", "another host"), ("HTTP_PROXY", "proxy"),
        ("ALL_PROXY", "proxy"), ("no_proxy", "past the proxy"),
        ("GOFLAGS", "build tool"), ("RUSTC_WRAPPER", "build tool"), ("CARGO_BUILD_RUSTC_WRAPPER", "build tool"),
        ("PIP_INDEX_URL", "packages"), ("npm_config_registry", "packages"), ("NPM_CONFIG_SCRIPT_SHELL", "packages"),
        ("GIT_SSH_COMMAND", "helper command"), ("GIT_EXEC_PATH", "helper command"),
        ("GIT_CONFIG_COUNT", "configuration"),
    ],
)
async def test_runtime_overrides_are_refused_naming_the_key_and_why(host: ToolHost, key: str, why: str) -> None:
    r = await host.call({"tool": "exec", "command": "echo hi", "env": {key: "x", "FINE": "1"}}, agent="main")
    assert r["details"]["failureKind"] == "env-refused", r["text"]
    assert f"{key}: " in r["text"] and why in r["text"] and "FINE" not in r["text"]
    assert len(host.sessions()) == 0


async def test_every_refused_key_of_a_call_is_named_with_its_reason(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "true", "env": {"CLASSPATH": "x", "JAVA_TOOL_OPTIONS": "y",
                                                                   "HTTPS_PROXY": "z"}}, agent="main")
    assert "CLASSPATH, JAVA_TOOL_OPTIONS: a language runtime" in r["text"]
    assert "HTTPS_PROXY: the program's traffic" in r["text"] and r["text"].endswith("Nothing was started")


async def test_settings_that_keep_a_run_non_interactive_are_not_refused(host: ToolHost) -> None:
    env = {"PAGER": "cat", "GIT_PAGER": "cat", "EDITOR": "true", "GIT_EDITOR": "true", "CC": "cc", "CGO_ENABLED": "0"}
    r = await host.call({"tool": "exec", "command": "echo $PAGER $EDITOR $CGO_ENABLED", "env": env}, agent="main")
    assert r["details"]["status"] == "completed" and r["text"].strip() == "cat true 0"


async def test_children_never_inherit_the_hosts_tls_key_log(host: ToolHost, monkeypatch) -> None:
    monkeypatch.setenv("SSLKEYLOGFILE", "/tmp/keys.log")
    monkeypatch.setenv("OPENCLAW_TEST_KEPT", "kept")
    r = await host.call({"tool": "exec", "command": "echo ${SSLKEYLOGFILE-unset} $OPENCLAW_TEST_KEPT"}, agent="main")
    assert r["text"].strip() == "unset kept"


@pytest.mark.parametrize("pty", [False, True])
@pytest.mark.parametrize(
    ("change", "kind", "named"),
    [
        ({"command": "echo a\0b"}, "invalid-params", "NUL"),
        ({"env": {"A": "x\0y"}}, "invalid-env", "A"),
        ({"env": {"A": "\ud800"}}, "invalid-env", "surrogate"),
        ({"env": {"A\0B": "x"}}, "invalid-env", "variable name"),
    ],
)
async def test_strings_no_program_can_be_given_fail_before_the_fork(host: ToolHost, pty: bool, change: dict,
                                                                   kind: str, named: str) -> None:
    # a NUL in an exec string fails only in the forked child, where a PTY spawn cannot report it and the
    # child would run on as a copy of the host: such calls are refused before anything forks
    me = os.getpid()
    r = await host.call({"tool": "exec", "command": "echo hi", "pty": pty, **change}, agent="main")
    assert os.getpid() == me
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == kind, r
    assert named in r["text"] and len(host.sessions()) == 0


async def test_missing_workdir_fails_before_anything_spawns(host: ToolHost, tmp_path) -> None:
    events = []
    host.subscribe(events.append)
    r = await host.call({"tool": "exec", "command": "echo hi", "workdir": str(tmp_path / "nope")}, agent="main")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "workdir-missing"
    assert DETAIL_FIELDS <= set(r["details"]) and r["details"]["sessionId"] is None
    assert "nope" in r["text"]
    assert len(host.sessions()) == 0
    assert [e.kind for e in events] == ["snapshot"]


async def test_workdir_is_used(host: ToolHost, tmp_path) -> None:
    r = await host.call({"tool": "exec", "command": "pwd", "workdir": str(tmp_path)}, agent="main")
    assert r["text"].strip() == str(tmp_path)
    assert r["details"]["cwd"] == str(tmp_path)


async def test_background_returns_session_details_at_once(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "echo started; sleep 30", "background": True}, agent="main")
    d = r["details"]
    assert d["status"] == "running"
    assert DETAIL_FIELDS <= set(d)
    assert d["pid"] > 0 and d["startedAt"].endswith("Z") and d["cwd"] == os.getcwd()
    assert "process" in r["text"] and d["sessionId"] in r["text"]
    assert [s.id for s in host.supervisor.registry.listed("main")] == [d["sessionId"]]


async def test_yield_window_backgrounds_a_slow_command_with_its_tail(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "echo early; sleep 30", "yieldMs": 300}, agent="main")
    assert r["details"]["status"] == "running"
    await wait_for(lambda: "early" in host.session(r["details"]["sessionId"]).output.full_text())


async def test_yield_ms_is_clamped(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "sleep 30", "yieldMs": 1}, agent="main")
    assert r["details"]["status"] == "running" and r["details"]["yieldMs"] == 10
    r = await host.call({"tool": "exec", "command": "true", "yieldMs": 10_000_000}, agent="main")
    assert r["details"]["yieldMs"] == 120_000


async def test_pipe_run_starts_with_stdin_at_end_of_file(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "cat; echo after-cat"}, agent="main")
    assert r["details"]["status"] == "completed" and "after-cat" in r["text"]


async def test_pty_run_has_a_terminal_of_120_by_30_and_xterm_256color(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "stty size; echo $TERM; test -t 0 && echo tty", "pty": True},
                        agent="main")
    assert r["text"].split() == ["30", "120", "xterm-256color", "tty"]


async def test_pty_term_can_be_overridden(host: ToolHost) -> None:
    r = await host.call({"tool": "exec", "command": "echo $TERM", "pty": True, "env": {"TERM": "vt100"}}, agent="main")
    assert r["text"].strip() == "vt100"


async def test_process_tool_disabled_runs_synchronously_and_says_so(tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[tools]\ndeny = ["process"]\n')
    async with hosting(ToolHost(config_path=cfg, env={})) as host:
        r = await host.call({"tool": "exec", "command": "sleep 0.3; echo finished", "background": True}, agent="main")
        assert r["details"]["status"] == "completed"
        assert "finished" in r["text"] and "synchronously" in r["text"]
        r = await host.call({"tool": "process", "action": "list"}, agent="main")
        assert r["details"]["status"] == "failed"


async def test_cancelled_foreground_call_ends_its_run(host: ToolHost) -> None:
    task = asyncio.ensure_future(host.call({"tool": "exec", "command": "sleep 60", "yieldMs": 60_000}, agent="main"))
    session = await wait_for(lambda: next(iter(host.sessions()), None), what="session to start")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.wait_for(session.done.wait(), 20)
    assert session.exit.killed_by == "cancelled"


async def test_backgrounded_run_survives_the_call_that_started_it(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 0.5; echo later", agent="main")
    out = await poll_until(host, sid, "main", lambda o: "later" in o)
    assert "later" in out


async def test_elevated_is_refused_unless_enabled(host: ToolHost, tmp_path) -> None:
    r = await host.call({"tool": "exec", "command": "echo hi", "elevated": True}, agent="main")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "elevated-refused"
    assert len(host.sessions()) == 0
    cfg = tmp_path / "c.toml"
    cfg.write_text("[tools.elevated]\nenabled = true\n")
    async with hosting(ToolHost(config_path=cfg, env={})) as h2:
        r = await h2.call({"tool": "exec", "command": "echo hi", "elevated": True, "background": True}, agent="main")
        assert r["details"]["elevated"] is True


@pytest.mark.parametrize(
    "call, needle",
    [
        ({"tool": "exec"}, "command"),
        ({"tool": "exec", "command": ""}, "command"),
        ({"tool": "exec", "command": "ls", "bogus": 1}, "valid parameters"),
        ({"tool": "exec", "command": "ls", "timeout": -1}, "timeout"),
        ({"tool": "exec", "command": "ls", "yieldMs": "soon"}, "yieldMs"),
        ({"tool": "nope"}, "valid tools"),
        ("{not json", "not valid JSON"),
        (["a"], "JSON object"),
    ],
)
async def test_bad_exec_calls_fail_clearly(host: ToolHost, call, needle) -> None:
    r = await host.call(call, agent="main")
    assert r["details"]["status"] == "failed"
    assert needle in r["text"]
    assert len(host.sessions()) == 0


async def test_settings_are_captured_when_the_session_is_admitted() -> None:
    async with make_host(ttl_ms=123_456) as host:
        sid = await start_background(host.call, "sleep 30", agent="main")
        host.supervisor.settings = exec_settings(ttl_ms=60_000)
        assert host.session(sid).settings.ttl_ms == 123_456


def test_execs_host_parameter_offers_the_placement_modes_and_node() -> None:
    # the schema agents read spells the values out (pydantic words an enum's members by their repr); they
    # are the configuration's placement modes, and node
    offered = get_args(get_args(ExecParams.model_fields["host"].annotation)[0])
    assert offered == (*PlacementMode, "node")
