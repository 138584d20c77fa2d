"""Re-exec benchmark P11 of PERF.md: 50 running sessions moved to new code by ``serve --reexec``, in one run.

A real ``openclaw-tui serve`` on a private socket runs 50 sessions, half on pipes and half on PTYs: some
flood numbered lines (paced so the flood spans the re-exec), the rest sit idle (``sleep``, or ``cat``
waiting on its terminal). Meanwhile a client connects and says ``hello`` in a tight loop. Then the real
``openclaw-tui serve --reexec`` command moves the host. Printed: sessions ended by the re-exec (target 0:
every idle one still running, every flood completed with exit 0), gaps in the numbered output, lines
missing or repeated in the text agents read and in the raw ring terminals draw from (target 0), and the
socket's downtime, the longest time the looping client went without a successful ``hello`` (target
<= 1 s), beside the whole command's time and the host's own count of re-execs.

Run: ``python bench/reexec.py [--sessions 50] [--floods 10] [--lines 12000] [--containment cgroup|subreaper|sandbox]``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from bench.host import end_serve, start_serve, wait_for_host
from openclaw_tui.remote.wire import protocol as p
from openclaw_tui.remote.wire.client import HostClient
from tests.support.sessions import whole_ring

CONFIG = '[tools.exec]\nhost = "{where}"\nkillGraceMs = 1000\n\n[host]\ncontainment = "{mode}"\n'


def flood(lines: int) -> str:
    """Numbered lines, paced (40 lines, then 10 ms) so that the flood runs for a few seconds."""
    return ("python3 -u -c 'import time\n"
            f"for i in range(1, {lines} + 1):\n"
            "    print(\"line\", i)\n"
            "    if i % 40 == 0: time.sleep(0.01)'")


class HelloLoop(threading.Thread):
    """Connects and says ``hello`` over and over; keeps the time of every answer."""

    def __init__(self, sock: Path) -> None:
        super().__init__(daemon=True)
        self.sock = sock
        self.answered: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.settimeout(30)
                    s.connect(str(self.sock))
                    s.sendall(p.request(1, "hello", {"client": "bench/reexec.py"}))
                    if s.makefile("rb").readline():
                        self.answered.append(time.monotonic())
            except OSError:
                time.sleep(0.001)

    def longest_gap(self, start: float, end: float) -> float:
        times = [t for t in self.answered if start <= t <= end]
        return max((b - a for a, b in itertools.pairwise(times)), default=end - start)


def numbered(text: str) -> list[int]:
    return [int(line[5:]) for line in text.replace("\r", "").split("\n") if line.startswith("line ")]


def gaps(found: list[int], lines: int) -> tuple[int, int]:
    """(missing, repeated) lines of 1..lines in ``found``."""
    return len(set(range(1, lines + 1)) - set(found)), len(found) - len(set(found))


async def raw_numbers(client: HostClient, sid: str) -> list[int]:
    _, data = await whole_ring(client, sid)
    return numbered(data.decode(errors="replace"))


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="openclaw-reexec-bench-"))
    where = "sandbox" if args.containment == "sandbox" else "gateway"
    mode = "subreaper" if args.containment == "subreaper" else "auto"
    (tmp / "config.toml").write_text(CONFIG.format(where=where, mode=mode))
    sock, work = tmp / "run" / "host.sock", tmp / "work"  # apart: sandboxed runs cannot see the socket's directory
    work.mkdir()
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock), "OPENCLAW_TUI_CONFIG": str(tmp / "config.toml"),
           "XDG_STATE_HOME": str(tmp / "state")}
    serve = start_serve(env)
    try:
        await wait_for_host(sock, serve)
        client = await HostClient.connect(sock)
        floods, idle = [], []
        for i in range(args.sessions):
            pty = i % 2 == 1
            is_flood = i < args.floods * 2 and len(floods) < args.floods
            command = flood(args.lines) if is_flood else ("cat" if pty else "sleep 3600")
            r = await client.call({"tool": "exec", "command": command, "pty": pty, "background": True,
                                   "workdir": str(work)}, agent="bench")
            assert r["details"]["status"] == "running", r
            (floods if is_flood else idle).append(r["details"]["sessionId"])
        await asyncio.sleep(0.5)  # the floods get going
        await client.close()
        loop = HelloLoop(sock)
        loop.start()
        await asyncio.sleep(0.3)
        asked = time.monotonic()
        done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "openclaw_tui", "serve", "--reexec"],
                                       env=env, text=True, capture_output=True, check=False)
        back = time.monotonic()
        await asyncio.sleep(0.3)
        loop.stop.set()
        downtime = loop.longest_gap(asked - 0.3, back + 0.3)
        if done.returncode != 0:
            raise SystemExit(f"serve --reexec failed: {done.stderr.strip()}")

        client = await HostClient.connect(sock)
        ended, missing, repeated, raw_missing, raw_repeated = 0, 0, 0, 0, 0
        for sid in floods:
            while True:
                r = await client.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 5000},
                                      agent="bench")
                if r["details"]["status"] != "running":
                    break
            if (r["details"]["status"], r["details"]["exitCode"]) != ("completed", 0):
                ended += 1
            log = await client.call({"tool": "process", "action": "log", "sessionId": sid, "offset": 0}, agent="bench")
            m, d = gaps(numbered(log["text"]), args.lines)
            missing, repeated = missing + m, repeated + d
            m, d = gaps(await raw_numbers(client, sid), args.lines)
            raw_missing, raw_repeated = raw_missing + m, raw_repeated + d
        listed = await client.call({"tool": "process", "action": "list"}, agent="bench")
        states = {s["sessionId"]: s["status"] for s in listed["details"]["sessions"]}
        ended += sum(states.get(sid) != "running" for sid in idle)
        generation = client.hello["generation"]
        await client.close()
    finally:
        end_serve(serve, 60)
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"P11 re-exec of a host running {args.sessions} sessions ({args.floods} flooding {args.lines} numbered "
          f"lines, half on PTYs; containment {args.containment}):")
    print(f"  sessions ended by the re-exec:      {ended}   (target 0)")
    print(f"  lines missing / repeated, text:     {missing} / {repeated}   (target 0)")
    print(f"  lines missing / repeated, raw ring: {raw_missing} / {raw_repeated}   (target 0)")
    print(f"  socket downtime (longest without a hello): {downtime * 1000:.0f} ms   (target <= 1000 ms; "
          f"{downtime:.2f}x of it)")
    print(f"  `serve --reexec` took {(back - asked) * 1000:.0f} ms (its preflight included); the host counts "
          f"{generation} re-exec(s); {len(loop.answered)} hellos answered meanwhile")
    print(f"  the command said: {done.stdout.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--floods", type=int, default=10)
    parser.add_argument("--lines", type=int, default=12000)
    parser.add_argument("--containment", choices=("cgroup", "subreaper", "sandbox"), default="cgroup")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
