"""Kill, timeout, remove and shutdown leave nothing alive: SIGTERM, grace, SIGKILL, OS-confirmed."""

from __future__ import annotations

import asyncio
import time

import psutil
import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.procs.termination import members

from ...support.hosts import hosting, make_host
from ...support.sessions import poll_until, start_background

TWO_SLEEPS = "sh -c 'sleep 300 & sleep 300'"


def P(action: str, sid: str, **kw):
    return {"tool": "process", "action": action, "sessionId": sid, **kw}


async def _group_started(host: ToolHost, sid: str, count: int) -> int:
    s = host.session(sid)
    deadline = time.monotonic() + 20
    while len(members(s.pid)) < count:
        assert time.monotonic() < deadline, "children never started"
        await asyncio.sleep(0.02)
    return s.pid


async def test_kill_ends_every_process_of_the_group(host: ToolHost) -> None:
    sid = await start_background(host.call, TWO_SLEEPS, agent="main")
    pgid = await _group_started(host, sid, 3)
    r = await host.call(P("kill", sid), agent="main")
    assert r["details"]["cleanup"] == "confirmed"
    assert members(pgid) == []


async def test_remove_ends_every_process_of_the_group(host: ToolHost) -> None:
    sid = await start_background(host.call, TWO_SLEEPS, agent="main")
    pgid = await _group_started(host, sid, 3)
    await host.call(P("remove", sid), agent="main")
    assert members(pgid) == []


async def test_timeout_ends_every_process_of_the_group(host: ToolHost) -> None:
    sid = await start_background(host.call, TWO_SLEEPS, timeout=0.5, agent="main")
    pgid = await _group_started(host, sid, 3)
    s = host.session(sid)
    await asyncio.wait_for(s.done.wait(), 20)
    assert s.exit.timed_out and s.exit.cleanup == "confirmed"
    assert members(pgid) == []


async def test_closing_the_host_ends_every_session() -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        pgids = [await _group_started(host, await start_background(host.call, TWO_SLEEPS, agent="main"), 3)
                 for _ in range(2)]
        pty_sid = await start_background(host.call, TWO_SLEEPS, pty=True, agent="main")
        pgids.append(await _group_started(host, pty_sid, 3))
    for pgid in pgids:
        assert members(pgid) == []


async def test_a_child_that_ignores_sigterm_still_dies(host: ToolHost) -> None:
    sid = await start_background(host.call, "trap '' TERM; echo armed; while :; do sleep 0.1; done",
                                 agent="main")
    await poll_until(host, sid, "main", lambda o: "armed" in o)
    pgid = host.session(sid).pid
    start = time.monotonic()
    r = await host.call(P("kill", sid), agent="main")
    assert time.monotonic() - start >= 2.9  # the grace period was honoured before SIGKILL
    assert r["details"]["exitSignal"] == "SIGKILL" and r["details"]["cleanup"] == "confirmed"
    assert members(pgid) == []


async def test_descendants_left_behind_by_a_finished_command_are_ended(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 300 & echo spawned", agent="main")
    s = host.session(sid)
    await asyncio.wait_for(s.done.wait(), 20)
    assert s.status == "completed" and s.exit.cleanup == "confirmed"
    assert members(s.pid) == []
    assert s.exit.killed_by is None


async def test_descendant_that_moved_to_its_own_group_is_still_ended(host: ToolHost) -> None:
    sid = await start_background(host.call,
                                 "python3 -c 'import os,time; os.setpgid(0,0); print(\"moved\", flush=True); time.sleep(300)'; echo never",
                                 agent="main")
    await poll_until(host, sid, "main", lambda o: "moved" in o)
    s = host.session(sid)
    leader = psutil.Process(s.pid)
    assert leader.is_running()
    await host.call(P("kill", sid), agent="main")
    assert members(s.pid) == []


@pytest.mark.parametrize("pty", [False, True])
async def test_a_descendant_that_left_the_session_but_holds_its_output_is_ended(pty: bool) -> None:
    # on the host (the sandbox's PID namespace ends such a process by itself): setsid leaves the group
    # and session, so only the output it still holds leads to it
    async with make_host(placement="gateway") as host:
        r = await host.call({"tool": "exec", "command": "setsid sleep 377 & sleep 0.3; echo left", "pty": pty},
                            agent="main")
        assert r["details"]["host"] == "gateway" and "left" in r["text"]
        assert r["details"]["cleanup"] == "confirmed"
        assert not [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", "377"]]
