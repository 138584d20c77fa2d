"""Node benchmarks (issue 14): an agent's ``process poll`` through a node over ssh, against the same poll here;
and the dashboard across 4 nodes of 250 sessions each, scrolled, against the same scroll of 1000 local ones.

Everything is real: ``sshd`` on loopback (the test rig, ``tests/support/sshrig.py``), a node host (``openclaw-tui
serve``) behind a key whose forced command runs ``openclaw-tui bridge``, and a local ``openclaw-tui serve``
whose config names that node. One ``sleep`` session runs on each host. After a warm-up (the ssh connection
is up by then), N polls are timed one after another, all through the local host's socket as an agent's
client sends them: of the local session, and of the node's (``a/ID``: local host, ssh, bridge, node host).
For the breakdown, the same poll is also timed over a bare ssh bridge to the node and straight on the node
host's socket. The target is an overhead of at most 5 ms at p50.

The dashboard part: 4 node hosts behind the same sshd, each running 250 ``sleep`` sessions (on the host,
not in 250 sandboxes), and a dashboard (headless, 120x40) whose config names the 4 nodes: its list shows all
1000, each node's through its own ssh bridge and mirror. The operator scrolls the list as in
``bench/dashboard.py``'s P9 (arrows, pages, Home/End), and each frame's time is taken the same way; the
same scroll of a dashboard listing 1000 sessions of its own host runs first, in the same process. Target:
p95 <= 16 ms. Every process started here is ended.

Run: ``python bench/nodes.py [--only poll,dashboard] [--n 300] [--nodes 4] [--per-node 250]``.
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
from bench.dashboard import GATEWAY, frame_timer, scroll, timed_sync, until
from openclaw_tui import ToolHost
from openclaw_tui.core.config.nodesettings import NodeSettings
from openclaw_tui.remote.mirror.viewprotocols import HostView
from openclaw_tui.remote.nodes.fleet import open_fleet
from openclaw_tui.remote.nodes.ssh import SshLink
from openclaw_tui.remote.wire.client import HostClient, NoHost
from openclaw_tui.ui import make_app
from tests.support.sshrig import SshRig

WARMUP = 30
AGENT = "bench"
TARGET_MS = 5.0
FRAME_TARGET_MS = 16.0
LIST_SIZE = (120, 40)


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


# -- the dashboard across nodes ------------------------------------------------------------------------
async def fill(host: HostClient | ToolHost, count: int, offset: int = 0) -> None:
    """``count`` sessions on ``host`` (through its socket, or in this process), as 7 agents would start them."""
    for i in range(count):
        res = await host.call({"tool": "exec", "command": f"sleep {3600 + offset + i}", "background": True},
                                agent=f"agent-{i % 7}")
        if res["details"]["status"] != "running":
            raise SystemExit(f"could not start a session: {res['text']}")


async def scrolled(host: HostView, count: int, fill_in: Callable[[], Awaitable[None]]) -> dict[str, float]:
    """The dashboard on ``host``, once ``fill_in`` made its list ``count`` long: frame times while scrolling."""
    app = make_app(host)
    ticks = timed_sync(app)
    with frame_timer() as frames:
        async with app.run_test(size=LIST_SIZE) as pilot:
            await pilot.pause()
            await fill_in()
            table = app.workspace.query_one("#session-list")
            await until(lambda: len(table.ids) == count, timeout=120)  # type: ignore[attr-defined]
            await pilot.pause(1.5)
            result = await scroll(pilot, frames, ticks)
            await host.close()
    return result


async def dashboard(nodes: int, per_node: int) -> None:
    rig = SshRig()
    names = [chr(ord("a") + i) for i in range(nodes)]
    for name in names:
        rig.add_node_host(name, GATEWAY)
    config = rig.write_config(GATEWAY + "".join(rig.node_toml(name) for name in names))
    plain = rig.write_config(GATEWAY, "plain.toml")
    total = nodes * per_node
    try:
        rig.start()
        local = ToolHost(env={}, config_path=str(plain))
        alone = await scrolled(local, total, lambda: fill(local, total))
        clients = [await HostClient.connect(rig.hosts[name].socket, client="bench/nodes.py") for name in names]
        try:
            await asyncio.gather(*(fill(c, per_node, i * per_node) for i, c in enumerate(clients)))
            fleet = open_fleet(str(config), ToolHost(env={}, config_path=str(plain)))
            across = await scrolled(fleet, total, _nothing)
        finally:
            for c in clients:
                await c.close()
    finally:
        rig.close()
    print(f"dashboard scrolling a list of {total} sessions, {LIST_SIZE[0]}x{LIST_SIZE[1]}, "
          f"{across['keys']:.0f} keys (arrows, pages, Home/End), frame ms:")
    for label, r in ((f"{total} sessions of its own host", alone),
                     (f"{nodes} nodes x {per_node} sessions, over ssh", across)):
        print(f"  {label:<40} p50 {r['p50']:5.1f}  p95 {r['p95']:5.1f}  max {r['max']:5.1f}  "
              f"({r['frames']:.0f} frames; list update each second {r['sync_ms']:.1f} ms)")
    verdict = "meets" if across["p95"] <= FRAME_TARGET_MS else "MISSES"
    print(f"frame p95 across nodes: {across['p95']:.1f} ms ({verdict} the target of <= {FRAME_TARGET_MS:.0f} ms); "
          f"ratio {across['p95'] / alone['p95']:.2f}x the local list's")


async def _nothing() -> None:
    """The nodes' sessions were started before the dashboard opened."""


async def main(args: argparse.Namespace) -> None:
    only = set(args.only.split(","))
    if "poll" in only:
        await run(args.n)
    if "dashboard" in only:
        await dashboard(args.nodes, args.per_node)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="poll,dashboard", help="comma-separated: poll, dashboard")
    parser.add_argument("--n", type=int, default=300, help="polls timed per path")
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--per-node", type=int, default=250)
    asyncio.run(main(parser.parse_args()))
