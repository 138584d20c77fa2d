"""Agents on other machines: exec with ``host: "node"`` and every process action on a node's sessions, over
real ssh (sshd on loopback, two real node hosts: the ``rig`` fixture).

The local host here is in-process (``openclaw_tui.ToolHost`` with nodes a and b in its config); the nodes
are ``openclaw-tui serve`` processes reached through ``ssh ... openclaw-tui bridge``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import psutil
import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.session import Event, EventKind, NodeDown

from ..support.hosts import hosting
from ..support.isolation import MARK
from ..support.sessions import start_background
from ..support.sshrig import SshRig

DEADLINE_S = 30.0


@pytest.fixture(name="host")
async def host_fixture(nodes_config: Path) -> AsyncIterator[ToolHost]:
    """The local host, with nodes a and b."""
    async with hosting(ToolHost(env={}, config_path=nodes_config)) as h:
        yield h


async def run(host: ToolHost, call: dict[str, Any], agent: str | None = "alice") -> dict[str, Any]:
    return await host.call(call, agent=agent)


async def until(call: Callable[[], Awaitable[dict[str, Any]]], check: Callable[[dict[str, Any]], bool],
                what: str, timeout: float = DEADLINE_S) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        res = await call()
        if check(res):
            return res
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last result: {res}")
        await asyncio.sleep(0.1)


async def poll_output(host: ToolHost, sid: str, needle: str, agent: str | None = "alice") -> str:
    seen = ""
    deadline = time.monotonic() + DEADLINE_S
    while needle not in seen:
        assert time.monotonic() < deadline, f"{needle!r} never came; got {seen!r}"
        res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid, "timeout": 2000}, agent)
        assert res["details"]["status"] != "failed" or "failureKind" not in res["details"], res
        seen += res["text"] if res["details"].get("newOutputChars") else ""
    return seen


def listed(res: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["sessionId"]: s for s in res["details"]["sessions"]}


async def test_exec_on_a_node_runs_there_in_the_node_hosts_own_directory(host: ToolHost, rig: SshRig) -> None:
    for node in ("a", "b"):  # a: forced command; b: plain key, the node's command and socket from the config
        res = await run(host, {"tool": "exec", "command": "echo on-$0; pwd", "host": "node", "node": node})
        assert res["details"]["status"] == "completed", res
        assert res["details"]["node"] == node
        work = str(rig.hosts[node].workdir)
        assert res["text"].splitlines()[-1] == work  # the node host's directory, not this test's
        assert res["details"]["cwd"] == work


async def test_a_node_session_is_polled_written_and_keyed_by_its_prefixed_id(host: ToolHost) -> None:
    sid = await start_background(host.call, "read -r -p 'name? ' n; echo \"hello $n\"; cat", pty=True,
                                 host="node", node="a", agent="alice")
    assert sid.startswith("a/") and sid.count("/") == 1
    await poll_output(host, sid, "name?")
    res = await run(host, {"tool": "process", "action": "send-keys", "sessionId": sid, "literal": "bob",
                           "keys": ["Enter"]})
    assert res["details"]["status"] == "running" and res["details"]["sessionId"] == sid, res
    await poll_output(host, sid, "hello bob")
    res = await run(host, {"tool": "process", "action": "write", "sessionId": sid, "data": "typed line\n"})
    assert res["details"]["bytes"] == len("typed line\n"), res
    await poll_output(host, sid, "typed line")
    res = await run(host, {"tool": "process", "action": "log", "sessionId": sid})
    assert "hello bob" in res["text"] and res["details"]["node"] == "a"
    assert [i["source"] for i in res["details"]["inputs"]][-2:] == ["alice", "alice"]
    res = await run(host, {"tool": "process", "action": "kill", "sessionId": sid})
    assert res["details"]["status"] == "completed" and f"Killed session {sid}" in res["text"], res
    res = await run(host, {"tool": "process", "action": "list"})
    assert listed(res)[sid]["status"] == "failed" and listed(res)[sid]["node"] == "a"
    res = await run(host, {"tool": "process", "action": "remove", "sessionId": sid})
    assert res["details"]["status"] == "completed", res
    assert sid not in listed(await run(host, {"tool": "process", "action": "list"}))


async def test_list_merges_this_hosts_sessions_and_every_nodes_newest_first(host: ToolHost) -> None:
    first = await start_background(host.call, "sleep 300", host="node", node="b", agent="alice")
    res = await run(host, {"tool": "exec", "command": "sleep 300", "background": True})
    here = res["details"]["sessionId"]
    last = await start_background(host.call, "sleep 300", host="node", node="a", agent="alice")
    res = await run(host, {"tool": "process", "action": "list"})
    ids = [s["sessionId"] for s in res["details"]["sessions"]]
    assert ids == [last, here, first], res
    assert [line.split()[0] for line in res["text"].splitlines()] == ids
    assert {n["node"]: n["reachable"] for n in res["details"]["nodes"]} == {"a": True, "b": True}
    for sid in ids:
        await run(host, {"tool": "process", "action": "kill", "sessionId": sid})


async def test_an_exit_on_a_node_reaches_its_agent_exactly_once(host: ToolHost) -> None:
    heard: list[Event] = []
    host.subscribe(lambda e: heard.append(e) if e.kind == EventKind.NOTIFICATION else None)
    sid = await start_background(host.call, "sleep 0.5; echo finished-on-a; exit 3", host="node", node="a",
                                 agent="alice")
    mine = lambda: [e for e in heard if e.session_id == sid]
    deadline = time.monotonic() + DEADLINE_S
    while not mine():
        assert time.monotonic() < deadline, "the node's exit notice never arrived"
        await asyncio.sleep(0.05)
    notice = mine()[0].payload.to_json()
    assert notice["agent"] == "alice" and notice["exitCode"] == 3 and notice["node"] == "a"
    assert notice["text"].startswith(f"[exit] {sid} ") and "finished-on-a" in notice["text"]
    # The next result, wherever it runs, carries it once; later ones, here or on the node, never again.
    texts = []
    for call in ({"tool": "process", "action": "list"},
                 {"tool": "exec", "command": "true", "host": "node", "node": "a"},
                 {"tool": "exec", "command": "true"},
                 {"tool": "process", "action": "list"}):
        texts.append((await run(host, call))["text"])
    assert texts[0].count(f"[exit] {sid}") == 1, texts[0]
    assert all(f"[exit] {sid}" not in t for t in texts[1:]), texts
    assert len(mine()) == 1
    assert (await run(host, {"tool": "process", "action": "list"}, agent="bob"))["text"].count("[exit]") == 0


async def test_a_poll_that_returns_the_end_takes_the_place_of_the_queued_notice(host: ToolHost) -> None:
    heard: list[Event] = []
    host.subscribe(lambda e: heard.append(e) if e.kind == EventKind.NOTIFICATION else None)
    sid = await start_background(host.call, "sleep 0.3; echo done", host="node", node="b", agent="alice")
    deadline = time.monotonic() + DEADLINE_S
    while not [e for e in heard if e.session_id == sid]:  # ended with nobody polling: a notice is queued
        assert time.monotonic() < deadline, "the node's exit notice never arrived"
        await asyncio.sleep(0.05)
    res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid})
    assert res["details"]["status"] == "completed" and "done" in res["text"], res
    assert "[exit]" not in res["text"]  # the poll itself says how it ended, as for a local session
    assert "[exit]" not in (await run(host, {"tool": "process", "action": "list"}))["text"]


async def test_each_agent_sees_only_its_own_node_sessions(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 300", agent="alice", host="node", node="a")
    for action in ("poll", "log", "kill"):
        res = await run(host, {"tool": "process", "action": action, "sessionId": sid}, agent="bob")
        assert res["details"]["failureKind"] == "unknown-session", res
        assert sid in res["text"]  # said in this host's terms
    assert sid not in listed(await run(host, {"tool": "process", "action": "list"}, agent="bob"))
    assert sid in listed(await run(host, {"tool": "process", "action": "list"}, agent="alice"))
    assert sid in listed(await run(host, {"tool": "process", "action": "list"}, agent=None))  # the operator
    res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid}, agent="alice")
    assert res["details"]["status"] == "running"
    await run(host, {"tool": "process", "action": "kill", "sessionId": sid})


async def test_elevated_on_a_node_is_that_nodes_decision(host: ToolHost) -> None:
    # This host does not enable elevated runs; node a does, node b does not.
    res = await run(host, {"tool": "exec", "command": "echo up", "elevated": True})
    assert res["details"]["failureKind"] == "elevated-refused"
    res = await run(host, {"tool": "exec", "command": "echo up", "elevated": True, "host": "node", "node": "a"})
    assert res["details"]["status"] == "completed" and res["details"]["elevated"] is True, res
    assert res["details"]["host"] == "gateway"
    res = await run(host, {"tool": "exec", "command": "echo up", "elevated": True, "host": "node", "node": "b"})
    assert res["details"]["failureKind"] == "elevated-refused" and res["details"]["node"] == "b", res


async def test_ssh_refusing_the_key_is_a_failure_that_names_the_node_and_what_was_tried(rig: SshRig) -> None:
    config = rig.write_config(rig.node_toml("locked", key="stranger"), "stranger.toml")
    async with hosting(ToolHost(env={}, config_path=config)) as host:
        res = await run(host, {"tool": "exec", "command": "true", "host": "node", "node": "locked"})
    assert res["details"]["failureKind"] == "node-unreachable", res
    assert "node locked" in res["text"] and f"-p {rig.port}" in res["text"] and "bridge" in res["text"]
    assert "Permission denied" in res["text"]  # ssh's own last word


async def test_a_node_without_the_command_says_what_to_set(rig: SshRig) -> None:
    config = rig.write_config(rig.node_toml("bare", key="plain", command="openclaw-tui-not-here"), "bare.toml")
    async with hosting(ToolHost(env={}, config_path=config)) as host:
        res = await run(host, {"tool": "exec", "command": "true", "host": "node", "node": "bare"})
        assert res["details"]["failureKind"] == "node-unreachable", res
        assert "'openclaw-tui-not-here' was not found" in res["text"]
        assert "command = " in res["text"] and "[nodes.bare]" in res["text"] and "exited 127" in res["text"]
        res = await run(host, {"tool": "process", "action": "list"})
        assert [(n["node"], n["reachable"]) for n in res["details"]["nodes"]] == [("bare", False)]
        assert "[nodes.bare]" in res["text"]


def _bridges() -> list[psutil.Process]:
    """The bridges sshd runs for this test (they carry the suite's marker)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if "bridge" in (proc.info["cmdline"] or []) and proc.environ().get(MARK) == os.environ[MARK]:
                found.append(proc)
        except psutil.Error:
            continue
    return found


async def test_a_dropped_node_marks_its_sessions_unreachable_until_it_answers_again(host: ToolHost, rig: SshRig) -> None:
    heard: list[Event] = []
    host.subscribe(lambda e: heard.append(e) if e.kind in (EventKind.NOTIFICATION, EventKind.NODE_UNREACHABLE) else None)
    sid = await start_background(host.call, "sleep 300", host="node", node="a", agent="alice")
    go = rig.root / "release"
    held = await start_background(host.call, f"while [ ! -e {go} ]; do sleep 0.1; done; echo released",
                                  host="node", node="a", agent="alice")
    rig.stop_sshd()  # no new connection can be made...
    for bridge in _bridges():  # ...and the one in use ends
        bridge.kill()
    res = await until(lambda: run(host, {"tool": "process", "action": "list"}),
                      lambda r: listed(r)[sid].get("nodeReachable") is False, "the session marked unreachable")
    assert f"{sid}  node unreachable (last seen running)" in res["text"]
    assert listed(res)[sid]["status"] == "running"  # not ended: nobody knows it did
    assert "Connection refused" in res["text"] and "node a" in res["text"]
    dropped = [e.payload for e in heard if isinstance(e.payload, NodeDown)]  # for the operator's notifications
    assert dropped and dropped[0].node == "a" and "node a" in dropped[0].why, dropped
    res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid})
    assert res["details"]["failureKind"] == "node-unreachable" and "node a" in res["text"], res
    assert f"-p {rig.port}" in res["text"]  # what was tried
    go.touch()  # one session ends while nobody is connected: the node keeps its notice for alice
    rig.start_sshd()
    await until(lambda: run(host, {"tool": "process", "action": "poll", "sessionId": sid}, agent=None),
                lambda r: r["details"]["status"] == "running", "the session live again", timeout=60)
    # Back, the node hands over what it queued: once, as an event and at the top of alice's next result.
    deadline = time.monotonic() + DEADLINE_S
    while not [e for e in heard if e.session_id == held]:
        assert time.monotonic() < deadline, "the notice queued while the node was away never came"
        await asyncio.sleep(0.05)
    res = await run(host, {"tool": "process", "action": "list"})
    assert res["text"].count(f"[exit] {held} ") == 1 and "released" in res["text"]
    assert listed(res)[sid]["nodeReachable"] is True and listed(res)[sid]["status"] == "running"
    assert f"[exit] {held}" not in (await run(host, {"tool": "process", "action": "list"}))["text"]
    await run(host, {"tool": "process", "action": "kill", "sessionId": sid})


async def test_a_node_host_killed_mid_session_and_restarted(host: ToolHost, rig: SshRig) -> None:
    sid = await start_background(host.call, "sleep 300", host="node", node="a", agent="alice")
    other = await start_background(host.call, "sleep 300", host="node", node="b", agent="alice")
    rig.hosts["a"].kill(signal.SIGKILL)
    res = await until(lambda: run(host, {"tool": "process", "action": "list"}),
                      lambda r: listed(r)[sid].get("nodeReachable") is False, "the session marked unreachable")
    assert listed(res)[other]["status"] == "running" and listed(res)[other]["nodeReachable"] is True
    res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid})
    assert res["details"]["failureKind"] == "node-unreachable", res
    # The host is not started again behind the operator's back: the bridge is asked not to.
    res = await until(lambda: run(host, {"tool": "process", "action": "poll", "sessionId": sid}),
                      lambda r: "not starting one" in r["text"], "a retry that finds no host there")
    assert res["details"]["failureKind"] == "node-unreachable"
    rig.hosts["a"].start()
    rig.hosts["a"].wait_ready()
    # Back: what became of the session is the node host's to say (its host died with it).
    res = await until(lambda: run(host, {"tool": "process", "action": "list"}),
                      lambda r: all(n["reachable"] for n in r["details"]["nodes"]), "node a answering again",
                      timeout=60)
    assert sid not in listed(res) or listed(res)[sid]["status"] != "running"
    res = await run(host, {"tool": "process", "action": "poll", "sessionId": sid})
    assert res["details"].get("failureKind") != "node-unreachable", res
    new = await start_background(host.call, "sleep 300", host="node", node="a", agent="alice")
    for s in (new, other):
        await run(host, {"tool": "process", "action": "kill", "sessionId": s})


@pytest.mark.parametrize("call, kind", [
    ({"tool": "exec", "command": "true", "host": "node", "node": "nowhere"}, "unknown-node"),
    ({"tool": "exec", "command": "true", "node": "a"}, "invalid-params"),
    ({"tool": "exec", "command": "true", "host": "node"}, "invalid-params"),
    ({"tool": "process", "action": "poll", "sessionId": "nowhere/brisk-atlas"}, "unknown-node"),
])
async def test_a_call_for_a_node_that_cannot_be_meant_fails_and_names_the_nodes(nodes_config, call, kind) -> None:
    async with hosting(ToolHost(env={}, config_path=nodes_config)) as host:  # no connection is ever needed
        res = await run(host, call)
        assert res["details"]["failureKind"] == kind, res
        assert "a, b" in res["text"] or "'a'" in res["text"], res
        assert all(link.ssh is None for link in host.supervisor.nodes.links.values())  # type: ignore[union-attr]



async def test_a_node_sessions_figures_are_its_nodes_in_poll_and_list(host: ToolHost) -> None:
    sid = await start_background(host.call, "python3 -c 'while True: pass'", host="node", node="a", agent="alice")
    res = await until(lambda: run(host, {"tool": "process", "action": "poll", "sessionId": sid}),
                      lambda r: (r["details"].get("resources") or {}).get("cpuPercent", 0) >= 30,
                      "the node's figures in a poll", 60)
    assert res["details"]["resources"]["processes"] >= 1
    listing = await until(lambda: run(host, {"tool": "process", "action": "list"}),
                          lambda r: bool((listed(r).get(sid) or {}).get("resources")), "the figures in a list")
    assert listed(listing)[sid]["resources"]["rssBytes"] > 0
