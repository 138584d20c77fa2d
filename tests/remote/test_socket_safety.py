"""Where the host may put its socket: directories it must not touch, paths it must not replace, one host only."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import AlreadyServing, HostServer
from openclaw_tui.remote.wire.client import HostClient
from openclaw_tui.remote.wire.socketpaths import SocketDirError, SocketPathError

from ..support.hosts import hosting


async def test_an_existing_shared_directory_is_refused_and_left_as_it_is(sock_dir) -> None:
    shared = sock_dir / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: sticky, open to everyone
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        with pytest.raises(SocketDirError, match="open to other users.*OPENCLAW_TUI_SOCKET"):
            await HostServer(host, shared / "host.sock").start()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert not (shared / "host.sock").exists()


async def test_a_directory_of_someone_else_is_refused(someone_elses_dir) -> None:
    theirs = someone_elses_dir
    before = theirs.stat()
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        with pytest.raises(SocketDirError, match="not a directory owned by you"):
            await HostServer(host, theirs / "openclaw-test-host.sock").start()
    after = theirs.stat()
    assert (after.st_mode, after.st_uid) == (before.st_mode, before.st_uid)


async def test_a_missing_directory_is_created_private(sock_dir) -> None:
    sock = sock_dir / "a" / "b" / "host.sock"
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        try:
            assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
        finally:
            await server.close()


async def test_a_file_that_is_not_a_socket_is_never_replaced(sock) -> None:
    sock.parent.mkdir(mode=0o700)
    sock.write_text("precious")
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        with pytest.raises(SocketPathError, match=f"{sock} exists and is not a socket"):
            await HostServer(host, sock).start()
    assert sock.read_text() == "precious"


def _stale_socket(sock: Path) -> None:
    """What a crashed host leaves: the socket file, with nobody listening."""
    sock.parent.mkdir(mode=0o700, exist_ok=True)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(sock))
    dead.close()


async def test_two_hosts_starting_at_once_on_a_stale_socket_make_one_host(sock) -> None:
    _stale_socket(sock)
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as a, ToolHost(env={}, config_path="/dev/null") as b:
        servers = [HostServer(a, sock), HostServer(b, sock)]
        outcomes = await asyncio.gather(*(s.start() for s in servers), return_exceptions=True)
        try:
            assert outcomes.count(None) == 1, outcomes
            loser = servers[outcomes.index(None) ^ 1]
            assert isinstance(outcomes[servers.index(loser)], AlreadyServing)
            await loser.close()  # the loser's close leaves the winner's socket alone
            async with await HostClient.connect(sock) as client:
                assert client.hello["protocol"] == 1
        finally:
            for server in servers:
                await server.close()
    assert not sock.exists()


def _serve(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def test_of_several_serves_started_together_one_serves_and_the_rest_say_so(sock) -> None:
    _stale_socket(sock)
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    procs = [_serve(env) for _ in range(4)]
    try:
        deadline = asyncio.get_running_loop().time() + 60
        while sum(proc.poll() is not None for proc in procs) < len(procs) - 1:
            assert asyncio.get_running_loop().time() < deadline, "the losing hosts did not exit"
            await asyncio.sleep(0.05)
        (winner,) = [proc for proc in procs if proc.poll() is None]
        assert "serving" in await asyncio.wait_for(asyncio.to_thread(winner.stdout.readline), 60)
        for proc in procs:
            if proc is not winner:
                err = proc.stderr.read()
                assert proc.returncode == 1 and "already serving" in err and "Traceback" not in err, err
        async with await HostClient.connect(sock) as client:
            assert client.hello["pid"] == winner.pid
        winner.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(winner.wait, 30) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()
