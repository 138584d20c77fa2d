"""What containment costs a spawn: gateway runs in a cgroup, under a subreaper host, and sandboxed, side by side.

For each containment, in one run: the time per foreground ``true`` (spawn, exit, proof that nothing is
left), the time the event loop spends per background spawn (``sleep 60``), and the time to kill N such
sessions at once. The live record goes to a temporary state directory. Every process started here is
ended before it returns.

Run: ``python bench/spawn.py [--n 40]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings

KINDS = {"cgroup": ("gateway", "auto"), "subreaper": ("gateway", "subreaper"), "sandbox": ("sandbox", "auto")}


async def measure(kind: str, n: int) -> str:
    where, mode = KINDS[kind]
    host = ToolHost(settings=Settings(exec=replace(ExecSettings(), placement=where), containment=mode))
    async with host:
        await host.call({"tool": "exec", "command": "true"}, agent="a")  # warm-up: watchdog, cgroup, probe
        started = time.perf_counter()
        for _ in range(n):
            await host.call({"tool": "exec", "command": "true"}, agent="a")
        foreground = (time.perf_counter() - started) / n * 1000
        started = time.perf_counter()
        ids = [(await host.call({"tool": "exec", "command": "sleep 60", "background": True}, agent="a"))
               ["details"]["sessionId"] for _ in range(n)]
        spawn = (time.perf_counter() - started) / n * 1000
        started = time.perf_counter()
        await asyncio.gather(*(host.call({"tool": "process", "action": "kill", "sessionId": s}, agent="a")
                               for s in ids))
        kill = (time.perf_counter() - started) * 1000
        got = host.sessions()[0].details()["containment"] if host.sessions() else kind
    return f"{got:10s} foreground `true`: {foreground:6.1f} ms   background spawn: {spawn:5.2f} ms   kill {n}: {kill:5.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["XDG_STATE_HOME"] = state
        for kind in KINDS:
            print(asyncio.run(measure(kind, args.n)), flush=True)


if __name__ == "__main__":
    main()
