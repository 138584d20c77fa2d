"""Where the host may put its socket: directories it must not touch, paths it must not replace, one host only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.paths import SocketDirError, SocketPathError
from openclaw_tui.remote.server import HostServer


def _someone_elses_dir(tmp_path: Path) -> Path:
    """A private directory that belongs to another user (as root, by chown; otherwise the root directory's)."""
    if os.getuid() != 0:
        return Path("/")
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)
    return theirs


async def test_an_existing_shared_directory_is_refused_and_left_as_it_is(tmp_path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: sticky, open to everyone
    async with ToolHost(env={}, config_path="/dev/null") as host:
        with pytest.raises(SocketDirError, match="open to other users.*OPENCLAW_TUI_SOCKET"):
            await HostServer(host, shared / "host.sock").start()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert not (shared / "host.sock").exists()


async def test_a_directory_of_someone_else_is_refused(tmp_path) -> None:
    theirs = _someone_elses_dir(tmp_path)
    before = theirs.stat()
    async with ToolHost(env={}, config_path="/dev/null") as host:
        with pytest.raises(SocketDirError, match="not a directory owned by you"):
            await HostServer(host, theirs / "openclaw-test-host.sock").start()
    after = theirs.stat()
    assert (after.st_mode, after.st_uid) == (before.st_mode, before.st_uid)


async def test_a_missing_directory_is_created_private(tmp_path) -> None:
    sock = tmp_path / "a" / "b" / "host.sock"
    async with ToolHost(env={}, config_path="/dev/null") as host:
        server = HostServer(host, sock)
        await server.start()
        try:
            assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
        finally:
            await server.close()


async def test_a_file_that_is_not_a_socket_is_never_replaced(tmp_path) -> None:
    sock = tmp_path / "run" / "host.sock"
    sock.parent.mkdir(mode=0o700)
    sock.write_text("precious")
    async with ToolHost(env={}, config_path="/dev/null") as host:
        with pytest.raises(SocketPathError, match=f"{sock} exists and is not a socket"):
            await HostServer(host, sock).start()
    assert sock.read_text() == "precious"
