"""Orphan torture, in process: every escape route at once, under every containment, through every ending.

Containments: ``cgroup`` (the default on this machine, as root), ``subreaper`` (forced by setting) and
``sandbox``. Endings: kill, remove, timeout, the command's normal exit, and closing the host. After each,
not one process carrying the run's marker may be alive, and the session's ``cleanup`` must say
``confirmed`` (with nothing in ``leftoverPids``) only because that is true. ``serve`` SIGTERM and SIGKILL
are in ``tests/remote/test_serve_orphans.py``.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.procs import cgroups

from ...support.orphans import ROUTES, containments, escape_command, needs_cgroups, new_mark, survivors
from ...support.sessions import start_background
from ...support.waiting import wait_for

GRACE_S = 0.5
CONTAINMENTS = containments()


def torture_host(containment: str) -> ToolHost:
    where = "sandbox" if containment == "sandbox" else "gateway"
    exec_settings = replace(ExecSettings(), placement=where, kill_grace_s=GRACE_S)
    return ToolHost(settings=Settings(exec=exec_settings, containment="subreaper" if containment == "subreaper" else "auto"))


async def start_escapes(host: ToolHost, workdir, mark: str, then: str = "sleep 300", **kw) -> str:
    sid = await start_background(host.call, escape_command(mark, then), workdir=str(workdir), agent="main",
                                 **kw)
    await wait_for(lambda: all((workdir / route).exists() for route in ROUTES), what="every escape route in place")
    return sid


def assert_contained(details: dict, containment: str, mark: str) -> None:
    assert details["containment"] == containment
    assert survivors(mark) == []
    assert details["cleanup"] == "confirmed" and details["leftoverPids"] == []


@pytest.mark.parametrize("containment", CONTAINMENTS)
@pytest.mark.parametrize("ending", ["kill", "remove"])
async def test_kill_and_remove_leave_no_escapee(containment: str, ending: str, tmp_path) -> None:
    mark = new_mark()
    async with torture_host(containment) as host:
        sid = await start_escapes(host, tmp_path, mark)
        assert len(survivors(mark)) >= len(ROUTES)
        session = host.session(sid)
        r = await host.call({"tool": "process", "action": ending, "sessionId": sid}, agent="main")
        assert r["details"]["status"] == "completed", r
        assert_contained(session.details(), containment, mark)


@pytest.mark.parametrize("containment", CONTAINMENTS)
async def test_a_timeout_leaves_no_escapee(containment: str, tmp_path) -> None:
    mark = new_mark()
    async with torture_host(containment) as host:
        sid = await start_escapes(host, tmp_path, mark, timeout=6)  # the routes take seconds on a loaded machine
        session = host.session(sid)
        await asyncio.wait_for(session.done.wait(), 30)
        assert session.exit.timed_out
        assert_contained(session.details(), containment, mark)


@pytest.mark.parametrize("containment", CONTAINMENTS)
@pytest.mark.parametrize("pty", [False, True], ids=["pipe", "pty"])
async def test_a_normal_exit_leaves_no_escapee(containment: str, pty: bool, tmp_path) -> None:
    mark = new_mark()
    async with torture_host(containment) as host:
        sid = await start_escapes(host, tmp_path, mark, then="exit 0", pty=pty)
        session = host.session(sid)
        await asyncio.wait_for(session.done.wait(), 30)
        assert session.exit.code == 0 and session.exit.killed_by is None
        assert_contained(session.details(), containment, mark)


@pytest.mark.parametrize("containment", CONTAINMENTS)
async def test_closing_the_host_leaves_no_escapee_and_no_cgroup(containment: str, tmp_path) -> None:
    marks, sessions = [new_mark(), new_mark()], []
    host = torture_host(containment)
    async with host:
        for mark, pty in zip(marks, (False, True)):  # a daemon started from a PTY session, too
            workdir = tmp_path / mark
            workdir.mkdir()
            sessions.append(host.session(await start_escapes(host, workdir, mark, pty=pty)))
        base = host.supervisor.containment.base
        assert (base is not None) == (containment == "cgroup")
    for mark, session in zip(marks, sessions):
        assert_contained(session.details(), containment, mark)
    if base is not None:
        assert not os.path.exists(base) and host.supervisor.containment.base is None
    assert not host.supervisor.containment.record.path.exists()


@needs_cgroups
async def test_the_cgroup_of_a_session_is_removed_when_it_ends(tmp_path) -> None:
    async with torture_host("cgroup") as host:
        r = await host.call({"tool": "exec", "command": "sleep 300", "background": True}, agent="main")
        session = host.session(r["details"]["sessionId"])
        path = os.path.join(host.supervisor.containment.base, session.id)
        # the leader, and with dash (no SHELL) the command it runs as a child rather than exec'ing it
        await wait_for(lambda: session.pid in cgroups.procs(path), what="the leader in its cgroup")
        assert host.supervisor.containment.session_of(session.pid) == session.id
        await host.call({"tool": "process", "action": "kill", "sessionId": session.id}, agent="main")
        assert not os.path.exists(path)
        assert session.id not in host.supervisor.containment.record.data["sessions"]
