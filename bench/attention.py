"""Benchmark P16 of PERF.md: from a session blocking at a prompt to the operator's webhook, with 200 sessions.

A real ``openclaw-tui serve`` on a private socket, its ``[notify] webhook`` a real HTTP server on loopback in
this process (the standard library's, in a thread, stamping each POST as it arrives). Twenty PTY sessions
ask a question again and again: each waits a random 0-1.5 s, writes down the time, prints ``Continue? [y/N]``
and blocks in ``read``; this benchmark answers every prompt once the webhook has told of it, for several
rounds. Beside them, 180 more sessions keep the host busy: idle pipes, and pipes and PTYs printing a line
every 0.2-0.5 s. Printed, side by side in one run for the 20 prompts alone and among the 200 (p50/p95/max):
from each ``session-waiting`` event (the alert's ``at``, the host's clock) to the POST that carried it (target
p95 <= 2 s), from the prompt to that event (the host finding it), and the two together; the alerts per POST
(merging), and whether every spell was told exactly once.

Run: ``python bench/attention.py [--rounds 5]``.
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
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from bench.host import end_serve, start_serve, wait_for_host
from openclaw_tui.remote.wire.client import HostClient

ASKERS = 20
ASK = ("n={n}; i=0; while :; do i=$((i + 1)); "
       "sleep $(awk -v s=$i$n 'BEGIN {{ srand(s); printf \"%.2f\", rand() * 1.5 }}'); "
       "date +%s.%N >> {dir}/asked-{n}; printf 'Continue? [y/N] '; read a; done")
BUSY = ([("sleep 3600", False)] * 120 + [("while :; do echo tick; sleep 0.2; done", False)] * 30
        + [("while :; do echo tick; sleep 0.5; done", True)] * 30)


class Receiver(ThreadingHTTPServer):
    """The operator's webhook: every POST's arrival time and body."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.posts: list[tuple[float, dict[str, Any]]] = []
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802
        arrived = time.time()
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        with self.server.lock:
            self.server.posts.append((arrived, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def told(receiver: Receiver) -> dict[str, list[tuple[float, float]]]:
    """When each session's waiting was told: (the event's time on the host, the POST's arrival), per POST."""
    out: dict[str, list[tuple[float, float]]] = {}
    with receiver.lock:
        for arrived, body in receiver.posts:
            if body.get("event") == "waiting":
                for alert in body.get("merged", [body]):
                    at = datetime.fromisoformat(alert["at"].replace("Z", "+00:00")).timestamp()
                    out.setdefault(alert["sessionId"], []).append((at, arrived))
    return out


async def scenario(busy: bool, rounds: int, work: Path) -> dict[str, Any]:
    receiver = Receiver()
    thread = threading.Thread(target=receiver.serve_forever, daemon=True)
    thread.start()
    folder = Path(tempfile.mkdtemp(prefix="attention-", dir=work))
    (folder / "run").mkdir(mode=0o700)
    config = folder / "config.toml"
    config.write_text(f'[notify]\nwebhook = "http://127.0.0.1:{receiver.server_address[1]}/hook"\n')
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(folder / "run" / "host.sock"), "OPENCLAW_TUI_CONFIG": str(config),
           "XDG_STATE_HOME": str(folder / "state")}
    serve = start_serve(env)
    sock = folder / "run" / "host.sock"
    try:
        await wait_for_host(sock, serve)
        client = await HostClient.connect(sock)
        if busy:
            for command, pty in BUSY:
                await client.call({"tool": "exec", "command": command, "background": True, "pty": pty}, agent="busy")
        askers = []
        for n in range(ASKERS):
            r = await client.call({"tool": "exec", "command": ASK.format(n=n, dir=folder), "background": True,
                                   "pty": True}, agent="bench")
            askers.append(r["details"]["sessionId"])
        for k in range(1, rounds + 1):
            deadline = time.monotonic() + 60
            while not all(len(told(receiver).get(sid, [])) >= k for sid in askers):
                if time.monotonic() > deadline:
                    raise SystemExit(f"round {k}: not every prompt reached the webhook within 60 s")
                await asyncio.sleep(0.02)
            for sid in askers:
                await client.call({"tool": "process", "action": "write", "sessionId": sid, "data": "y\n"},
                                  agent="bench")
        await asyncio.sleep(2.5)  # a spell told twice would show by now
        heard = told(receiver)
        latency, delivery, finding = [], [], []
        for n, sid in enumerate(askers):
            asked = [float(t) for t in (folder / f"asked-{n}").read_text().split()][:rounds]
            latency += [heard[sid][k][1] - asked[k] for k in range(rounds)]
            delivery += [heard[sid][k][1] - heard[sid][k][0] for k in range(rounds)]
            finding += [heard[sid][k][0] - asked[k] for k in range(rounds)]
        spells = sum(min(len(heard.get(sid, [])), rounds) for sid in askers)
        posts = sum(1 for _, body in receiver.posts if body.get("event") == "waiting")
        await client.close()
        odd = {sid: [(round(a - heard[sid][0][0], 2), round(b - heard[sid][0][0], 2)) for a, b in heard[sid]]
               for sid in askers if len(heard[sid]) not in (rounds, rounds + 1)}
        if odd:
            print(f"spells told more or less than once (times from the first): {odd}", file=sys.stderr)
        return {"latency": latency, "delivery": delivery, "finding": finding, "posts": posts, "alerts": spells,
                "exactly_once": all(len(heard[sid]) in (rounds, rounds + 1) for sid in askers)}
    finally:
        end_serve(serve, 60)
        receiver.shutdown()
        receiver.server_close()
        shutil.rmtree(folder, ignore_errors=True)


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1] if len(values) > 1 else values[0]


def figures(values: list[float]) -> str:
    return f"p50 {statistics.median(values):4.2f} p95 {quantile(values, 0.95):4.2f} max {max(values):4.2f} s"


def line(name: str, r: dict[str, Any]) -> str:
    return (f"{name:<22} event->webhook {figures(r['delivery'])} | prompt->event {figures(r['finding'])} | "
            f"prompt->webhook {figures(r['latency'])} | {r['alerts']} alerts in {r['posts']} POSTs, each spell "
            f"told once: {'yes' if r['exactly_once'] else 'NO'}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="prompts per asking session (default 5)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="openclaw-bench-"))
    try:
        alone = await scenario(False, args.rounds, work)
        crowd = await scenario(True, args.rounds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"P16: event to webhook delivery, {ASKERS} sessions asking {args.rounds} times each")
    print(line(f"{ASKERS} waiting alone", alone))
    print(line(f"{ASKERS} waiting among {ASKERS + len(BUSY)}", crowd))
    p95 = quantile(crowd["delivery"], 0.95)
    print(f"target: event to webhook p95 <= 2 s with {ASKERS + len(BUSY)} sessions: {p95:.2f} s, "
          f"{'met' if p95 <= 2 else 'NOT met'} (from the prompt itself: "
          f"{quantile(crowd['latency'], 0.95):.2f} s, the host finding it in about a second included)")


if __name__ == "__main__":
    asyncio.run(main())
