"""The dashboard's host across nodes (``remote/fleet.py``): the local host and nodes a and b as one host, over
real ssh (sshd on loopback, two real node hosts: the ``rig`` fixture), without the UI.

A node's session is ``NODE/ID`` here, and every action on it (tool calls, input, resize, the raw stream)
reaches its node's host with the bare id; a node whose host dies keeps its sessions as last seen, and its
actions fail saying so, until it answers again.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.session import Event, EventKind
from openclaw_tui.core.tools.process_input import InputRefused
from openclaw_tui.remote.nodes.fleet import FleetHost, open_fleet

from ..support.hosts import hosting
from ..support.sessions import start_background
from ..support.sshrig import SshRig
from ..support.waiting import wait_for

DEADLINE_S = 30.0


@pytest.fixture(name="fleet")
async def fleet_fixture(rig: SshRig, nodes_config: Path) -> AsyncIterator[FleetHost]:
    """The local host (no nodes of its own) with nodes a and b beside it, both connected."""
    plain = rig.write_config("", "plain.toml")
    async with hosting(ToolHost(env={}, config_path=plain)) as local:
        fleet = open_fleet(str(nodes_config), local)
        assert isinstance(fleet, FleetHost)
        fleet.start()
        try:
            await wait_for(lambda: fleet.node_states == {"a": None, "b": None}, DEADLINE_S, "both nodes answering")
            yield fleet
        finally:
            await asyncio.wait_for(fleet.close(), DEADLINE_S)


async def poll_until(fleet: FleetHost, sid: str, needle: str) -> None:
    seen = ""

    async def more() -> bool:
        nonlocal seen
        res = await fleet.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 1000})
        assert "failureKind" not in res["details"] or res["details"]["failureKind"] is None, res
        seen += res["text"] if res["details"].get("newOutputChars") else ""
        return needle in seen

    deadline = asyncio.get_running_loop().time() + DEADLINE_S
    while not await more():
        assert asyncio.get_running_loop().time() < deadline, f"{needle!r} never came from {sid}; got {seen!r}"


def test_without_nodes_the_dashboard_keeps_its_one_host(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text("")
    local = ToolHost(env={}, config_path=plain)
    assert open_fleet(str(plain), local) is local


async def test_every_action_on_a_node_session_reaches_its_node_by_the_bare_id(fleet: FleetHost, rig: SshRig) -> None:
    heard: list[Event] = []
    fleet.subscribe(heard.append)
    here = await start_background(fleet.call, "sleep 300")
    sid = await start_background(fleet.call, "cat", host="node", node="a", pty=True)
    other = await start_background(fleet.call, "sleep 300", host="node", node="b")
    assert "/" not in here and sid.startswith("a/") and other.startswith("b/")
    await wait_for(lambda: fleet.session(sid) and fleet.session(other), DEADLINE_S, "the node sessions mirrored")
    session = fleet.session(sid)
    assert session is not None and session.id == sid and session.node == "a" and session.pty
    assert fleet.session(here) is not None and fleet.session(here).node is None  # type: ignore[union-attr]
    listed = [s.id for s in fleet.sessions()]
    assert listed.index(other) < listed.index(sid) < listed.index(here)  # newest first, across hosts
    # the terminal view's raw stream, its resize and the operator's keys all go to node a's session
    stop = session.add_raw_listener(lambda: None)
    session.resize(100, 30)
    await wait_for(lambda: session.pty_size == (100, 30), DEADLINE_S, "the resize on node a")
    await fleet.send_input(sid, b"hello-node-a\r", "operator", "type")
    await wait_for(lambda: b"hello-node-a" in session.raw.read(0)[1], DEADLINE_S, "the echo in the raw stream")
    stop()
    await poll_until(fleet, sid, "hello-node-a")
    log = await fleet.call({"tool": "process", "action": "log", "sessionId": sid})
    assert "hello-node-a" in log["text"] and log["details"]["node"] == "a"
    # the node's host ran it: asked on node a directly, the bare id is there
    direct = await fleet.nodes["a"].mirror.call({"tool": "process", "action": "poll",  # type: ignore[union-attr]
                                                 "sessionId": sid.removeprefix("a/")})
    assert direct["details"]["status"] == "running", direct
    res = await fleet.call({"tool": "process", "action": "kill", "sessionId": other})
    assert res["details"]["status"] != "running" and res["details"]["sessionId"] == other, res
    assert other in res["text"]
    await wait_for(lambda: [e for e in heard if e.kind == EventKind.EXITED and e.session_id == other], DEADLINE_S,
                   "node b's exit event, by the prefixed id")
    exited = next(e for e in heard if e.kind == EventKind.EXITED and e.session_id == other)
    assert exited.payload.to_json()["sessionId"] == other and exited.payload.to_json()["node"] == "b"
    assert fleet.session(here).running  # type: ignore[union-attr]  # the local session was not touched
    for s in (sid, here):
        await fleet.call({"tool": "process", "action": "kill", "sessionId": s})


async def test_a_node_whose_host_dies_keeps_its_rows_as_last_seen_until_it_answers_again(
        fleet: FleetHost, rig: SshRig) -> None:
    heard: list[Event] = []
    fleet.subscribe(heard.append)
    # a session that ended: one still running when its host is SIGKILLed could outlive it (the node's affair)
    sid = await start_background(fleet.call, "sleep 0.5; echo done", host="node", node="b")
    await wait_for(lambda: fleet.session(sid) and not fleet.session(sid).running,  # type: ignore[union-attr]
                   DEADLINE_S, "the session mirrored, ended")
    rig.hosts["b"].kill(signal.SIGKILL)
    await wait_for(lambda: fleet.node_states["b"] is not None, DEADLINE_S, "node b marked unreachable")
    assert fleet.node_states["a"] is None
    assert sid in [s.id for s in fleet.sessions()]  # kept, as last seen
    res = await fleet.call({"tool": "process", "action": "log", "sessionId": sid})
    assert res["details"]["failureKind"] == "node-unreachable" and "node b" in res["text"], res
    with pytest.raises(InputRefused, match="node b"):
        await fleet.send_input(sid, b"x", "operator", "type")
    before = len([e for e in heard if e.kind == EventKind.SNAPSHOT])
    rig.hosts["b"].start()
    rig.hosts["b"].wait_ready()
    await wait_for(lambda: fleet.node_states["b"] is None, 60, "node b answering again")
    assert len([e for e in heard if e.kind == EventKind.SNAPSHOT]) > before  # the dashboard lists everything again
    new = await start_background(fleet.call, "sleep 300", host="node", node="b")
    await wait_for(lambda: fleet.session(new), DEADLINE_S, "a new session on node b, live")
    await fleet.call({"tool": "process", "action": "kill", "sessionId": new})


async def test_an_unknown_node_prefix_is_the_local_hosts_to_answer(fleet: FleetHost) -> None:
    res = await fleet.call({"tool": "process", "action": "poll", "sessionId": "nowhere/brisk-atlas"})
    assert res["details"]["status"] == "failed" and "nowhere/brisk-atlas" in res["text"], res
    assert fleet.session("nowhere/brisk-atlas") is None


async def test_a_dashboard_showing_figures_gets_a_node_sessions_figures_through_the_link(fleet: FleetHost) -> None:
    sid = await start_background(fleet.call, "python3 -c 'while True: pass'", host="node", node="a")
    here = await start_background(fleet.call, "sleep 300")
    await wait_for(lambda: fleet.session(sid) and fleet.session(here), DEADLINE_S, "both sessions mirrored")
    heard: list[Event] = []
    fleet.subscribe(heard.append)
    unwatch = fleet.watch_figures()
    try:
        await wait_for(lambda: (fleet.session(sid).resources or {}).get("cpuPercent", 0) >= 30, 60,
                       "the node's figures of its busy session, on the mirror")
        await wait_for(lambda: fleet.session(here).resources, DEADLINE_S, "this host's figures beside them")
        assert any(e.kind == EventKind.RESOURCES and sid in e.payload.figures for e in heard)  # as NODE/ID
    finally:
        unwatch()
