"""Host benchmark P6 of PERF.md: an agent's ``process poll`` round trip over MCP on an idle host.

A real ``openclaw-tui serve`` on a private socket, a real ``openclaw-tui mcp --agent bench`` on stdio driven
by the MCP SDK's own client, one background ``sleep 60`` session; after a warm-up, N ``poll`` calls are
timed one after another. For reference the same poll is also timed straight over the host socket (no MCP),
which shows what the MCP layer adds. Every process started here is ended before it returns.

Run: ``python bench/host.py [--n 200]``.
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

from openclaw_tui.remote.client import HostClient, NoHost

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


async def timed(n: int, call: object) -> list[float]:
    samples = []
    for i in range(WARMUP + n):
        start = time.perf_counter()
        await call()  # type: ignore[operator]
        if i >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000)
    return samples


async def run(n: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="oc-bench-"))
    sock = tmp / "host.sock"
    env = dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock))
    serve = subprocess.Popen(
        [sys.executable, "-m", "openclaw_tui", "serve"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
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
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    p50, p95 = statistics.median(over_mcp), percentile(over_mcp, 0.95)
    print(f"P6 poll round trip p50 ms: {p50:.2f} (target <= 5), p95 ms: {p95:.2f}, n={n} over MCP stdio")
    print(
        f"   same poll straight over the host socket: p50 ms {statistics.median(over_socket):.2f}, "
        f"p95 ms {percentile(over_socket, 0.95):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="timed polls (default 200)")
    asyncio.run(run(parser.parse_args().n))


if __name__ == "__main__":
    main()
