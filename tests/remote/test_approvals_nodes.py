"""A node's exec approvals, over real ssh (sshd on loopback, real node hosts: ``tests/support/sshrig.py``): the node
judges its runs with its own policy and allowlist file, and its requests show in the local dashboard, which
answers them through the node link; the node's host takes the decision and records who took it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.nodes.fleet import FleetHost, open_fleet
from openclaw_tui.ui import make_app
from openclaw_tui.ui.dialogs import ApprovalQueue

from ..support.hosts import hosting
from ..support.pilots import SIZE, header, run, until
from ..support.sshrig import SshRig, nodes_toml, started_rig
from ..support.waiting import wait_for

ECHO = os.path.realpath(shutil.which("echo", path="/usr/bin:/bin") or "/bin/echo")
ASKING = '[tools.exec]\nhost = "gateway"\nask = "on-miss"\n'


@pytest.fixture(name="rig")
def asking_rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshRig]:
    """Nodes a (asking the operator, its allowlist allowing echo) and b, with a config home of their own."""
    home = tmp_path / "node-config"
    (home / "openclaw-tui").mkdir(parents=True)
    (home / "openclaw-tui" / "exec-approvals.json").write_text(json.dumps(
        {"version": 1, "agents": {"main": {"allowlist": [{"pattern": ECHO}]}}}))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))  # the node hosts' (started now) and the local host's
    yield from started_rig(ASKING)


@pytest.fixture(name="fleet")
async def fleet_fixture(rig: SshRig) -> AsyncIterator[FleetHost]:
    nodes = rig.write_config(nodes_toml(rig))
    async with hosting(ToolHost(env={}, config_path=rig.write_config("", "plain.toml"))) as local:
        fleet = open_fleet(str(nodes), local)
        assert isinstance(fleet, FleetHost)
        fleet.start()
        try:
            await wait_for(lambda: fleet.node_states == {"a": None, "b": None}, 30, "both nodes answering")
            yield fleet
        finally:
            await asyncio.wait_for(fleet.close(), 30)


async def test_a_node_judges_by_its_own_file_and_the_local_dashboard_answers_its_request(fleet: FleetHost) -> None:
    on_a = {"host": "node", "node": "a", "workdir": "/tmp"}
    allowed = await fleet.call({"tool": "exec", "command": "echo on-its-list", **on_a}, agent="main")
    assert allowed["details"]["status"] == "completed" and allowed["text"] == "on-its-list"  # a's file allows it
    here = await fleet.call({"tool": "exec", "command": "ls /", "workdir": "/tmp"}, agent="main")
    assert here["details"]["status"] == "completed"  # this host asks nobody: its policy is its own
    res = await fleet.call({"tool": "exec", "command": "ls /", "background": True, **on_a}, agent="main")
    assert res["details"]["status"] == "approval-pending", res
    sid = res["details"]["sessionId"]
    assert sid.startswith("a/")
    app = make_app(fleet)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: "1 awaiting approval" in header(app), "the node's request counted here")
        await pilot.press("a")
        queue = await until(pilot, lambda: isinstance(app.screen, ApprovalQueue) and app.screen, "the queue")
        await until(pilot, lambda: queue.requests, "the node's request listed")
        (request,) = queue.requests
        assert request["node"] == "a" and request["sessionId"] == sid and request["approvalId"].startswith("a/ap-")
        assert "main @ a" in str(queue.query_one("#approval-list").options[0].prompt)
        await pilot.press("o")
        await until(pilot, lambda: not fleet.pending_approvals(), "the request decided")
    done = await fleet.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 20_000}, agent="main")
    assert done["details"]["status"] == "completed" and "bin" in done["text"], done
    node = fleet.nodes["a"]
    assert node.ssh is not None
    past = (await node.ssh.client.request("approvals.history"))["details"]["approvals"]
    assert past[-1]["decision"]["state"] == "approved" and past[-1]["decision"]["client"] == "openclaw-tui dashboard"
