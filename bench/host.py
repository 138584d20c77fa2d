"""Host benchmarks P6, P7 and P12 of PERF.md, each measured side by side in one run.

P6  an agent's ``process poll`` round trip over MCP on an idle host: a real ``openclaw-tui serve`` on a
    private socket, a real ``openclaw-tui mcp --agent bench`` on stdio driven by the MCP SDK's own client,
    one background ``sleep 60`` session; after a warm-up, N ``poll`` calls are timed one after another.
    For reference the same poll is also timed straight over the host socket (no MCP).
P7  ``openclaw-tui call '{"tool":"process","action":"list"}'`` wall time against ``python -c pass``,
    alternating, median of each (target: at most 3x). Bytecode caching is on for both, as on a user's
    machine (``PYTHONDONTWRITEBYTECODE`` is dropped), after one warm-up call.
P12 the longest stall of a host's event loop while each hostile call of ``tests/support/hostile.py`` (a 500 KB
    command, deep JSON, a 10 MB paste, a huge env, many keys…) is sent over the socket and answered,
    recorded by a ticker task on the loop (target: 100 ms).

Every process started here is ended before it returns.

Run: ``python bench/host.py [--n 200] [--calls 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from mcp import ClientSession, StdioServerParameters, stdio_client

from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.remote.wire.client import HostClient, NoHost
from tests.support.hostile import LagMeter, hostile_lines, measure

WARMUP = 20


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def wait_for_host(sock: Path, serve: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            client = await HostClient.connect(sock)
        except NoHost:
            if serve.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("openclaw-tui serve did not come up") from None
            await asyncio.sleep(0.05)
            continue
        await client.close()
        return


def start_serve(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``openclaw-tui serve`` in a session of its own, on the socket ``env`` names."""
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, start_new_session=True)


def end_serve(serve: subprocess.Popen[bytes], grace_s: float) -> None:
    """SIGTERM the host (it ends its sessions), SIGKILL its group if it takes longer than ``grace_s``."""
    serve.send_signal(signal.SIGTERM)
    try:
        serve.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(serve.pid, signal.SIGKILL)
        serve.wait()


async def timed(n: int, call: object) -> list[float]:
    samples = []
    for i in range(WARMUP + n):
        start = time.perf_counter()
        await call()  # type: ignore[operator]
        if i >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def call_startup(sock: Path, rounds: int) -> tuple[float, float]:
    """Median ms of ``openclaw-tui call`` (list) and of ``python -c pass``, run alternately."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["OPENCLAW_TUI_SOCKET"] = str(sock)
    exe = shutil.which("openclaw-tui", path=os.path.dirname(sys.executable)) or shutil.which("openclaw-tui")
    if exe is None:
        raise SystemExit("openclaw-tui is not installed next to this python (pip install -e .)")
    call = [exe, "call", '{"tool":"process","action":"list"}']
    bare = [sys.executable, "-c", "pass"]

    def once(argv: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
        return (time.perf_counter() - start) * 1000

    once(call), once(bare)  # warm-up: bytecode caches written
    calls, bares = [], []
    for _ in range(rounds):
        calls.append(once(call))
        bares.append(once(bare))
    return statistics.median(calls), statistics.median(bares)


async def loop_lag() -> dict[str, float]:
    """P12: each hostile call's worst loop stall, in ms, on an in-process host serving a socket."""
    tmp = Path(tempfile.mkdtemp(prefix="oc-bench-"))
    sock = tmp / "host.sock"
    try:
        async with ToolHost(env={}, config_path="/dev/null") as host:
            server = HostServer(host, sock)
            await server.start()
            meter = LagMeter()
            try:
                cat = {"tool": "exec", "command": "cat >/dev/null", "pty": True, "background": True}
                r = await host.call(cat)
                meter.start()
                found = await measure(sock, meter, hostile_lines(r["details"]["sessionId"]))
            finally:
                meter.stop()
                await server.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {name: gap * 1000 for name, (gap, _) in found.items()}


async def run(n: int, rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="oc-bench-"))
    sock = tmp / "host.sock"
    env = dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock))
    serve = start_serve(env)
    try:
        await wait_for_host(sock, serve)
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "openclaw_tui", "mcp", "--agent", "bench"], env=env
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            r = await session.call_tool("exec", {"command": "sleep 60", "background": True})
            sid = r.structured_content["sessionId"]
            poll = {"action": "poll", "sessionId": sid}
            over_mcp = await timed(n, lambda: session.call_tool("process", poll))
            async with await HostClient.connect(sock) as client:
                over_socket = await timed(n, lambda: client.call({"tool": "process", **poll}, agent="bench"))
            await session.call_tool("process", {"action": "kill", "sessionId": sid})
        call_ms, bare_ms = await asyncio.to_thread(call_startup, sock, rounds)
    finally:
        end_serve(serve, 20)
        shutil.rmtree(tmp, ignore_errors=True)
    p50, p95 = statistics.median(over_mcp), percentile(over_mcp, 0.95)
    print(f"P6 poll round trip p50 ms: {p50:.2f} (target <= 5), p95 ms: {p95:.2f}, n={n} over MCP stdio")
    print(
        f"   same poll straight over the host socket: p50 ms {statistics.median(over_socket):.2f}, "
        f"p95 ms {percentile(over_socket, 0.95):.2f}"
    )
    print(f"P7 openclaw-tui call (list) median ms: {call_ms:.1f} against python -c pass {bare_ms:.1f}: "
          f"{call_ms / bare_ms:.2f}x (target <= 3), {rounds} rounds")
    lag = await loop_lag()
    worst = max(lag, key=lambda name: lag[name])
    print(f"P12 worst event-loop stall under hostile calls: {lag[worst]:.1f} ms ({worst}; target <= 100)")
    print("    " + ", ".join(f"{name} {ms:.1f}" for name, ms in lag.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="timed polls (default 200)")
    parser.add_argument("--calls", type=int, default=20,
                        help="P7 rounds of call and python -c pass (default 20)")
    args = parser.parse_args()
    asyncio.run(run(args.n, args.calls))


if __name__ == "__main__":
    main()
