"""What containment costs a spawn: gateway runs in a cgroup, under a subreaper host, and sandboxed, side by side.

For each containment, in one run: the time per foreground ``true`` (spawn, exit, proof that nothing is
left), the time the event loop spends per background spawn (``sleep 60``), and the time to kill N such
sessions at once. Then what exec approvals add to an allowlisted command's start (P15, target <= 2 ms at
the median): background spawns of ``sleep 60 && true`` on a host that runs everything (ungated) and on one
whose ``security = "allowlist"`` must read, match and look up both programs first, interleaved, medians side
by side, with the gate's own cost (parse, match, resolve, look up again) beside them. The live record goes
to a temporary state directory. Every process started here is ended before it returns.

Then P14, what hiding credentials costs a sandboxed start: the same foreground ``true`` with the whole
credential table and the environment filter (today's settings) beside one that hides only what the
sandbox hid before (the four old home paths ~/.ssh, ~/.aws, ~/.config/gcloud, ~/.gnupg and the sockets;
``show = ["/"]`` takes the table out, ``passEnv = ["*"]`` turns the filter off), the two hosts' calls
interleaved so the machine's noise falls on both; with this HOME, with a developer's HOME (the 18 stores of
``DEVELOPER``, directories where the tool makes one), with the same HOME where an ordinary file sits beside
each store in its tool's directory (so none is hidden whole), and with a HOME that holds every place the table
names, each a file (the worst case: a hidden file costs bubblewrap a bind, and each bind a read of the whole
mount table; a hidden directory is a tmpfs, nearly free). The planted homes are outside /tmp, as a real one
is. Beside it, the time the event loop spends per spawn building the sandbox's argv and environment, the same
two argvs run straight from here (bwrap alone: the mounts' cost without the host's, whose noise is larger on a
busy machine), and the mounts each makes: binds, and tmpfs.

Run: ``python bench/spawn.py [--n 40] [--p14]`` (``--p14``: only P14).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openclaw_tui import ToolHost
from openclaw_tui.core.approvals import moved
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
    base = replace(ExecSettings(), placement=PlacementMode.GATEWAY)
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
OLD_HOME_SECRETS = (".ssh", ".aws", os.path.join(".config", "gcloud"), ".gnupg")


def before_the_table() -> ExecSettings:
    """Sandboxed runs as they were: the old four home paths and the sockets, no environment filter."""
    home = os.environ.get("HOME") or os.path.expanduser("~")
    old = (*default_secrets(os.environ), *(os.path.join(home, p) for p in OLD_HOME_SECRETS))
    return replace(ExecSettings(), placement=PlacementMode.SANDBOX, secrets=old, shown=("/",), pass_env=("*",))


def loop_cost_us(old: ExecSettings, new: ExecSettings, workdir: str, n: int = 300) -> tuple[float, float]:
    """Median µs to build a run's sandbox argv and environment (what the spawn does on the loop) with
    ``old`` and with ``new``, interleaved so that a busy moment falls on both."""
    tools = sandbox.cached() or sandbox.availability()
    times: dict[int, list[float]] = {0: [], 1: []}
    for i in range(n):
        for which in (0, 1) if i % 2 else (1, 0):
            s = (old, new)[which]
            started = time.perf_counter()
            env = dict(os.environ)  # as launch.start reads it
            sandbox_environment(env, s.pass_env)
            sandbox.wrap(["/bin/sh", "-c", "true"], workdir, pty=False, network=True, tools=tools, shown=s.shown,
                         secrets=(*s.secrets, *credentials.hidden(env, s.shown)), tmpdir=env.get("TMPDIR"),
                         tool_dirs=credentials.tool_dirs(env))
            times[which].append(time.perf_counter() - started)
    return statistics.median(times[0]) * 1e6, statistics.median(times[1]) * 1e6


def sandboxed_true(s: ExecSettings, workdir: str) -> list[str]:
    """The argv of a sandboxed ``true`` with ``s``, as the launcher builds it."""
    env = dict(os.environ)
    return sandbox.wrap([shutil.which("true") or "true"], workdir, pty=False, network=True,
                        tools=sandbox.availability(), shown=s.shown, tmpdir=env.get("TMPDIR"),
                        secrets=(*s.secrets, *credentials.hidden(env, s.shown)), tool_dirs=credentials.tool_dirs(env))


def mounts(argv: list[str]) -> str:
    """How many binds (each a read of bwrap's mount table) and tmpfs ``argv`` makes."""
    binds = sum(argv.count(o) for o in ("--ro-bind", "--bind", "--ro-bind-try", "--remount-ro"))
    return f"{binds} binds, {argv.count('--tmpfs')} tmpfs"


def bwrap_alone(old: list[str], new: list[str], n: int) -> tuple[float, float]:
    """Median ms of each argv run straight from here, interleaved: the mounts' cost without the host's."""
    times: dict[int, list[float]] = {0: [], 1: []}
    for i in range(n):
        for which in (0, 1) if i % 2 else (1, 0):
            started = time.perf_counter()
            subprocess.run((old, new)[which], check=True, stdin=subprocess.DEVNULL)
            times[which].append((time.perf_counter() - started) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


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
DIRECTORIES = {".ssh", ".gnupg", ".aws", ".config/gcloud", ".local/share/keyrings", ".mozilla", ".config/google-chrome"}
ORDINARY = (".bashrc", ".gitconfig", ".cache/pip/http/x")  # in every planted home, as in a real one


def plant(home: Path, only: tuple[str, ...] | None = None, beside: bool = False) -> int:
    """A file at every place the table names under ``home`` (or those ``only`` names, relative to it; a
    directory holding one where the place holds others, or is one of ``DIRECTORIES``), and with ``beside``
    an ordinary file next to each planted file that is not directly in the home directory."""
    places = sorted({Path(p.replace("*", "main")) for p in credentials.places(os.environ)
                     if p.startswith(str(home) + "/") and (only is None or os.path.relpath(p, home) in only)})
    for rel in ORDINARY:
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text("ordinary\n")
    for place in places:
        if any(q != place and q.is_relative_to(place) for q in places):
            place.mkdir(parents=True, exist_ok=True)
            continue
        if os.path.relpath(place, home) in DIRECTORIES:
            place = place / "secret"
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_text("secret\n")
        if beside and place.parent != home:
            (place.parent / "ordinary.settings").write_text("ordinary\n")
    return len(places)


def p14(n: int, label: str) -> str:
    old, new = asyncio.run(compare(n))
    found = sum(os.path.lexists(p) for p in credentials.places(os.environ))
    o, w = statistics.median(old), statistics.median(new)
    work = os.getcwd()
    cost_old, cost_new = loop_cost_us(before_the_table(), replace(ExecSettings()), work)
    argv_old, argv_new = sandboxed_true(before_the_table(), work), sandboxed_true(replace(ExecSettings()), work)
    alone_old, alone_new = bwrap_alone(argv_old, argv_new, n)
    return (f"  {label} ({found} of {len(credentials.places(os.environ))} places exist): old {o:5.1f} ms  "
            f"new {w:5.1f} ms  {w - o:+5.2f} ms ({w / o:4.2f}x)   on the loop per spawn: old {cost_old:4.0f} µs, "
            f"new {cost_new:4.0f} µs   bwrap alone: old {alone_old:5.1f} ms, new {alone_new:5.1f} ms "
            f"({alone_new - alone_old:+5.2f})   mounts: old {mounts(argv_old)}, new {mounts(argv_new)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--p14", action="store_true", help="only P14")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["XDG_STATE_HOME"] = state
        if not args.p14:
            for kind in KINDS:
                print(asyncio.run(measure(kind, args.n)), flush=True)
            print(asyncio.run(allowlisted(max(args.n, 60), state)), flush=True)
        if not sandbox.availability().usable:
            print(f"P14 skipped: {sandbox.availability().reason}")
            return
        print(f"P14 sandboxed start, credentials hidden vs the old four paths (interleaved, median of {args.n} each; "
              "target ≤ +5 ms):", flush=True)
        print(p14(args.n, "this HOME"), flush=True)
        base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else state
        for label, only, beside in (("a developer's HOME", DEVELOPER, False),
                                     ("the same, an ordinary file beside each store", DEVELOPER, True),
                                     ("a HOME holding every store, each a file", None, False)):
            with tempfile.TemporaryDirectory(dir=base) as home:
                os.environ["HOME"] = home
                planted = plant(Path(home), only, beside)
                print(p14(args.n, f"{label}, {planted} planted"), flush=True)


if __name__ == "__main__":
    main()
