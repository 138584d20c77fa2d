"""Ingest benchmarks P1, P4 and P5 of PERF.md, measured side by side in one run.

P1  drain ratio: ``cat`` of a 100 MB generated file through a PTY session drained by the host, against a
    plain blocking ``os.read`` loop on a PTY in the same run (best of a few alternating rounds), with output
    times recorded (the headline figure). The session runs on the host, as the baseline's ``cat`` does;
    beside it, in the same rounds: the same run watched (a live view fed at 30 frames a second, as the
    dashboard does), sandboxed (the default where bubblewrap works; bwrap's start-up of a few tens of ms
    included), on a host that journals its sessions (as every host serving a socket does), and without
    output times.
P4  flood memory: host RSS growth while one session prints 1 GB (the host journals it).
P5  idle session memory: host RSS growth per idle background pipe session, over 1000 sessions (journaled).

Run: ``python bench/ingest.py [--mb 100] [--flood-gb 1] [--sessions 1000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time

import psutil

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openclaw_tui import ToolHost
from openclaw_tui.core.session import capture
from openclaw_tui.terminal import LiveView

QUIET = {"tool": "exec", "background": True}


def make_file(path: str, mb: int) -> None:
    line = b"2026-11-29 12:00:00 INFO compiling module src/openclaw/thing_%06d.c ... ok\n"
    block = b"".join(line.replace(b"%06d", str(i).zfill(6).encode()) for i in range(1000))
    with open(path, "wb") as fh:
        for _ in range(mb * 1024 * 1024 // len(block) + 1):
            fh.write(block)


def blocking_baseline(path: str) -> float:
    """Seconds for a blocking read loop to drain ``cat path`` through a PTY."""
    master, slave = os.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen(["cat", path], stdout=slave, stderr=slave, stdin=slave, start_new_session=True)
    os.close(slave)
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    proc.wait()
    os.close(master)
    return time.perf_counter() - start


async def journaled(host: ToolHost, state: str) -> ToolHost:
    """``host``, keeping its sessions in a journal under ``state`` as a served host does (started)."""
    host.start()
    host.persist(os.path.join(state, "bench.sock"))
    assert host.restored is not None
    await host.restored
    assert host.journal_status["saving"], host.journal_status
    return host


def journaled_host(state: str, config: str | None = None) -> ToolHost:
    return ToolHost(env={"XDG_STATE_HOME": state}, config_path=config)


async def host_drain(host: ToolHost, path: str, watched: bool = False, timed: bool = True) -> float:
    capture.OutputCapture.timed = timed
    try:
        return await _drain(host, path, watched)
    finally:
        capture.OutputCapture.timed = True


async def _drain(host: ToolHost, path: str, watched: bool) -> float:
    start = time.perf_counter()
    r = await host.call({**QUIET, "command": f"cat {path}", "pty": True, "workdir": os.path.dirname(path)})
    session = host.session(r["details"]["sessionId"])
    if watched:  # as the dashboard watches it: a live view advanced each frame, on its budget
        view = LiveView(session)
        while not session.done.is_set():
            view.advance()
            try:
                await asyncio.wait_for(session.done.wait(), 1 / 30)
            except TimeoutError:
                pass
        view.close()
    await session.done.wait()
    assert session.exit.code == 0, session.output.full_text()[-500:]
    elapsed = time.perf_counter() - start
    await host.call({"tool": "process", "action": "clear", "sessionId": session.id})
    return elapsed


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / (1 << 20)


P1_RUNS = ("timed", "watched", "sandboxed", "journaled", "untimed")


async def p1(mb: int, rounds: int) -> dict[str, float]:
    """Drain ratios by run (:data:`P1_RUNS`), each the best of ``rounds`` against the best baseline."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flood.log")
        make_file(path, mb)
        os.sync()  # let writeback of the new file finish before timing anything
        with open(path, "rb") as fh:  # and have it in the page cache for both sides
            while fh.read(1 << 20):
                pass
        config = os.path.join(tmp, "host.toml")
        with open(config, "w") as fh:
            fh.write('[tools.exec]\nhost = "gateway"\n')
        async with ToolHost(env={}, config_path=config) as on_host, ToolHost(env={}) as default, \
                journaled_host(tmp, config) as journaling:
            await journaled(journaling, tmp)
            base: list[float] = []
            runs: dict[str, list[float]] = {name: [] for name in P1_RUNS}
            for _ in range(rounds):
                base.append(blocking_baseline(path))
                runs["timed"].append(await host_drain(on_host, path))
                runs["watched"].append(await host_drain(on_host, path, watched=True))
                runs["sandboxed"].append(await host_drain(default, path))
                runs["journaled"].append(await host_drain(journaling, path))
                runs["untimed"].append(await host_drain(on_host, path, timed=False))
    return {name: min(base) / min(times) for name, times in runs.items()}


async def p4(gb: float) -> float:
    with tempfile.TemporaryDirectory() as state:
        return await _p4(gb, state)


async def _p4(gb: float, state: str) -> float:
    async with journaled_host(state) as host:
        await journaled(host, state)
        before = rss_mb()
        peak = before
        nbytes = int(gb * (1 << 30))
        r = await host.call({**QUIET, "command": f"yes 'a line of build output, repeated to flood the host' | head -c {nbytes}"})
        session = host.session(r["details"]["sessionId"])
        while not session.done.is_set():
            peak = max(peak, rss_mb())
            try:
                await asyncio.wait_for(session.done.wait(), 0.05)
            except TimeoutError:
                pass
        peak = max(peak, rss_mb())
    return peak - before


async def p5(count: int) -> float:
    with tempfile.TemporaryDirectory() as state:
        return await _p5(count, state)


async def _p5(count: int, state: str) -> float:
    async with journaled_host(state) as host:
        await journaled(host, state)
        await host.call({"tool": "exec", "command": "true"})  # warm up imports and the first spawn
        before = rss_mb()
        for _ in range(count):
            r = await host.call({**QUIET, "command": "sleep 600"})
            assert r["details"]["status"] == "running", r
        growth = rss_mb() - before
    return growth / count


def in_fresh_process(name: str, args: argparse.Namespace) -> None:
    """Run one memory measurement in a new interpreter, so no earlier run's heap hides its growth."""
    cmd = [sys.executable, __file__, "--only", name, "--flood-gb", str(args.flood_gb), "--sessions", str(args.sessions)]
    subprocess.run(cmd, check=True)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["p1", "p4", "p5"])
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--flood-gb", type=float, default=1.0)
    ap.add_argument("--sessions", type=int, default=1000)
    args = ap.parse_args()
    if args.only in (None, "p1"):
        ratios = await p1(args.mb, args.rounds)
        print(f"P1 drain ratio: {ratios['timed']:.2f} (target >= 0.90, output times recorded)", flush=True)
        print(f"   the same run watched (a live view at 30 frames a second): {ratios['watched']:.2f}", flush=True)
        print(f"   the same run sandboxed (the default where bwrap works): {ratios['sandboxed']:.2f}", flush=True)
        print(f"   the same run on a host journaling its sessions: {ratios['journaled']:.2f}", flush=True)
        print(f"   the same run without output times: {ratios['untimed']:.2f}", flush=True)
    if args.only is None:
        in_fresh_process("p4", args)
        in_fresh_process("p5", args)
    if args.only == "p4":
        flood = await p4(args.flood_gb)
        print(f"P4 flood memory MB: {flood:.0f} (target <= 50)", flush=True)
    if args.only == "p5":
        idle = await p5(args.sessions)
        print(f"P5 idle session MB: {idle:.2f} (target <= 0.20)", flush=True)
        print(f"   ({idle * 1024:.1f} KB of host memory per idle session, over {args.sessions} sessions)")


if __name__ == "__main__":
    asyncio.run(main())
