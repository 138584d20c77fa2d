"""What containment costs a spawn: gateway runs in a cgroup, under a subreaper host, and sandboxed, side by side.

For each containment, in one run: the time per foreground ``true`` (spawn, exit, proof that nothing is
left), the time the event loop spends per background spawn (``sleep 60``), and the time to kill N such
sessions at once. Then what exec approvals add to an allowlisted command's start (P15, target <= 2 ms at
the median): background spawns of ``sleep 60 && true`` on a host that runs everything (ungated) and on one
whose ``security = "allowlist"`` must read, match and look up both programs first, interleaved, medians side
by side, with the gate's own cost (parse, match, resolve, look up again) beside them. The live record goes
to a temporary state directory. Every process started here is ended before it returns.

Run: ``python bench/spawn.py [--n 40]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openclaw_tui import ToolHost
from openclaw_tui.core.approvals import moved
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


GATED = "sleep 60 && true"


async def background(host: ToolHost) -> tuple[float, str]:
    began = time.perf_counter()
    res = await host.call({"tool": "exec", "command": GATED, "background": True, "workdir": "/tmp"}, agent="a")
    took = (time.perf_counter() - began) * 1000
    assert res["details"]["status"] == "running", res["text"]
    return took, str(res["details"]["sessionId"])


async def allowlisted(n: int, folder: str) -> str:
    """P15: an allowlisted command's extra start, beside the same start ungated (interleaved, medians)."""
    approvals = os.path.join(folder, "exec-approvals.json")
    programs = [os.path.realpath(shutil.which(p) or p) for p in ("sleep", "true")]
    with open(approvals, "w") as fh:
        json.dump({"version": 1, "agents": {"a": {"allowlist": [{"pattern": p} for p in programs]}}}, fh)
    base = replace(ExecSettings(), placement="gateway")
    plain = ToolHost(settings=Settings(exec=base, approvals_file=os.path.join(folder, "none.json")))
    gated = ToolHost(settings=Settings(exec=replace(base, security="allowlist"), approvals_file=approvals))
    times: dict[str, list[float]] = {"ungated": [], "allowlisted": []}
    async with plain, gated:
        for host in (plain, gated):  # warm-up: watchdog, cgroup, the login PATH probe, the file read once
            await host.call({"tool": "process", "action": "kill", "sessionId": (await background(host))[1]}, agent="a")
        for i in range(n):
            pair = [("ungated", plain), ("allowlisted", gated)]
            for name, host in pair if i % 2 else reversed(pair):  # neither always follows the other's kill
                took, sid = await background(host)
                times[name].append(took)
                await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="a")
                await asyncio.sleep(0.05)  # the kill's aftermath (reaping, the cgroup) is over before the next
        core = gated.supervisor
        path = os.environ.get("PATH", os.defpath)
        alone = []
        for _ in range(n * 10):
            began = time.perf_counter()
            found = await core.approvals.judge(GATED, "/tmp", path, False, "a")
            assert found.matched and found.script() is not None
            assert moved(found.programs(), path, "/tmp") is None
            alone.append((time.perf_counter() - began) * 1000)
    ungated, gated_ms = statistics.median(times["ungated"]), statistics.median(times["allowlisted"])
    return (f"P15 exec start of `{GATED}` (background, median of {n}): ungated {ungated:5.2f} ms   allowlisted "
            f"{gated_ms:5.2f} ms   extra {gated_ms - ungated:+5.2f} ms (target <= 2 ms)   the gate alone "
            f"(parse, match, resolve, look up again): {statistics.median(alone):5.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["XDG_STATE_HOME"] = state
        for kind in KINDS:
            print(asyncio.run(measure(kind, args.n)), flush=True)
        print(asyncio.run(allowlisted(max(args.n, 60), state)), flush=True)


if __name__ == "__main__":
    main()
