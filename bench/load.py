"""Load benchmark P10 of PERF.md: 200 sessions and 20 agents on one host, figures printed in one run.

A real ``openclaw-tui serve`` on a private socket (the host as agents meet it). Twenty agents connect
over the socket, as MCP servers and ``call`` do, and each starts ten background sessions: pipe and PTY,
some chatty (printing numbered lines, a hundred a second each), the rest idle (``sleep``, or ``cat``
waiting on its terminal). Then for the given duration every agent polls its chatty sessions, pages
logs, writes to its ``cat`` and lists, timing each call. Printed: calls answered (every one must be),
latency p50/p99 (target p99 <= 100 ms), host RSS growth (target <= 50 MB), gaps in the numbered output
as the agents read it (target 0), and processes of the host's sessions alive after the host ended on
SIGTERM (target 0; found by a marker in their environment, so a process that left its group counts too).

Run: ``python bench/load.py [--seconds 60] [--agents 20] [--per-agent 10]``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from bench.host import end_serve, start_serve, wait_for_host
from openclaw_tui.remote.wire.client import HostClient

MARK = "OPENCLAW_LOAD_BENCH_MARK"
CALL_DEADLINE_S = 30.0
PAUSE_S = 0.05  # between one agent's calls
CHATTY = "i=0; while :; do seq $i $((i + 99)); i=$((i + 100)); sleep 1; done"
KINDS = [  # (command, pty, chatty) for each of an agent's sessions, in turn
    (CHATTY, False, True),
    (CHATTY, True, True),
    (CHATTY, False, True),
    ("sleep 3600", False, False),
    ("cat", True, False),
    ("sleep 3600", False, False),
    ("cat", True, False),
    ("sleep 3600", False, False),
    ("cat", True, False),
    ("sleep 3600", False, False),
]


@dataclass
class Numbers:
    """The numbered lines one chatty session printed, as its agent read them through ``poll``."""

    carry: str = ""
    last: int | None = None
    lines: int = 0
    gaps: int = 0

    def feed(self, result: dict[str, Any]) -> None:
        """Take a poll's new output: the first ``newOutputChars`` of its text (a status line follows)."""
        details = result["details"]
        if details.get("droppedChars"):  # output was lost before the agent could read it
            self.gaps += 1
            self.carry, self.last = "", None
            return
        text = self.carry + result["text"][: details.get("newOutputChars") or 0]
        *complete, self.carry = text.split("\n")
        for line in complete:
            line = line.strip()
            if not line.isdigit():
                continue
            number = int(line)
            if self.last is not None and number != self.last + 1:
                self.gaps += 1
            self.last = number
            self.lines += 1


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    unanswered: int = 0
    failed: int = 0
    agents_started: int = 0
    numbers: list[Numbers] = field(default_factory=list)


async def timed(stats: Stats, client: HostClient, call: dict[str, Any], agent: str) -> dict[str, Any] | None:
    stats.sent += 1
    start = time.perf_counter()
    try:
        res = await asyncio.wait_for(client.call(call, agent=agent), CALL_DEADLINE_S)
    except (TimeoutError, ConnectionError, OSError):
        stats.unanswered += 1
        return None
    stats.latencies.append((time.perf_counter() - start) * 1000)
    if res["details"]["status"] == "failed":
        stats.failed += 1
    return res


async def agent(
    n: int, sock: Path, per_agent: int, ready: asyncio.Event, stop_at: list[float], stats: Stats
) -> None:
    name = f"agent-{n}"
    client = await HostClient.connect(sock, client=f"load-bench {name}")
    chatty: list[tuple[str, Numbers]] = []
    idle: list[str] = []
    cats: list[str] = []
    try:
        for kind in itertools.islice(itertools.cycle(KINDS), per_agent):
            command, pty, is_chatty = kind
            res = await timed(
                stats, client, {"tool": "exec", "command": command, "pty": pty, "background": True}, name
            )
            if res is None or res["details"]["status"] != "running":
                raise SystemExit(f"{name} could not start {command!r}: {res}")
            sid = res["details"]["sessionId"]
            if is_chatty:
                numbers = Numbers()
                stats.numbers.append(numbers)
                chatty.append((sid, numbers))
            else:
                (cats if command == "cat" else idle).append(sid)
        stats.agents_started += 1
        await ready.wait()
        for step in itertools.count():
            if time.monotonic() >= stop_at[0]:
                break
            which = step % 4
            if which in (0, 2) and chatty:
                sid, numbers = chatty[(step // 4) % len(chatty)]
                res = await timed(
                    stats, client, {"tool": "process", "action": "poll", "sessionId": sid}, name
                )
                if res is not None:
                    numbers.feed(res)
            elif which == 1:
                sid = (idle + cats)[step % len(idle + cats)] if idle + cats else chatty[0][0]
                await timed(
                    stats, client, {"tool": "process", "action": "log", "sessionId": sid, "limit": 50}, name
                )
            elif cats and step % 8 == 3:
                await timed(
                    stats,
                    client,
                    {
                        "tool": "process",
                        "action": "write",
                        "sessionId": cats[step % len(cats)],
                        "data": f"ping {step}\n",
                    },
                    name,
                )
            else:
                await timed(stats, client, {"tool": "process", "action": "list"}, name)
            await asyncio.sleep(PAUSE_S)
        for sid, numbers in chatty:  # the rest of what they printed, so the count ends where they stopped
            res = await timed(stats, client, {"tool": "process", "action": "poll", "sessionId": sid}, name)
            if res is not None:
                numbers.feed(res)
    finally:
        await client.close()


def rss_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


def survivors(mark: str) -> list[str]:
    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if proc.environ().get(MARK) == mark:
                found.append(f"{proc.pid} {' '.join(proc.cmdline())}")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


async def run(seconds: float, agents: int, per_agent: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="oc-load-"))
    sock = tmp / "host.sock"
    mark = uuid.uuid4().hex
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock), MARK: mark}
    serve = start_serve(env)
    stats = Stats()
    try:
        await wait_for_host(sock, serve)
        rss_idle = rss_mb(serve.pid)
        ready = asyncio.Event()
        stop_at = [float("inf")]
        tasks = [
            asyncio.ensure_future(agent(n, sock, per_agent, ready, stop_at, stats)) for n in range(agents)
        ]
        while stats.agents_started < agents and not any(t.done() for t in tasks):
            await asyncio.sleep(0.1)
        rss_started = rss_mb(serve.pid)
        started_calls = len(stats.latencies)
        stop_at[0] = time.monotonic() + seconds
        ready.set()
        peak = rss_started
        while not all(t.done() for t in tasks):
            await asyncio.wait(tasks, timeout=1)
            peak = max(peak, rss_mb(serve.pid))
        for task in tasks:
            task.result()  # an agent that could not start its sessions says so here
        rss_end = rss_mb(serve.pid)
    finally:
        end_serve(serve, 60)
        await asyncio.sleep(1)  # a process the host missed would still be there; give nothing time to end
        left = survivors(mark)
        for line in left:
            try:
                os.kill(int(line.split()[0]), signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)

    during = stats.latencies[started_calls:]
    chatty = sum(1 for kind in itertools.islice(itertools.cycle(KINDS), per_agent) if kind[2]) * agents
    answered = stats.sent - stats.unanswered
    p99 = statistics.quantiles(during, n=100)[98] if len(during) >= 100 else max(during, default=0.0)
    print(
        f"P10 load: {agents * per_agent} sessions ({chatty} chatty), {agents} agents over the socket, "
        f"{seconds:.0f} s"
    )
    print(
        f"    calls answered: {answered} of {stats.sent} ({len(during) / seconds:.0f}/s during the run, "
        f"{stats.failed} failed results)"
    )
    p50 = statistics.median(during)
    print(f"    latency during the run: p50 {p50:.1f} ms, p99 {p99:.1f} ms (target <= 100)")
    print(
        f"    host RSS: idle {rss_idle:.0f} MB, sessions started {rss_started:.0f} MB, end {rss_end:.0f} MB, "
        f"peak {peak:.0f} MB; growth {peak - rss_idle:+.0f} MB from idle, {rss_end - rss_started:+.0f} MB "
        f"during the run (target <= 50)"
    )
    lines = sum(n.lines for n in stats.numbers)
    print(
        f"    numbered output: {lines} lines read from {len(stats.numbers)} sessions, "
        f"{sum(n.gaps for n in stats.numbers)} gaps (target 0)"
    )
    print(f"    survivors after the host ended: {len(left)} (target 0)" + (f": {left[:5]}" if left else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="length of the loaded run (default 60)")
    parser.add_argument("--agents", type=int, default=20, help="agents on the socket (default 20)")
    parser.add_argument("--per-agent", type=int, default=10, help="sessions each agent starts (default 10)")
    args = parser.parse_args()
    asyncio.run(run(args.seconds, args.agents, args.per_agent))


if __name__ == "__main__":
    main()
