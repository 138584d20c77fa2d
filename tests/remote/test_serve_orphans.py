"""Orphan torture through ``openclaw-tui serve``: SIGTERM, SIGKILL, and SIGKILL of host and watchdog plus a restart.

Each serve runs every escape route twice (a pipe session and a PTY session) under one containment. A
SIGTERM must end them all before serve exits. A SIGKILLed serve must leave nothing alive for more than
a few seconds (its watchdog acts), and the next serve reports what the watchdog ended. When the watchdog
dies too (both killed, as the OOM killer might), the escapees live on until the next serve starts,
sweeps the dead host's record, ends them and says so.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from openclaw_tui.core.procs import proctable

from ..support.orphans import ROUTES, containments, needs_cgroups, survivors
from ..support.serves import Serve
from ..support.waiting import wait_for

SECONDS_AFTER_DEATH = 10.0  # "a few seconds": the grace (0.5 s) and the watchdog's start, with room for load


async def _no_survivors(marks: list[str], seconds: float) -> float:
    started = time.monotonic()
    await wait_for(lambda: not any(survivors(m) for m in marks), seconds, "no survivor")
    return time.monotonic() - started


def _kill_left(marks: list[str]) -> None:
    for mark in marks:
        for entry in survivors(mark):
            try:
                os.kill(int(entry.split()[0]), signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def serve(tmp_path, request):
    return Serve(tmp_path, request.param)


ALL = containments()


@pytest.mark.parametrize("serve", ALL, indirect=True)
async def test_serve_sigterm_leaves_no_escapee(serve: Serve, tmp_path) -> None:
    try:
        proc = await serve.start()
        marks = await serve.escapes(tmp_path)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 60) == 0
        assert [survivors(m) for m in marks] == [[], []]
    finally:
        await serve.close()


@pytest.mark.parametrize("serve", ALL, indirect=True)
async def test_a_sigkilled_serve_leaves_nothing_for_more_than_seconds(serve: Serve, tmp_path) -> None:
    marks: list[str] = []
    try:
        proc = await serve.start()
        marks = await serve.escapes(tmp_path)
        proc.kill()
        proc.wait()
        took = await _no_survivors(marks, SECONDS_AFTER_DEATH)
        print(f"after SIGKILL of serve: no survivor after {took:.2f}s")
        again = await serve.start()
        if serve.state.joinpath("openclaw-tui", "live").exists():  # gateway hosts keep a record; the sandbox needs none
            report = await serve.line(again)
            assert f"a previous host (pid {proc.pid}) died" in report and "its watchdog ended" in report, report
    finally:
        _kill_left(marks)
        await serve.close()


@pytest.mark.parametrize("serve", [pytest.param("cgroup", marks=needs_cgroups), "subreaper"], indirect=True)
async def test_when_host_and_watchdog_die_the_next_serve_sweeps_and_reports(serve: Serve, tmp_path) -> None:
    marks: list[str] = []
    try:
        proc = await serve.start()
        marks = await serve.escapes(tmp_path)
        record = serve.record()
        os.kill(record["watchdog"]["pid"], signal.SIGKILL)
        proc.kill()
        proc.wait()
        leaders = [(s["pid"], s["start"]) for s in record["sessions"].values()]
        assert len(leaders) == 2
        # with no watchdog, only the parent-death signal can end the leaders this soon
        await wait_for(lambda: not any(proctable.same(*leader) for leader in leaders), 5, "the leaders to die")
        left = [s for m in marks for s in survivors(m)]
        assert len(left) >= len(ROUTES), left  # the escapees outlived both: only the sweep ends them
        again = await serve.start()
        report = await serve.line(again)
        assert f"a previous host (pid {proc.pid}) died" in report and "this host ended" in report, report
        assert await _no_survivors(marks, 5) < 5
        assert not list((serve.state / "openclaw-tui" / "live").glob(f"{proc.pid}.*"))
    finally:
        _kill_left(marks)
        await serve.close()
