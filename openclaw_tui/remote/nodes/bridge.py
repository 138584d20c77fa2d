"""``openclaw-tui bridge``: this machine's host socket on stdin/stdout, so ``ssh box openclaw-tui bridge`` is
a connection to box's host.

Bytes pass untouched both ways; a host is started when none serves, unless ``--no-start`` says not to.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import socket
import sys
import threading
from pathlib import Path

from ..wire import HostClient, HostUnavailable, find_host, socket_path, start_host

CHUNK = 1 << 16
DRAIN_S = 5.0  # after end of input, how long answers still on their way may take


def run_bridge(config_path: str | None, socket_arg: str | None, no_start: bool) -> int:
    no_start = no_start or asked_not_to_start(os.environ.get("SSH_ORIGINAL_COMMAND"))
    path = Path(os.path.expanduser(socket_arg)) if socket_arg else (find_host() or socket_path())
    if socket_arg:  # a host started here serves where it was asked for
        os.environ["OPENCLAW_TUI_SOCKET"] = str(path)
    try:
        sock = _connect(path)
    except OSError as exc:
        if no_start:
            return _fail(f"no openclaw-tui host is running on {path} ({exc.strerror or exc}); not starting one "
                         "(--no-start)")
        try:
            asyncio.run(_start(path, config_path))
            sock = _connect(path)
        except (HostUnavailable, OSError) as exc2:
            return _fail(str(exc2))
    pump(sock, sys.stdin.buffer.fileno(), sys.stdout.buffer.fileno())
    return 0


def asked_not_to_start(original: str | None) -> bool:
    """Whether the command the ssh client asked for (``$SSH_ORIGINAL_COMMAND``) says ``--no-start``."""
    if not original:
        return False
    try:
        return "--no-start" in shlex.split(original)
    except ValueError:
        return False


def pump(sock: socket.socket, stdin: int, stdout: int) -> None:
    """Copy stdin to ``sock`` and ``sock`` to stdout until either side ends; returns then."""
    ended = threading.Event()
    host_done = threading.Event()

    def upstream() -> None:  # stdin -> host
        try:
            while data := os.read(stdin, CHUNK):
                sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)  # the client is done: the host answers what it has, then closes
        except OSError:
            host_done.set()
        ended.set()

    def downstream() -> None:  # host -> stdout
        try:
            while data := sock.recv(CHUNK):
                view = memoryview(data)
                while view:
                    view = view[os.write(stdout, view):]
        except OSError:
            pass
        host_done.set()
        ended.set()

    for target in (upstream, downstream):
        threading.Thread(target=target, daemon=True).start()
    ended.wait()
    host_done.wait(DRAIN_S)  # a read still blocked in a daemon thread ends with the process
    sock.close()


def _connect(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        raise
    return sock


async def _start(path: Path, config_path: str | None) -> None:
    async def connect() -> HostClient:
        return await HostClient.connect(path, client="openclaw-tui bridge")

    client, _ = await start_host(path, config_path, connect, starter="this bridge")
    await client.close()


def _fail(message: str) -> int:
    print(f"openclaw-tui bridge: {message}", file=sys.stderr, flush=True)
    return 2
