"""Node benchmark (issue 14): an agent's ``process poll`` through a node over ssh, against the same poll here.

Everything is real: ``sshd`` on loopback (the test rig, ``tests/sshrig.py``), a node host (``openclaw-tui
serve``) behind a key whose forced command runs ``openclaw-tui bridge``, and a local ``openclaw-tui serve``
whose config names that node. One ``sleep`` session runs on each host. After a warm-up (the ssh connection
is up by then), N polls are timed one after another, all through the local host's socket as an agent's
client sends them: of the local session, and of the node's (``a/ID``: local host, ssh, bridge, node host).
For the breakdown, the same poll is also timed over a bare ssh bridge to the node and straight on the node
host's socket. The target is an overhead of at most 5 ms at p50. Every process started here is ended.

Run: ``python bench/nodes.py [--n 300]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from openclaw_tui.core.nodeconfig import NodeSettings
from openclaw_tui.remote.client import HostClient, NoHost
from openclaw_tui.remote.ssh import SshLink
from tests.sshrig import SshRig

WARMUP = 30
AGENT = "bench"
TARGET_MS = 5.0


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(n: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    samples = []
    for i in range(WARMUP + n):
        start = time.perf_counter()
        res = await call()
        if i >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000)
        if res["details"]["status"] != "running":
            raise SystemExit(f"the poll did not find a running session: {res['text']}")
    return samples


async def connect(sock: Path, proc: subprocess.Popen[bytes]) -> HostClient:
    deadline = time.monotonic() + 30
    while True:
        try:
            return await HostClient.connect(sock, client="bench/nodes.py")
        except NoHost:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("openclaw-tui serve did not come up") from None
            await asyncio.sleep(0.05)


def poll(client: HostClient, sid: str) -> Callable[[], Awaitable[Any]]:
    return lambda: client.call({"tool": "process", "action": "poll", "sessionId": sid}, agent=AGENT)


async def start_sleep(client: HostClient, **where: str) -> str:
    res = await client.call({"tool": "exec", "command": "sleep 600", "background": True, **where}, agent=AGENT)
    if res["details"]["status"] != "running":
        raise SystemExit(f"could not start the session: {res['text']}")
    return str(res["details"]["sessionId"])


async def run(n: int) -> None:
    rig = SshRig()
    node = rig.add_node_host("a")
    local_sock = rig.root / "local" / "host.sock"
    local_sock.parent.mkdir(mode=0o700)
    config = rig.write_config(rig.node_toml("a"))
    clients: list[HostClient] = []
    link: SshLink | None = None
    local: subprocess.Popen[bytes] | None = None
    try:
        rig.start()
        local = await asyncio.to_thread(
            subprocess.Popen, [sys.executable, "-m", "openclaw_tui", "--config", str(config), "serve"],
            env={**os.environ, "OPENCLAW_TUI_SOCKET": str(local_sock)}, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, start_new_session=True,
        )
        client = await connect(local_sock, local)
        clients.append(client)
        here = await start_sleep(client)
        there = await start_sleep(client, host="node", node="a")
        direct = await HostClient.connect(node.socket, client="bench/nodes.py")
        clients.append(direct)
        link = await SshLink.open(NodeSettings("a", f"{rig.user}@127.0.0.1", options=tuple(rig.ssh_options("a"))))
        bare = there.split("/", 1)[1]

        local_ms = await timed(n, poll(client, here))
        node_ms = await timed(n, poll(client, there))
        bridge_ms = await timed(n, poll(link.client, bare))
        node_socket_ms = await timed(n, poll(direct, bare))
    finally:
        for c in clients:
            await c.close()
        if link is not None:
            await link.close()
        if local is not None:
            local.send_signal(signal.SIGTERM)
            local.wait(60)
        rig.close()

    print(f"poll round trip, {n} calls each after {WARMUP} warm-up calls, ssh on loopback (ms):")
    rows = [
        ("local session, via the local host's socket", local_ms),
        ("node session, via the local host, ssh and the bridge", node_ms),
        ("  breakdown: the node's host over a bare ssh bridge", bridge_ms),
        ("  breakdown: the node's host on its own socket", node_socket_ms),
    ]
    for label, samples in rows:
        print(f"  {label:<55} p50 {statistics.median(samples):6.2f}  p95 {percentile(samples, 0.95):6.2f}")
    overhead = statistics.median(node_ms) - statistics.median(local_ms)
    verdict = "meets" if overhead <= TARGET_MS else "MISSES"
    print(f"node overhead at p50: {overhead:.2f} ms ({verdict} the target of <= {TARGET_MS:.0f} ms); "
          f"ratio {statistics.median(node_ms) / statistics.median(local_ms):.1f}x the local poll")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=300)
    asyncio.run(run(parser.parse_args().n))


if __name__ == "__main__":
    main()
