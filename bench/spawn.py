"""What containment costs a spawn: gateway runs in a cgroup, under a subreaper host, and sandboxed, side by side.

For each containment, in one run: the time per foreground ``true`` (spawn, exit, proof that nothing is
left), the time the event loop spends per background spawn (``sleep 60``), and the time to kill N such
sessions at once. The live record goes to a temporary state directory. Every process started here is
ended before it returns.

Then P14, what hiding credentials costs a sandboxed start: the same foreground ``true`` with the whole
credential table and the environment filter (today's settings) beside one that hides only what the
sandbox hid before (the four old home paths ~/.ssh, ~/.aws, ~/.config/gcloud, ~/.gnupg and the sockets;
``show = ["/"]`` takes the table out, ``passEnv = ["*"]`` turns the filter off), the two hosts' calls
interleaved so the machine's noise falls on both; with this HOME, with a developer's HOME (the 18 stores of
``DEVELOPER``) and with a HOME that holds every place the table names (the worst case: bubblewrap makes a
mount per store, ~0.3 ms each). The planted homes are outside /tmp, as a real one is. Beside it, the time
the event loop spends per spawn building the sandbox's argv and environment, for each.

Run: ``python bench/spawn.py [--n 40]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, PlacementMode, Settings, default_secrets
from openclaw_tui.core.containment import credentials, sandbox
from openclaw_tui.core.launch.secretenv import sandbox_environment

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


OLD_HOME_SECRETS = (".ssh", ".aws", os.path.join(".config", "gcloud"), ".gnupg")


def before_the_table() -> ExecSettings:
    """Sandboxed runs as they were: the old four home paths and the sockets, no environment filter."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    old = (*default_secrets(os.environ), *(os.path.join(home, p) for p in OLD_HOME_SECRETS))
    return replace(ExecSettings(), placement=PlacementMode.SANDBOX, secrets=old, shown=("/",), pass_env=("*",))


def loop_cost_us(s: ExecSettings, workdir: str, n: int = 300) -> float:
    """Median µs to build a run's sandbox argv and environment with ``s`` (what the spawn does on the loop)."""
    tools = sandbox.cached() or sandbox.availability()
    times = []
    for _ in range(n):
        started = time.perf_counter()
        env = dict(os.environ)  # as launch.start reads it
        sandbox_environment(env, s.pass_env)
        sandbox.wrap(["/bin/sh", "-c", "true"], workdir, pty=False, network=True, tools=tools, shown=s.shown,
                     secrets=(*s.secrets, *credentials.hidden(env, s.shown)), tmpdir=env.get("TMPDIR"))
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


async def compare(n: int) -> tuple[list[float], list[float]]:
    """Per-call ms of a foreground sandboxed ``true``, old settings and new, interleaved."""
    new_settings = replace(ExecSettings(), placement=PlacementMode.SANDBOX)
    old_host = ToolHost(settings=Settings(exec=before_the_table()))
    new_host = ToolHost(settings=Settings(exec=new_settings))
    old, new = [], []
    async with old_host, new_host:
        for host in (old_host, new_host):  # warm-up: probe, watchdog
            await host.call({"tool": "exec", "command": "true"}, agent="a")
        for _ in range(n):
            for host, times in ((old_host, old), (new_host, new)):
                started = time.perf_counter()
                r = await host.call({"tool": "exec", "command": "true"}, agent="a")
                times.append((time.perf_counter() - started) * 1000)
                assert r["details"]["host"] == "sandbox", r["details"]
    return old, new


DEVELOPER = (".ssh", ".gnupg", ".aws", ".config/gcloud", ".config/gh/hosts.yml", ".git-credentials",
             ".docker/config.json", ".kube/config", ".npmrc", ".pypirc", ".cargo/credentials.toml", ".netrc",
             ".codex/auth.json", ".claude/.credentials.json", ".claude.json", ".local/share/keyrings", ".mozilla",
             ".config/google-chrome")


def plant(home: Path, only: tuple[str, ...] | None = None) -> int:
    """A file (or a directory holding one) at every place the table names under ``home`` (or those
    ``only`` names, relative to it)."""
    places = sorted({Path(p.replace("*", "main")) for p in credentials.places(os.environ)
                     if p.startswith(str(home) + "/") and (only is None or os.path.relpath(p, home) in only)})
    for place in places:
        if any(q != place and q.is_relative_to(place) for q in places):
            place.mkdir(parents=True, exist_ok=True)
        else:
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_text("secret\n")
    return len(places)


def p14(n: int, label: str) -> str:
    old, new = asyncio.run(compare(n))
    found = sum(os.path.lexists(p) for p in credentials.places(os.environ))
    o, w = statistics.median(old), statistics.median(new)
    work = os.getcwd()
    cost_old, cost_new = loop_cost_us(before_the_table(), work), loop_cost_us(replace(ExecSettings()), work)
    return (f"  {label} ({found} of {len(credentials.places(os.environ))} places exist): old {o:5.1f} ms  "
            f"new {w:5.1f} ms  {w - o:+5.2f} ms ({w / o:4.2f}x)   on the loop per spawn: old {cost_old:4.0f} µs, "
            f"new {cost_new:4.0f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["XDG_STATE_HOME"] = state
        for kind in KINDS:
            print(asyncio.run(measure(kind, args.n)), flush=True)
        if not sandbox.availability().usable:
            print(f"P14 skipped: {sandbox.availability().reason}")
            return
        print(f"P14 sandboxed start, credentials hidden vs the old four paths (interleaved, median of {args.n} each; "
              "target ≤ +5 ms):", flush=True)
        print(p14(args.n, "this HOME"), flush=True)
        base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else state
        for label, only in (("a developer's HOME", DEVELOPER), ("a HOME holding every store", None)):
            with tempfile.TemporaryDirectory(dir=base) as home:
                os.environ["HOME"] = home
                planted = plant(Path(home), only)
                print(p14(args.n, f"{label}, {planted} planted"), flush=True)


if __name__ == "__main__":
    main()
