"""The socket knows who is calling: a process inside a session acts only as that session's agent.

Each test runs real requests from inside real gateway sessions (``openclaw-tui call``, and a small client,
``peer_probe.py``) against a served host, under both gateway containments: the cgroup and the marked
family of a subreaper host. The test process itself, outside every session, stays the operator.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.remote.wire.client import HostClient

from ..support.hosts import hosting, serving
from ..support.orphans import needs_cgroups

PROBE = Path(__file__).with_name("peer_probe.py")
LIST = {"tool": "process", "action": "list"}


@pytest.fixture(params=[pytest.param("cgroup", marks=needs_cgroups), "subreaper"])
async def gateway(request, sock):
    settings = Settings(exec=replace(ExecSettings(), placement="gateway", kill_grace_s=0.5),
                        containment="subreaper" if request.param == "subreaper" else "auto")
    async with hosting(ToolHost(settings=settings)) as host, serving(host, sock) as pair:
        yield pair


async def _run_inside(host: ToolHost, sock: Path, command: str, agent: str | None, **kw) -> str:
    """Run ``command`` as a gateway session of ``agent`` until it ends; its output."""
    r = await host.call({"tool": "exec", "command": command, "yieldMs": 60_000, "env": {"OPENCLAW_TUI_SOCKET": str(sock)},
                         **kw}, agent=agent)
    assert r["details"]["status"] == "completed" and r["details"]["containment"] in ("cgroup", "subreaper"), r
    return r["text"]


def _probe(ops: list[dict]) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(PROBE))} {shlex.quote(json.dumps(ops))}"


def _cli(call: dict, *args: str) -> str:
    """A shell line printing ``<exit status>:<result JSON>``."""
    return (f"r=$({shlex.quote(sys.executable)} -m openclaw_tui call {shlex.quote(json.dumps(call))} {' '.join(args)}); "
            'echo "$?:$r"')


async def _bob(host: ToolHost) -> str:
    r = await host.call({"tool": "exec", "command": "sleep 300", "background": True}, agent="bob")
    return r["details"]["sessionId"]


async def test_the_cli_inside_a_session_acts_only_as_its_agent(gateway) -> None:
    host, sock = gateway
    bob = await _bob(host)
    out = await _run_inside(host, sock, "; ".join([_cli(LIST, "--agent", "alice"), _cli(LIST, "--agent", "bob"),
                                                   _cli(LIST)]), agent="alice")
    (own_status, own), (bob_status, as_bob), (default_status, as_default) = [
        (int(line.split(":", 1)[0]), json.loads(line.split(":", 1)[1])) for line in out.strip().split("\n")]
    assert own_status == 0 and bob not in own["text"]
    for status, refused, name in ((bob_status, as_bob, "bob"), (default_status, as_default, "cli")):
        assert status == 1 and refused["details"]["failureKind"] == "caller-confined"
        assert f"may act only as 'alice', not as '{name}'" in refused["text"]
    assert host.session(bob).running


@pytest.mark.parametrize("escape", ["", "daemon"])
async def test_a_call_naming_no_agent_is_the_sessions_agent_and_cannot_touch_others(gateway, escape, tmp_path) -> None:
    host, sock = gateway
    bob = await _bob(host)
    ops = [{"call": LIST}, {"call": {"tool": "process", "action": "kill", "sessionId": bob}},
           {"events": True}, {"request": "session.resize", "params": {"sessionId": bob, "cols": 80, "rows": 20}},
           {"request": "session.output", "params": {"sessionId": bob}}]
    if escape:  # a double-forked daemon in a session of its own, with every fd closed, calls
        out = tmp_path / "probe.json"
        command = (f"{_probe(ops).replace(str(PROBE) + ' ', f'{PROBE} --daemon {out} ', 1)}; "
                   f"until [ -e {out}.done ]; do sleep 0.02; done; cat {out}")
    else:
        command = _probe(ops)
    listed, killed, events, resized, output = json.loads((await _run_inside(host, sock, command, "alice")).strip())
    assert listed["status"] == "completed" and bob not in listed["text"]
    assert killed["status"] == "failed" and host.session(bob).running
    assert bob not in events["snapshot"]
    assert "no session" in resized["error"] and "no session" in output["error"]


async def test_a_session_the_operator_started_cannot_act_as_the_operator(gateway) -> None:
    host, sock = gateway
    bob = await _bob(host)
    ops = [{"call": LIST}, {"call": LIST, "agent": "carol"}, {"events": True}]
    as_operator, as_carol, events = json.loads((await _run_inside(host, sock, _probe(ops), agent=None)).strip())
    assert as_operator["kind"] == "caller-confined" and "may not act as the operator" in as_operator["text"]
    assert as_carol["status"] == "completed" and bob not in as_carol["text"]
    assert "may not act as the operator" in events["error"]


async def test_a_process_outside_every_session_is_the_operator(gateway) -> None:
    host, sock = gateway
    bob = await _bob(host)
    async with await HostClient.connect(sock) as client:
        r = await client.call(LIST)
        assert bob in r["text"]
        await client.request("session.resize", {"sessionId": bob, "cols": 80, "rows": 20})
    assert host.supervisor.containment.session_of(os.getpid()) is None
