"""Exit notifications: queued per agent, prepended to the next result, published as events."""

from __future__ import annotations

import asyncio

from openclaw_tui.core.session import EventKind

from ...support.hosts import make_host
from ...support.sessions import start_background
from ...support.waiting import wait_for


def P(action: str, sid: str | None = None, **kw):
    return {"tool": "process", "action": action, **({"sessionId": sid} if sid else {}), **kw}


async def _finish(host, sid):
    await asyncio.wait_for(host.session(sid).done.wait(), 20)


async def _notices(host, agent="main") -> list:
    """The notices prepended to ``agent``'s next result (a cheap list call)."""
    return (await host.call(P("list"), agent=agent))["details"].get("notifications", [])


async def test_exit_notice_is_prepended_to_the_agents_next_result_once() -> None:
    async with make_host() as host:
        events = []
        host.subscribe(events.append)
        sid = await start_background(host.call, "echo   building...; echo '  all   done  '; exit 2",
                                     agent="main")
        await _finish(host, sid)
        notice = next(e for e in events if e.kind == EventKind.NOTIFICATION)
        assert notice.payload.to_json()["sessionId"] == sid and notice.payload.to_json()["exitCode"] == 2
        assert notice.payload.to_json()["snippet"] == "building... all done"
        other = await host.call(P("list"), agent="someone-else")
        assert "notifications" not in other["details"]
        r = await host.call(P("list"), agent="main")
        assert r["text"].startswith(f"[exit] {sid}") and r["details"]["notifications"][0]["status"] == "completed"
        assert await _notices(host) == []


async def test_snippet_is_at_most_180_chars() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "seq 1 1000", agent="main")
        await _finish(host, sid)
        snippet = (await _notices(host))[0]["snippet"]
        assert len(snippet) <= 180 and snippet.endswith("999 1000")


async def test_no_notice_for_killed_sessions() -> None:
    # the agent's own kill result says how it ended: a notice riding on that result would repeat it
    async with make_host() as host:
        events = []
        host.subscribe(events.append)
        sid = await start_background(host.call, "echo hi; sleep 60", agent="main")
        r = await host.call(P("kill", sid), agent="main")
        assert "notifications" not in r["details"] and "[exit]" not in r["text"]
        assert await _notices(host) == []
        other = await start_background(host.call, "echo hi; sleep 60", agent="main")
        r = await host.call(P("kill", other), agent=None)  # the operator's kill, of main's session
        assert "notifications" not in r["details"]
        assert await _notices(host) == []
        assert not [e for e in events if e.kind == EventKind.NOTIFICATION]


async def test_no_notice_when_a_poll_already_returned_the_exit() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "echo hi", agent="main")
        await _finish(host, sid)
        r = await host.call(P("poll", sid), agent="main")
        # the first call after exit may carry the notice; the poll itself reports the exit
        assert r["details"]["exitCode"] == 0
        assert await _notices(host) == []


async def test_timed_poll_that_returns_the_exit_cancels_the_notice() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "sleep 0.3; echo bye", agent="main")
        r = await host.call(P("poll", sid, timeout=20000), agent="main")
        while r["details"]["status"] == "running":
            r = await host.call(P("poll", sid, timeout=20000), agent="main")
        assert "notifications" not in r["details"]
        assert await _notices(host) == []


async def test_empty_success_is_silent_unless_configured() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "true", agent="main")
        await _finish(host, sid)
        assert await _notices(host) == []
    async with make_host(notify_on_exit_empty_success=True) as host:
        sid = await start_background(host.call, "true", agent="main")
        await _finish(host, sid)
        assert (await _notices(host))[0]["sessionId"] == sid


async def test_empty_failure_is_still_notified() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "exit 1", agent="main")
        await _finish(host, sid)
        assert (await _notices(host))[0]["exitCode"] == 1


async def test_notify_on_exit_can_be_switched_off() -> None:
    async with make_host(notify_on_exit=False) as host:
        sid = await start_background(host.call, "echo x; exit 1", agent="main")
        await _finish(host, sid)
        assert await _notices(host) == []


async def test_foreground_runs_are_not_notified() -> None:
    async with make_host() as host:
        await host.call({"tool": "exec", "command": "echo quick"}, agent="main")
        assert await _notices(host) == []


async def test_event_stream_starts_with_a_snapshot_and_follows_a_session() -> None:
    async with make_host() as host:
        old = await start_background(host.call, "sleep 30", agent="main")
        stream = host.watch()
        first = await anext(stream)
        assert first.kind == "snapshot" and [s["sessionId"] for s in first.payload.to_json()["sessions"]] == [old]
        sid = await start_background(host.call, "echo out; exit 3", agent="main")
        kinds = []
        async for event in stream:
            if event.session_id == sid:
                kinds.append(event.kind)
            if event.kind == EventKind.NOTIFICATION:
                break
        await stream.aclose()
        assert kinds[0] == "session-added" and "session-backgrounded" in kinds and "session-output" in kinds
        assert kinds[-2:] == ["session-exited", "exit-notification"]
        await host.call(P("clear", sid), agent="main")


async def test_the_operators_sessions_publish_a_notice_but_queue_none() -> None:
    # the operator sees exits as toasts; a queue nobody ever takes would only grow
    async with make_host() as host:
        events = []
        host.subscribe(events.append)
        sid = await start_background(host.call, "echo op", agent=None)
        await _finish(host, sid)
        assert any(e.kind == EventKind.NOTIFICATION and e.session_id == sid for e in events)
        assert host.supervisor.notices.take(None) == []


async def test_an_agents_queue_keeps_only_its_newest_notices(monkeypatch) -> None:
    monkeypatch.setattr("openclaw_tui.core.tools.exitnotices.QUEUE_MAX", 2)
    async with make_host() as host:
        events = []
        host.subscribe(events.append)
        # all started before any ends, since every call of the agent takes its queued notices
        sids = [await start_background(host.call, f"sleep 2; echo job {i}", agent="main") for i in range(3)]
        for sid in sids:
            await _finish(host, sid)
        ended = [e.session_id for e in events if e.kind == EventKind.NOTIFICATION]
        assert sorted(ended) == sorted(sids)
        assert [n["sessionId"] for n in await _notices(host)] == ended[1:]


async def test_an_exit_a_waiting_poll_returns_is_not_also_published_as_a_notice(tmp_path) -> None:
    # the MCP server sends published notices as log messages: with a timed poll waiting (the pattern agents
    # are told to use), the exit would arrive twice
    async with make_host() as host:
        events = []
        host.subscribe(events.append)
        go = tmp_path / "go"
        sid = await start_background(host.call, f"while [ ! -e {go} ]; do sleep 0.02; done; exit 3",
                                     workdir=str(tmp_path), agent="main")
        polling = asyncio.ensure_future(host.call(P("poll", sid, timeout=20000), agent="main"))
        await wait_for(lambda: host.supervisor.notices.awaited(sid), what="the poll waiting")
        go.touch()
        r = await polling
        assert r["details"]["exitCode"] == 3
        assert not [e for e in events if e.kind == EventKind.NOTIFICATION]
        assert await _notices(host) == []
