"""Per-session figures (``details.resources``) of real processes with a known cost: a busy loop, a 200 MB
allocation, a tree three deep and a listener on a free loopback port, under every containment; read only
while someone looks, and re-runs that keep a session's environment."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.session import EventKind

from ...support.hosts import hosting
from ...support.orphans import containments
from ...support.sessions import start_background
from ...support.waiting import wait_for

MB = 1 << 20
BUSY = "python3 -c 'while True: pass'"
ALLOC = "python3 -c 'import time; b = bytearray(200 * 1024 * 1024); b[::4096] = b\"x\" * len(b[::4096]); time.sleep(300)'"
TREE = "sh -c 'sh -c \"sleep 300; :\"; :'"  # a shell, its shell, its sleep: three deep below the session's
LISTEN = ("python3 -c 'import socket, time; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(); "
          "print(\"port\", s.getsockname()[1], flush=True); time.sleep(300)'")


def host_for(containment: str) -> ToolHost:
    placement = "sandbox" if containment == "sandbox" else "gateway"
    mode = "subreaper" if containment == "subreaper" else "auto"
    return ToolHost(settings=Settings(exec=replace(ExecSettings(), placement=placement, kill_grace_s=0.5),
                                      containment=mode))


async def figures(host: ToolHost, sid: str, ok, what: str) -> dict:
    """Poll as the operator (each poll reads figures at most 2 s old) until ``ok(resources)``."""
    seen: list[dict] = []

    async def check() -> bool:
        r = await host.call({"tool": "process", "action": "poll", "sessionId": sid})
        seen[:] = [r["details"]["resources"] or {}]
        return bool(seen[0]) and ok(seen[0])

    deadline = time.monotonic() + 40
    while not await check():
        assert time.monotonic() < deadline, f"{what}: last figures {seen}"
        await asyncio.sleep(0.5)
    return seen[0]


def depth_of(tree: list[dict], pid: int) -> int:
    parents = {row["pid"]: row["ppid"] for row in tree}
    depth = 0
    while pid in parents:
        pid, depth = parents[pid], depth + 1
    return depth


@pytest.mark.parametrize("containment", containments())
async def test_the_figures_sum_every_process_of_the_session(containment: str) -> None:
    async with hosting(host_for(containment)) as host:
        command = f"{BUSY} & {ALLOC} & {TREE} & {LISTEN}"
        sid = await start_background(host.call, command, agent="a")
        out = await wait_for(lambda: "port " in host.session(sid).output.full_text(), 30, "the listener's port")
        assert out
        port = int(host.session(sid).output.full_text().split("port ")[1].split()[0])
        r = await figures(host, sid, lambda f: f["cpuPercent"] >= 20 and f["rssBytes"] >= 200 * MB
                          and any(p["port"] == port for p in f["listening"]), "a busy loop, 200 MB and the port")
        assert r["processes"] >= 6, r  # the shell, the loop, the allocation, two shells and a sleep, the listener
        listener = next(p for p in r["listening"] if p["port"] == port)
        assert listener["proto"] == "tcp" and listener["command"] == "python3"
        rows = {row["pid"]: row for row in r["tree"]}
        assert "socket" in rows[listener["pid"]]["command"]
        sleeper = next(row for row in r["tree"] if row["command"].startswith("sleep 300"))
        assert depth_of(r["tree"], sleeper["pid"]) >= 3, r["tree"]  # the session's shell, sh, sh, then sleep
        busy = max(r["tree"], key=lambda row: row["cpuPercent"])
        assert "while True" in busy["command"] and busy["cpuPercent"] >= 10
        assert r["source"] == ("cgroup-cpu" if containment == "cgroup" else "processes") or r["source"] == "cgroup"
        listed = await host.call({"tool": "process", "action": "list"}, agent="a")
        assert listed["details"]["sessions"][0]["resources"]["processes"] >= 6  # the agent reads them too
        logged = await host.call({"tool": "process", "action": "log", "sessionId": sid}, agent="a")
        assert logged["details"]["resources"]["rssBytes"] >= 200 * MB
        await host.call({"tool": "process", "action": "kill", "sessionId": sid})
        done = await host.call({"tool": "process", "action": "poll", "sessionId": sid})
        assert done["details"]["resources"] is None  # nothing is held once it ended


async def test_nobody_looking_costs_nothing_and_a_watcher_gets_a_refresh_at_most_every_two_seconds() -> None:
    async with hosting(host_for("subreaper")) as host:
        # ``exec``: one process whatever the shell does (a shell that sourced a BASH_ENV with a trap forks
        # its last command instead of becoming it, and the session then holds two)
        sid = await start_background(host.call, "exec sleep 300")
        heard: list[tuple[float, dict]] = []
        unsubscribe = host.subscribe(lambda e: heard.append((time.monotonic(), e.payload.figures))
                                     if e.kind == EventKind.RESOURCES else None)
        watch = host.supervisor.figures
        assert not watch.refreshing and heard == [] and host.session(sid).resources is None
        unwatch = host.watch_figures()
        await wait_for(lambda: len(heard) >= 3, 20, "three refreshes")
        unwatch()
        gaps = [b[0] - a[0] for a, b in zip(heard, heard[1:])]
        assert all(gap >= 1.9 for gap in gaps), gaps
        assert heard[0][1][sid]["processes"] == 1
        await wait_for(lambda: not watch.refreshing, 10, "the refresh to end once nobody watches")
        count = len(heard)
        await host.call({"tool": "process", "action": "list"})  # a call's read: the figures, no event
        read = host.session(sid).resources
        assert len(heard) == count and read["processes"] == 1, read
        unsubscribe()


async def test_a_rerun_starts_anew_with_the_old_environment_and_names_the_old_session() -> None:
    async with hosting(host_for("subreaper")) as host:
        env = {"API_TOKEN": "s3cret-value", "GREETING": "hi"}
        r = await host.call({"tool": "exec", "command": "echo $GREETING $API_TOKEN", "env": env}, agent="a")
        assert r["details"]["status"] == "completed"  # a foreground run is not listed: re-run a listed one
        sid = await start_background(host.call, "echo $GREETING $API_TOKEN; sleep 300", env=env, agent="a")
        shown = (await host.call({"tool": "process", "action": "log", "sessionId": sid}))["details"]["env"]
        assert shown == {"API_TOKEN": "***", "GREETING": "hi"}  # the secret never leaves the host
        refused = await host.call({"tool": "exec", "command": "true", "rerunOf": sid}, agent="a")
        assert refused["details"]["status"] == "failed" and "operator" in refused["text"]
        again = await host.call({"tool": "exec", "command": "echo $GREETING $API_TOKEN; sleep 300",
                                 "background": True, "env": {**shown, "GREETING": "hello"}, "rerunOf": sid})
        new = again["details"]["sessionId"]
        await wait_for(lambda: "hello s3cret-value" in host.session(new).output.full_text(), 20, "the re-run's output")
        assert host.session(new).details()["rerunOf"] == sid and host.session(new).agent is None
        assert host.session(sid).running  # the old one stays, for comparison
        missing = await host.call({"tool": "exec", "command": "true", "rerunOf": "no-such-id"})
        assert missing["details"]["status"] == "failed" and "no-such-id" in missing["text"]
