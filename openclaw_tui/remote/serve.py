"""``openclaw-tui serve``: the host with no UI, outliving any dashboard, until a signal ends it.

SIGTERM, SIGINT and SIGHUP start a graceful shutdown: every session's process group gets SIGTERM, the
grace period, then SIGKILL, and the host exits only once the OS confirms they are gone. A second signal
forces it: SIGKILL to every group at once.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from .. import ToolHost
from .paths import socket_path
from .server import AlreadyServing, HostServer

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


async def serve(config_path: str | None = None, path: Path | None = None, ready: asyncio.Event | None = None) -> int:
    path = path or socket_path()
    host = ToolHost(config_path=config_path)
    host.start()
    server = HostServer(host, path)
    try:
        await server.start()
    except AlreadyServing as exc:
        print(f"openclaw-tui: {exc}", file=sys.stderr)
        await host.close()
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        if stop.is_set():
            host.force_kill()
        stop.set()

    for sig in SIGNALS:
        loop.add_signal_handler(sig, on_signal)
    print(f"openclaw-tui host serving on {path}", flush=True)
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        await server.close()
        await host.close()
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
    return 0


def run_serve(config_path: str | None = None) -> int:
    return asyncio.run(serve(config_path))
