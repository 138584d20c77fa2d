"""Orphan torture through ``openclaw-tui serve``: SIGTERM, SIGKILL, and SIGKILL of host and watchdog plus a restart.

Each serve runs every escape route twice (a pipe session and a PTY session) under one containment. A
SIGTERM must end them all before serve exits. A SIGKILLed serve must leave nothing alive for more than
a few seconds (its watchdog acts), and the next serve reports what the watchdog ended. When the watchdog
dies too (both killed, as the OOM killer might), the escapees live on until the next serve starts,
sweeps the dead host's record, ends them and says so.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openclaw_tui.core.procs import proctable
from openclaw_tui.remote.wire.client import HostClient

from ..escapes import ROUTES, containments, escape_command, needs_cgroups, new_mark, survivors
from ..hosting import socket_folder
from ..waiting import wait_for

CONFIG = """
[tools.exec]
host = "{where}"
killGraceMs = 500

[host]
containment = "{mode}"
"""
LINE_S = 60.0
SECONDS_AFTER_DEATH = 10.0  # "a few seconds": the grace (0.5 s) and the watchdog's start, with room for load


class Serve:
    """One ``openclaw-tui serve`` with its own socket, config and state directory."""

    stderr: int = subprocess.DEVNULL  # where its stderr goes (a subclass that reads it: a pipe)

    def __init__(self, tmp_path: Path, containment: str, state: Path | None = None) -> None:
        where = "sandbox" if containment == "sandbox" else "gateway"
        config = tmp_path / "config.toml"
        config.write_text(CONFIG.format(where=where, mode="subreaper" if containment == "subreaper" else "auto"))
        self.sock = socket_folder() / "run" / "host.sock"
        self.state = state or tmp_path / "state"
        self.env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(self.sock), "OPENCLAW_TUI_CONFIG": str(config),
                    "XDG_STATE_HOME": str(self.state)}
        self.procs: list[subprocess.Popen[str]] = []

    async def start(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=self.env, text=True,
                                stdout=subprocess.PIPE, stderr=self.stderr)
        self.procs.append(proc)
        assert "serving" in await self.line(proc)
        return proc

    @staticmethod
    async def line(proc: subprocess.Popen[str], stream: str = "stdout") -> str:
        pipe = getattr(proc, stream)
        assert pipe is not None
        return await asyncio.wait_for(asyncio.to_thread(pipe.readline), LINE_S)

    async def escapes(self, workdir: Path) -> list[str]:
        """Every escape route in a pipe session and in a PTY session; returns their two marks."""
        marks = []
        async with await HostClient.connect(self.sock) as client:
            for pty in (False, True):
                mark, cwd = new_mark(), workdir / f"pty-{pty}"
                cwd.mkdir()
                r = await client.call({"tool": "exec", "command": escape_command(mark), "background": True,
                                       "workdir": str(cwd), "pty": pty}, agent="main")
                assert r["details"]["status"] == "running", r
                await wait_for(lambda: all((cwd / route).exists() for route in ROUTES), 30, "escapes in place")  # noqa: B023
                marks.append(mark)
        return marks

    def record(self) -> dict:
        (record,) = (self.state / "openclaw-tui" / "live").glob("*.json")
        return json.loads(record.read_text())

    async def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.to_thread(proc.wait, 30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        shutil.rmtree(self.sock.parent.parent, ignore_errors=True)


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
