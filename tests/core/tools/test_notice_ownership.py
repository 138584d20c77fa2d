"""An agent's exit notice is the agent's: nothing the operator does uses it up (issue 21, point 6)."""

from __future__ import annotations

import asyncio

import pytest

from ...support.hosts import make_host
from ...support.sessions import start_background


def P(action: str, sid: str | None = None, **kw):
    return {"tool": "process", "action": action, **({"sessionId": sid} if sid else {}), **kw}


async def _ended(host, command: str = "echo built; exit 3") -> str:
    sid = await start_background(host.call, command, agent="main")
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    return sid


def _notified(result) -> list[str]:
    return [n["sessionId"] for n in result["details"].get("notifications", [])]


@pytest.mark.parametrize("look", ["poll", "log", "screen"])
async def test_the_operators_look_leaves_the_agents_exit_notice(look) -> None:
    async with make_host() as host:
        sid = await _ended(host, "echo built; exit 3") if look != "screen" else None
        if look == "screen":  # screen needs a PTY session
            sid = await start_background(host.call, "echo built; exit 3", pty=True, agent="main")
            await asyncio.wait_for(host.session(sid).done.wait(), 20)
        seen = await host.call(P(look, sid), agent=None)
        assert seen["details"]["status"] != "failed" or look == "screen", seen
        assert "notifications" not in seen["details"]  # the operator has no queue
        mine = await host.call(P("list"), agent="main")
        assert _notified(mine) == [sid] and mine["text"].startswith(f"[exit] {sid}")


@pytest.mark.parametrize("drop", ["clear", "remove"])
async def test_an_operator_who_clears_an_ended_session_leaves_its_notice_queued(drop) -> None:
    async with make_host() as host:
        sid = await _ended(host)
        r = await host.call(P(drop, sid), agent=None)
        assert r["details"]["status"] == "completed", r
        assert host.session(sid) is None
        mine = await host.call(P("list"), agent="main")
        assert _notified(mine) == [sid]
        assert _notified(await host.call(P("list"), agent="main")) == []  # once


async def test_the_notice_outlives_the_ttl_of_its_session() -> None:
    async with make_host(ttl_ms=200) as host:
        sid = await _ended(host)
        deadline = asyncio.get_running_loop().time() + 20
        while host.session(sid) is not None:  # expired and dropped by the registry
            assert asyncio.get_running_loop().time() < deadline, "the session never expired"
            await asyncio.sleep(0.05)
        assert _notified(await host.call(P("list"), agent="main")) == [sid]


@pytest.mark.parametrize("own", ["poll", "log"])
async def test_the_agents_own_read_of_the_end_spends_the_notice(own) -> None:
    async with make_host() as host:
        sid = await _ended(host)
        await host.call(P("poll", sid), agent=None)  # the operator looked first: changes nothing
        r = await host.call(P(own, sid), agent="main")
        assert "exit code 3" in r["text"]
        # that first call may carry the notice itself; after it, nothing is owed
        assert _notified(await host.call(P("list"), agent="main")) == []


async def test_another_agents_calls_never_reach_the_notice() -> None:
    async with make_host() as host:
        sid = await _ended(host)
        r = await host.call(P("poll", sid), agent="intruder")
        assert r["details"]["failureKind"] == "unknown-session"
        assert _notified(await host.call(P("list"), agent="intruder")) == []
        assert _notified(await host.call(P("list"), agent="main")) == [sid]
