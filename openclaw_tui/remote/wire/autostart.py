"""Starting a host for a client that found none (an MCP server, a node's bridge, the dashboard):
``openclaw-tui serve``, detached, then waiting for it without blocking the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from .client import HostClient, NoHost
from .socketpaths import check_length, ensure_private_dir, find_host, socket_path

AUTOSTART_TIMEOUT_S = 20.0
LOG_MAX_BYTES = 1 << 20  # serve.log starts over beyond this

Connect = Callable[[], Awaitable[HostClient]]


class HostUnavailable(RuntimeError):
    """No host could be reached (and none could be started)."""


async def start_host(path: Path, config_path: str | None, connect: Connect,
                     starter: str = "this MCP server") -> tuple[HostClient, subprocess.Popen[bytes]]:
    """Start ``openclaw-tui serve`` detached and wait until its socket accepts connections; ``starter``
    names who started it, in the messages."""
    proc = await asyncio.to_thread(spawn_host, path, config_path)
    return await host_started(path, proc, connect, starter), proc


def spawn_host(path: Path, config_path: str | None) -> subprocess.Popen[bytes]:
    """``openclaw-tui serve`` on ``path``, detached (blocking: a fork and exec)."""
    try:
        check_length(path)
        ensure_private_dir(path)
    except (OSError, RuntimeError) as exc:
        raise HostUnavailable(f"cannot start an openclaw-tui host: {exc}") from exc
    cmd = [sys.executable, "-m", "openclaw_tui"]
    if config_path:
        cmd += ["--config", config_path]
    cmd.append("serve")
    try:
        return _spawn_detached(cmd, path.parent / "serve.log")
    except OSError as exc:
        raise HostUnavailable(f"cannot start an openclaw-tui host ({' '.join(cmd)}): {exc}") from exc


async def host_started(path: Path, proc: subprocess.Popen[bytes], connect: Connect, starter: str) -> HostClient:
    """A connection to the host ``proc`` serves on ``path``, once it accepts; why not, if it ends or never does."""
    log_path = path.parent / "serve.log"
    deadline = time.monotonic() + AUTOSTART_TIMEOUT_S
    while True:
        try:
            return await connect()
        except NoHost:
            pass
        started = f"no openclaw-tui host was running on {path}, and the one {starter} started"
        exited = proc.poll()
        if exited is not None:
            # Another client may have won the race to start one; a last look, then give up.
            with contextlib.suppress(NoHost):
                return await connect()
            raise HostUnavailable(
                f"{started} exited with status {exited}: {_tail(log_path)} (log: {log_path})"
            )
        if time.monotonic() > deadline:
            raise HostUnavailable(
                f"{started} (pid {proc.pid}) did not accept connections within "
                f"{AUTOSTART_TIMEOUT_S:.0f} s (log: {log_path})"
            )
        await asyncio.sleep(0.05)


def host_opener(config_path: str | None, start: bool = True,
                client: str = "openclaw-tui dashboard") -> Callable[[], Awaitable[tuple[HostClient, Path]]]:
    """How a dashboard reaches its host: the one serving any candidate socket, else (``start``) one started on
    the preferred socket; gives the connection and its socket. Looking, and starting one, begin at once in a
    thread, so they go on while the dashboard loads its UI, which waits for neither."""
    looked: concurrent.futures.Future[tuple[Path, subprocess.Popen[bytes] | None]] = concurrent.futures.Future()

    def look() -> None:
        try:
            where = find_host()
            if where is not None or not start:
                looked.set_result((where or socket_path(), None))
            else:
                looked.set_result((socket_path(), spawn_host(socket_path(), config_path)))
        except BaseException as exc:  # noqa: BLE001  (handed to whoever opens the host, as its failure)
            looked.set_exception(exc)

    threading.Thread(target=look, name="openclaw-tui: looking for the host", daemon=True).start()

    async def open_host() -> tuple[HostClient, Path]:
        path, proc = await asyncio.wrap_future(looked)

        async def connect() -> HostClient:
            return await HostClient.connect(path, client=client)

        if proc is None:
            try:
                return await connect(), path
            except NoHost:  # it ended between the look and the connect
                if not start:
                    raise
                proc = await asyncio.to_thread(spawn_host, path, config_path)
        return await host_started(path, proc, connect, "this dashboard"), path

    return open_host


def _spawn_detached(cmd: list[str], log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in a session of its own, so it outlives this server and its client's kill."""
    with open(log_path, "wb" if _size(log_path) > LOG_MAX_BYTES else "ab") as log:
        return subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _tail(path: Path, chars: int = 400) -> str:
    try:
        text = path.read_bytes()[-chars:].decode(errors="replace").strip()
    except OSError:
        return "(no log)"
    return " ".join(text.split()) or "(empty log)"
