"""The policy, through real exec calls: off by default, a per-call ask that only tightens, security deny and
allowlist, on-miss outside the sandbox and always everywhere, per agent, and the config's keys."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config import ConfigWarning, default_approvals_file, load_settings
from openclaw_tui.core.containment import sandbox

from ...support.approvals import allow, asking, pending, run
from ...support.hosts import hosting

FOUND = sandbox.availability()
needs_sandbox = pytest.mark.skipif(not FOUND.usable, reason=f"no sandbox here: {FOUND.reason}")
ECHO = shutil.which("echo", path="/usr/bin:/bin")


async def test_approvals_are_off_by_default_and_nothing_is_read_or_asked(tmp_path: Path) -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        res = await run(host, "echo $(echo plain) && ls / >/tmp/x-not-checked")
        assert res["details"]["status"] == "completed" and "approvalId" not in res["details"]
        assert host.supervisor.approvals.pending() == []
        res = await run(host, "echo fine", ask="off")  # equal to the configured policy: taken
        assert res["details"]["status"] == "completed"


async def test_a_call_may_tighten_ask_but_a_looser_one_fails_saying_so(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        res = await run(host, "echo x", ask="off")
        assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "invalid-params"
        assert "ask can only tighten the configured policy" in res["text"] and "'on-miss' or 'always'" in res["text"]
        assert host.supervisor.approvals.pending() == []  # refused before anything was reserved
        await pending(host.call, "echo x", ask="on-miss")
        allow(tmp_path / "ea.json", {"pattern": ECHO})
        assert (await run(host, "echo matched", ask="on-miss"))["details"]["status"] == "completed"
        await pending(host.call, "echo matched", ask="always")  # stricter: taken, even for a match
    async with asking(tmp_path / "ea.json") as host:
        res = await run(host, "echo x", ask="bogus")
        assert res["details"]["failureKind"] == "invalid-params" and "'off', 'on-miss' or 'always'" in res["text"]


async def test_security_deny_refuses_every_run_outside_the_sandbox(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", elevated=True, security="deny") as host:
        for params in ({}, {"elevated": True}):
            res = await run(host, "echo no", **params)
            assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "exec-denied", res
            assert 'security = "deny"' in res["text"] and "nothing was run" in res["text"]
        assert host.sessions() == []


@needs_sandbox
async def test_security_deny_leaves_the_sandbox_its_runs(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", placement="sandbox", security="deny") as host:
        res = await run(host, "echo boxed")
        assert res["details"]["status"] == "completed" and res["details"]["host"] == "sandbox"


async def test_allowlist_with_ask_off_refuses_a_miss_naming_the_segment_and_runs_a_match(tmp_path: Path) -> None:
    allow(tmp_path / "ea.json", {"pattern": ECHO})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        res = await run(host, "echo first && ls /")
        assert res["details"]["failureKind"] == "exec-denied" and "`ls /`" in res["text"], res
        assert "is not on the allowlist" in res["text"] and "`echo first`" not in res["text"]
        res = await run(host, "echo allowed")
        assert res["details"]["status"] == "completed" and res["text"] == "allowed"
        assert host.supervisor.approvals.pending() == []  # nobody was asked


async def test_allowlist_security_with_on_miss_asks_for_a_miss(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", security="allowlist", ask="on-miss") as host:
        await pending(host.call, "ls /")


@needs_sandbox
async def test_on_miss_gates_runs_outside_the_sandbox_and_leaves_sandboxed_ones(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", elevated=True, placement="auto", ask="on-miss") as host:
        res = await run(host, "echo in-the-box")
        assert res["details"]["status"] == "completed" and res["details"]["host"] == "sandbox"
        await pending(host.call, "echo elevated", elevated=True)
        await pending(host.call, "echo gateway", host="gateway")


@needs_sandbox
async def test_always_gates_the_sandbox_too(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", placement="auto", ask="always") as host:
        sid = await pending(host.call, "echo boxed")
        request = host.pending_approvals()[0]
        assert request["sessionId"] == sid and request["placement"] == "sandbox" and "ask = \"always\"" in request["why"]


async def test_the_policy_is_per_agent_and_captured_when_the_call_is_admitted(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[tools.exec]\nhost = "gateway"\n[agents.ci.tools.exec]\nask = "always"\n')
    async with hosting(ToolHost(config_path=config)) as host:
        host.supervisor.approvals.allowlist.path = str(tmp_path / "ea.json")
        assert (await run(host, "echo main-runs"))["details"]["status"] == "completed"
        sid = await pending(host.call, "echo ci-asks", agent="ci")
        assert host.session(sid).settings.ask == "always"


def test_the_config_reads_the_keys_clamps_the_timeout_and_hides_the_file_from_the_sandbox(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[tools.exec]\nsecurity = "allowlist"\nask = "always"\naskFallback = "full"\n'
                      'approvalTimeoutMs = 10\napprovalRunningNoticeMs = 0\n'
                      '[agents.slow.tools.exec]\napprovalTimeoutMs = 999999999999\n')
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    settings = load_settings(config, env)
    e = settings.exec
    assert (e.security, e.ask, e.ask_fallback, e.approval_timeout_ms, e.approval_running_notice_ms) == (
        "allowlist", "always", "full", 10_000, 0)
    assert settings.agents["slow"].approval_timeout_ms == 24 * 60 * 60 * 1000
    assert settings.approvals_file == str(tmp_path / "cfg" / "openclaw-tui" / "exec-approvals.json")
    assert settings.approvals_file in e.secrets and default_approvals_file(env) == settings.approvals_file
    config.write_text('[tools.exec]\nsecurity = "yolo"\nask = true\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        settings = load_settings(config, env)
    assert (settings.exec.security, settings.exec.ask) == ("full", "off")
    said = [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]
    assert any("tools.exec.security must be one of deny, allowlist, full" in m for m in said), said


async def test_the_allowlist_file_can_only_tighten_the_configured_policy(tmp_path: Path) -> None:
    (tmp_path / "ea.json").write_text('{"version": 1, "defaults": {"ask": "on-miss"}, '
                                      '"agents": {"lax": {"ask": "off"}, "locked": {"security": "deny"}}}')
    async with asking(tmp_path / "ea.json") as host:
        await pending(host.call, "echo asked")  # the file's defaults tighten the config's ask = "off"
        assert (await run(host, "echo lax", agent="lax"))["details"]["status"] == "completed"
        assert (await run(host, "echo locked", agent="locked"))["details"]["failureKind"] == "exec-denied"
    async with asking(tmp_path / "ea.json", ask="always") as host:
        await pending(host.call, "echo still-asked", agent="lax")  # no file loosens what the config says
        res = await run(host, "echo x", ask="on-miss")
        assert res["details"]["failureKind"] == "invalid-params"
