"""Exec approvals over the socket: ``openclaw-tui approvals`` (a subprocess) lists and decides a served host's
requests; a command the host runs cannot approve its agent's own request, nor list any; MCP has no way to
decide, and its SDK client takes ``approval-pending`` results as its output schema says."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from openclaw_tui import ToolHost
from openclaw_tui.core.config import Settings
from openclaw_tui.core.session import APPROVAL_KINDS, ApprovalState, Event, Snapshot
from openclaw_tui.core.tools.models import ACTIONS
from openclaw_tui.remote.mcp.mcp_tools import OUTPUT_SCHEMA
from openclaw_tui.remote.server.callers import Confinement

from ..support.approvals import asking_settings, pending
from ..support.hosts import hosting, serving
from ..support.orphans import needs_cgroups
from ..support.waiting import wait_for


def served_settings(tmp_path: Path, containment: str = "auto") -> Settings:
    """Asks on a miss, on an allowlist file of the test's own; kills with a short grace."""
    settings = asking_settings(tmp_path / "exec-approvals.json", ask="on-miss", kill_grace_s=0.5)
    return replace(settings, containment=containment)


@pytest.fixture
async def asking_served(tmp_path, sock):
    async with hosting(ToolHost(settings=served_settings(tmp_path))) as host, serving(host, sock) as pair:
        yield pair


async def cli(sock: Path, *args: str) -> tuple[int, str, str]:
    """``openclaw-tui approvals ARGS`` as the operator runs it in a terminal (never blocking the host's loop)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "openclaw_tui", "approvals", *args, env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_command_lists_the_requests_and_their_fields_as_json_and_as_text(asking_served) -> None:
    host, sock = asking_served
    sid = await pending(host.call, "git status && echo done")
    status, out, _ = await cli(sock, "--json")
    assert status == 0
    (listed,) = json.loads(out)
    for key in ("approvalId", "sessionId", "agent", "node", "placement", "cwd", "command", "segments", "why",
                "createdAtMs", "expiresAtMs"):
        assert key in listed, key
    assert listed["sessionId"] == sid and listed["agent"] == "main" and listed["placement"] == "gateway"
    assert [(s["argv"], s["matched"]) for s in listed["segments"]] == [(["git", "status"], False), (["echo", "done"], False)]
    assert all(s["resolvedPath"] for s in listed["segments"])
    status, out, _ = await cli(sock)
    assert status == 0 and listed["approvalId"] in out and "git status && echo done" in out and "expires in" in out


async def test_approve_and_deny_decide_by_approval_or_session_id_and_the_history_keeps_who(asking_served) -> None:
    host, sock = asking_served
    first, second = await pending(host.call, "echo via-cli"), await pending(host.call, "echo refused-by-cli")
    approval = host.pending_approvals()[0]["approvalId"]
    status, out, _ = await cli(sock, "approve", approval)
    assert status == 0 and "approved by operator (openclaw-tui approvals" in out
    status, out, _ = await cli(sock, "deny", second, "--reason", "use the staging box")
    assert status == 0 and "denied by operator" in out and "use the staging box" in out
    await wait_for(lambda: not host.session(first).running and not host.session(second).running, what="both ended")
    status, _, err = await cli(sock, "approve", second)
    assert status == 1 and "already denied" in err and "[already-decided]" in err
    status, _, err = await cli(sock, "approve", "ap-nothing")
    assert status == 1 and "no pending approval" in err
    status, out, _ = await cli(sock, "--history", "--json")
    past = {r["sessionId"]: r["decision"] for r in json.loads(out)}
    assert past[first]["state"] == "approved" and past[first]["client"] == "openclaw-tui approvals"
    assert past[first]["pid"] and past[second]["reason"] == "use the staging box"
    status, out, _ = await cli(sock, "--history")
    assert status == 0 and f"session {second}" in out and "denied by operator" in out


async def test_without_a_host_the_command_says_so_and_exits_2(sock_dir) -> None:
    status, _, err = await cli(sock_dir / "none" / "host.sock")
    assert status == 2 and "no openclaw-tui host is running" in err


@pytest.fixture(params=[pytest.param("cgroup", marks=needs_cgroups), "subreaper"])
async def confined_host(request, tmp_path, sock):
    settings = served_settings(tmp_path, "subreaper" if request.param == "subreaper" else "auto")
    async with hosting(ToolHost(settings=settings)) as host, serving(host, sock) as pair:
        yield pair


async def test_a_command_the_host_runs_cannot_approve_its_agents_own_request_nor_list_any(confined_host) -> None:
    host, sock = confined_host
    target = await pending(host.call, "echo the-target")
    own = shlex.quote(sys.executable) + " -m openclaw_tui approvals"
    attempt = (f'{own} approve {target}; echo "approve:$?"; {own} approve {target} --always; echo "always:$?"; '
               f'{own} deny {target}; echo "deny:$?"; {own} --json; echo "list:$?"; {own} --history; echo "history:$?"')
    res = await host.call({"tool": "exec", "command": attempt, "background": True, "workdir": "/tmp",
                           "env": {"OPENCLAW_TUI_SOCKET": str(sock)}}, agent="main")
    inside = res["details"]["sessionId"]
    await host.decide_approval(inside, "allow-once")  # the operator lets the attempt itself run, on purpose
    await wait_for(lambda: not host.session(inside).running, timeout=60, what="the attempt to end")
    out = host.session(inside).output.full_text()
    for step in ("approve", "always", "deny", "list", "history"):
        assert f"{step}:1" in out, out
    assert out.count("[caller-confined]") == 5 and "only the operator decides exec approvals" in out
    assert host.session(target).status == "approval-pending"  # untouched
    assert [r["sessionId"] for r in host.pending_approvals()] == [target]


async def test_a_confined_connection_never_sees_a_request_go_by(tmp_path) -> None:
    async with hosting(ToolHost(settings=served_settings(tmp_path))) as host:
        sid = await pending(host.call, "echo unseen")
        seen: list[Event] = []
        host.subscribe(seen.append)()
        confined = Confinement("some-session", "main")
        snapshot = confined.sees(seen[0], host)
        assert isinstance(seen[0].payload, Snapshot) and seen[0].payload.approvals
        assert snapshot is not None and "approvals" not in snapshot.to_json()["data"]
        request = host.pending_approvals()[0]
        for kind in APPROVAL_KINDS:
            assert confined.sees(Event(kind, sid, ApprovalState({**request, "agent": "main"})), host) is None


def server_params(sock: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "openclaw_tui", "mcp", "--agent", "main"],
                                 env=dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock)))


async def test_mcp_offers_no_way_to_decide_and_its_client_accepts_approval_pending(asking_served) -> None:
    host, sock = asking_served
    async with stdio_client(server_params(sock)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}  # the SDK validates results from now on
        assert set(tools) == {"exec", "process"}
        actions = tools["process"].input_schema["properties"]["action"]["enum"]
        assert sorted(actions) == sorted(ACTIONS) and not {"approve", "deny", "decide"} & set(actions)
        assert "approval-pending" in tools["exec"].output_schema["properties"]["status"]["enum"]
        res = await session.call_tool("exec", {"command": "echo over-mcp", "background": True, "workdir": "/tmp"})
        assert res.structured_content["status"] == "approval-pending" and res.is_error is False
        jsonschema.validate(res.structured_content, OUTPUT_SCHEMA)
        with pytest.raises(jsonschema.ValidationError):  # the check can fail: the schema before approvals
            old = json.loads(json.dumps(OUTPUT_SCHEMA))
            old["properties"]["status"]["enum"] = ["running", "completed", "failed"]
            jsonschema.validate(res.structured_content, old)
        sid = res.structured_content["sessionId"]
        for action in ("approve", "decide"):
            refused = await session.call_tool("process", {"action": action, "sessionId": sid})
            assert refused.is_error and "unknown action" in "".join(c.text for c in refused.content)
        polled = await session.call_tool("process", {"action": "poll", "sessionId": sid})
        assert polled.structured_content["status"] == "approval-pending" and not polled.is_error
    assert host.session(sid).status == "approval-pending"
