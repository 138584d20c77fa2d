"""Sessions outlive their host: a new host on the same socket brings back what the last one journaled.

Each test runs real hosts one after the other on one state directory, as a restart does (``persist``
is what the server calls when it binds its socket; here the socket's path is only the journal's name).
Crashes are in ``tests/remote/test_restart.py``, with real ``serve`` processes; the journal's own faults
are in ``test_journal_faults.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.journal.restore import journal_name
from openclaw_tui.core.session import Event
from openclaw_tui.ui.sessions.rows import end_label

from ...support.hosts import hosting
from ...support.sessions import start_background
from ...support.waiting import wait_for


def settings(state: Path, persist: bool = True, **exec_changes: Any) -> Settings:
    return Settings(exec=replace(ExecSettings(), **exec_changes), state_dir=str(state), persist=persist)


@contextlib.asynccontextmanager
async def host_on(state: Path, sock: Path, persist: bool = True, **exec_changes: Any) -> AsyncIterator[ToolHost]:
    """A host that keeps its sessions as the host of ``sock``, started once it has restored them."""
    async with hosting(ToolHost(settings=settings(state, persist, **exec_changes))) as host:
        host.persist(sock)
        assert host.restored is not None
        await host.restored
        yield host


def sessions_dir(state: Path, sock: Path) -> Path:
    return state / "journal" / journal_name(sock) / "sessions"


async def flushed(host: ToolHost) -> None:
    assert await asyncio.to_thread(host.supervisor.journal.flush)


async def flushed_or_off(host: ToolHost) -> None:
    """Whatever the journal would write is written (nothing, when it is off)."""
    await asyncio.to_thread(host.supervisor.journal.flush)


async def call(host: ToolHost, agent: str | None = "main", **params: Any) -> dict[str, Any]:
    return await host.call({"tool": "process", **params}, agent=agent)


async def ended(host: ToolHost, sid: str) -> None:
    session = host.session(sid)
    assert session is not None
    await asyncio.wait_for(session.done.wait(), 20)


def seen(host: ToolHost, sid: str) -> dict[str, Any]:
    """Everything a restart must keep of a session, as the host shows it."""
    s = host.session(sid)
    assert s is not None
    details = s.details()
    for moving in ("idleMs", "lastOutputAt", "pid"):
        details.pop(moving)
    sizes = {m.offset: (m.cols, m.rows) for m in s.raw.marks_from(s.raw.marks_base)}  # the last at an offset holds
    return {"details": details, "text": s.output.full_text(), "inputs": s.inputs.to_json(),
            "raw": s.raw.read(s.raw.start), "sizes": sizes, "order": s.order}


async def test_finished_sessions_come_back_whole_in_the_next_host(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        failed = await start_background(first.call, "echo out; echo err >&2; exit 3", agent="main")
        asked = await start_background(first.call, "read x; echo got $x", pty=True, agent="main")
        await call(first, action="write", sessionId=asked, data="hello\n")
        screen = await start_background(first.call, "printf '\\033[31mred\\033[0m\\n'; read x; echo bye",
                                        pty=True, agent="main")
        first.session(screen).resize(100, 40)
        await wait_for(lambda: "red" in first.session(screen).output.full_text(), what="the PTY's output")
        await call(first, action="submit", sessionId=screen)
        for sid in (failed, asked, screen):
            await ended(first, sid)
        before = {sid: seen(first, sid) for sid in (failed, asked, screen)}
    async with host_on(tmp_path, sock) as second:
        listed = await call(second, action="list")
        assert [d["sessionId"] for d in listed["details"]["sessions"]] == [screen, asked, failed]
        assert {sid: seen(second, sid) for sid in before} == before
        assert listed["details"]["journal"] == {"saving": True, "problem": None}
        log = await call(second, action="log", sessionId=asked)
        assert "got hello" in log["text"] and log["details"]["inputs"][0]["preview"] == "hello\n"
        assert log["details"]["exitCode"] == 0 and log["details"]["status"] == "completed"
        assert (await call(second, action="poll", sessionId=failed))["details"]["exitCode"] == 3


async def test_output_no_poll_returned_is_pending_again_and_polled_output_is_not(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        sid = await start_background(first.call, "echo one; read x; echo two", pty=True, agent="main")
        await wait_for(lambda: "one" in first.session(sid).output.full_text(), what="the first line")
        assert "one" in (await call(first, action="poll", sessionId=sid))["text"]
        await call(first, action="submit", sessionId=sid)
        await ended(first, sid)
    async with host_on(tmp_path, sock) as second:
        polled = await call(second, action="poll", sessionId=sid)
        assert "two" in polled["text"] and "one" not in polled["text"]  # (a poll that ends it takes no notice)


async def test_an_exit_notice_never_delivered_reaches_the_agent_after_a_restart_once(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        sid = await start_background(first.call, "echo finished", agent="agent-a")
        await ended(first, sid)  # its notice is queued; agent-a makes no call before the host stops
    async with host_on(tmp_path, sock) as second:
        r = await call(second, agent="agent-a", action="list")
        assert [n["sessionId"] for n in r["details"]["notifications"]] == [sid]
        assert "notifications" not in (await call(second, agent="agent-a", action="list"))["details"]
    async with host_on(tmp_path, sock) as third:
        assert "notifications" not in (await call(third, agent="agent-a", action="list"))["details"], "told once"


async def test_ttl_counts_from_when_a_session_ended_not_from_the_restart(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock, ttl_ms=3_000) as first:
        short = await start_background(first.call, "true", agent="main")
        await ended(first, short)
    async with host_on(tmp_path, sock, ttl_ms=600_000) as second:
        long = await start_background(second.call, "true", agent="main")
        await ended(second, long)
        await wait_for(lambda: not second.session(short), 20, "the short TTL to run out")  # it kept its own TTL
    async with host_on(tmp_path, sock) as third:
        assert third.session(short) is None and not (sessions_dir(tmp_path, sock) / f"{short}.jnl").exists()
        left_s = third.supervisor.registry.expiries()[long] - asyncio.get_running_loop().time()
        assert left_s < 600 - 2, "the seconds since it ended (3 and more) are not given back"


async def test_an_expired_session_is_forgotten_at_load(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock, ttl_ms=500) as first:
        sid = await start_background(first.call, "true", agent="main")
        await ended(first, sid)
        first.supervisor.registry._expiry.pop(sid).cancel()  # this host keeps it; the next must not
    await asyncio.sleep(0.6)
    async with host_on(tmp_path, sock) as second:
        assert second.session(sid) is None
        assert (await second.restored).expired == 1
        await flushed(second)
        assert not (sessions_dir(tmp_path, sock) / f"{sid}.jnl").exists()


async def test_clear_remove_and_eviction_forget_the_record(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as host:
        host.supervisor.registry.max_finished = 3
        ids = []
        for n in range(5):
            ids.append(await start_background(host.call, f"echo {n}", agent="main"))
            await ended(host, ids[-1])
        evicted, (cleared, *kept) = ids[:2], ids[2:]
        assert [host.session(sid) for sid in evicted] == [None, None]
        await call(host, action="clear", sessionId=cleared)
        running = await start_background(host.call, "sleep 30", agent="main")
        await flushed(host)
        assert (sessions_dir(tmp_path, sock) / f"{running}.jnl").exists()
        await call(host, action="remove", sessionId=running)
        await flushed(host)
        assert sorted(p.stem for p in sessions_dir(tmp_path, sock).iterdir()) == sorted(kept)
    async with host_on(tmp_path, sock) as again:
        assert {s.id for s in again.sessions()} == set(kept)


async def test_ids_are_never_issued_again_after_a_restart(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        await first.call({"tool": "exec", "command": "true"}, agent="main")  # a foreground run's id too
        for _ in range(3):
            await start_background(first.call, "true", agent="main")
        issued = set(first.supervisor.registry.issued)
    assert len(issued) == 4
    async with host_on(tmp_path, sock) as second:
        assert issued <= set(second.supervisor.registry.issued)
        fresh = {await start_background(second.call, "true", agent="main") for _ in range(20)}
        assert not fresh & issued


async def test_with_persist_false_nothing_is_written(tmp_path) -> None:
    sock, state = tmp_path / "host.sock", tmp_path / "state"
    async with host_on(state, sock, persist=False, placement="gateway") as host:
        sid = await start_background(host.call, "echo kept in memory", agent="main")
        await ended(host, sid)
        listed = await call(host, action="list")
        assert listed["details"]["journal"] == {"saving": False, "problem": None}
        assert "note:" not in listed["text"]
        await flushed_or_off(host)
        assert {p.parent.name for p in state.rglob("*") if not p.is_dir()} <= {"live"}  # pids only, for the sweep
    assert [p for p in state.rglob("*") if not p.is_dir()] == [] and not (state / "journal").exists()
    async with host_on(state, sock, persist=False) as again:
        assert again.sessions() == []


async def test_a_second_host_on_a_journal_in_use_goes_on_in_memory_and_says_so(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first, host_on(tmp_path, sock) as second:
        events: list[Event] = []
        unsubscribe = second.subscribe(events.append)
        problem = second.journal_status["problem"]
        assert problem == (f"journal off: state directory {tmp_path}/journal/{journal_name(sock)} is in use by "
                           f"another host (pid {os.getpid()})")
        assert events[0].payload.to_json()["journal"] == {"saving": False, "problem": problem}
        sid = await start_background(second.call, "echo still runs", agent="main")
        await ended(second, sid)
        listed = await call(second, action="list")
        assert listed["text"].endswith(f"\nnote: sessions are not being saved to disk: {problem}")
        assert listed["details"]["journal"] == {"saving": False, "problem": problem}
        assert first.journal_status == {"saving": True, "problem": None}
        unsubscribe()


async def test_a_state_directory_that_cannot_be_used_leaves_the_host_in_memory(tmp_path) -> None:
    (tmp_path / "state").write_text("a file where the directory should be")
    async with host_on(tmp_path / "state", tmp_path / "host.sock") as host:
        sid = await start_background(host.call, "echo fine", agent="main")
        await ended(host, sid)
        listed = await call(host, action="list")
        assert "note: sessions are not being saved to disk: journal off: cannot use state directory" in listed["text"]
        assert "Not a directory" in listed["text"] and listed["details"]["sessions"][0]["sessionId"] == sid


async def test_a_journal_record_torn_by_the_test_loses_only_that_record(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        sid = await start_background(first.call, "echo first line; sleep 0.5; echo second line", agent="main")
        await ended(first, sid)
    path = sessions_dir(tmp_path, sock) / f"{sid}.jnl"
    data = path.read_bytes()
    path.write_bytes(data[:-7])  # the exit record, cut short as a crash mid-write leaves it
    async with host_on(tmp_path, sock) as second:
        s = second.session(sid)
        assert s is not None and "first line" in s.output.full_text()
        assert s.details()["failureKind"] == "host-died", "no exit record: it reads as running when its host died"
        assert end_label(s) == "died", "the dashboard's exit column says so too (not 'exit None')"
        assert second.journal_status == {"saving": True, "problem": None}, "a torn last record is expected"


async def test_a_damaged_journal_is_reported_and_the_rest_comes_back(tmp_path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        kept = await start_background(first.call, "echo kept", agent="main")
        lost = await start_background(first.call, "echo lost", agent="main")
        await ended(first, kept)
        await ended(first, lost)
    (sessions_dir(tmp_path, sock) / f"{lost}.jnl").write_bytes(os.urandom(2000))
    async with host_on(tmp_path, sock) as second:
        assert second.session(kept) is not None and second.session(lost) is None
        status = second.journal_status
        assert status["saving"] and f"{lost}.jnl is not a readable journal; set aside" in status["problem"]
        listed = await call(second, action="list")
        assert "note:" not in listed["text"] and listed["details"]["journal"] == status
        assert lost in second.supervisor.registry.issued, "its id is still never reused"
