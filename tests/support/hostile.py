"""Hostile calls, and a way to see how long each stalls a host's event loop.

Shared by the loop-lag test (a generous bound, since the machine is shared) and ``bench/host.py`` (the
figure against PERF's 100 ms target). The calls go over the host's socket from another thread, with
a blocking client, so the only work on the host's loop is the host's own.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TICK_S = 0.005


def hostile_lines(pty_session: str) -> dict[str, bytes]:
    """Request lines by name; ``pty_session`` is a PTY session that reads its input (``cat``)."""

    def call(payload: Any, id_: int = 9) -> bytes:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        return (
            b'{"jsonrpc":"2.0","id":%d,"method":"call","params":{"agent":"lag","call":' % id_
            + text.encode()
            + b"}}"
        )

    paste = "".join(f"line {i:07d} of a large paste\n" for i in range(10_000_000 // 29))
    return {
        "500 KB command": call({"tool": "exec", "command": "A" * 500_000}),
        "1 MB command": call({"tool": "exec", "command": "echo " + "A" * 1_000_000}),
        "100 KB command (runs)": call({"tool": "exec", "command": "echo " + "A" * 100_000 + " >/dev/null"}),
        "deep JSON line": b"[" * 200_000,
        "deep JSON call": call('{"tool":"exec","command":' + "[" * 100_000 + "]" * 100_000 + "}"),
        "10 MB paste": call({"tool": "process", "action": "paste", "sessionId": pty_session, "text": paste}),
        "10 MB write": call({"tool": "process", "action": "write", "sessionId": pty_session, "data": paste}),
        "huge env": call(
            {"tool": "exec", "command": "true", "env": {f"V{i}": "x" * 100 for i in range(100_000)}}
        ),
        "huge env value": call({"tool": "exec", "command": "true", "env": {"BIG": "x" * 5_000_000}}),
        "many keys": call({"tool": "exec", "command": "true", **{f"k{i}": i for i in range(200_000)}}),
        "many key tokens": call(
            {"tool": "process", "action": "send-keys", "sessionId": pty_session, "keys": [1] * 1_000_000}
        ),
        "million-item list": call({"tool": "process", "action": "list", "sessionId": [0] * 2_000_000}),
    }


class LagMeter:
    """A task on the host's loop that records the longest gap between its ticks."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(TICK_S)
            now = time.monotonic()
            self.worst = max(self.worst, now - last - TICK_S)
            last = now

    def reset(self) -> None:
        self.worst = 0.0

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def send_and_wait(sock_path: Path, line: bytes, timeout: float = 120.0) -> dict[str, Any]:
    """Send one request line on a fresh connection and return its answer (blocking). The sends release
    the GIL and copy nothing, so this thread takes next to no time from the host's loop in the same
    process."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(sock_path))
        conn.sendall(line)
        conn.sendall(b"\n")
        with conn.makefile("rb") as lines:
            while answer := lines.readline():
                msg: dict[str, Any] = json.loads(answer)
                if "method" not in msg:
                    return msg
    raise ConnectionError("the host closed the connection without answering")


async def measure(
    sock_path: Path, meter: LagMeter, lines: dict[str, bytes], settle: Callable[[], Any] | None = None
) -> dict[str, tuple[float, dict[str, Any]]]:
    """Each line's worst loop gap (seconds) while it was sent and answered, with its answer."""
    found = {}
    for name, line in lines.items():
        await asyncio.sleep(0.05)
        meter.reset()
        answer = await asyncio.to_thread(send_and_wait, sock_path, line)
        await asyncio.sleep(0.05)  # let the meter tick once more after the answer: a stall shows only then
        found[name] = (meter.worst, answer)
        if settle is not None:
            await settle()
    return found
