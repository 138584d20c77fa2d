"""A host served on a private socket, for the remote tests."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import HostServer

from ..support.hosts import hosting


@pytest.fixture
def sock(sock_dir):
    return sock_dir / "run" / "host.sock"


@contextlib.asynccontextmanager
async def serving(host: ToolHost, sock: Path) -> AsyncIterator[tuple[ToolHost, Path]]:
    """``host`` served on ``sock`` for the duration."""
    server = HostServer(host, sock)
    await server.start()
    try:
        yield host, sock
    finally:
        await server.close()


@pytest.fixture
async def served(sock):
    """``(host, socket_path)`` of a running in-process host serving the socket."""
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host, serving(host, sock) as pair:
        yield pair


@pytest.fixture
def someone_elses_dir(sock_dir) -> Path:
    """A private directory of another user: as root, one chowned to nobody; otherwise the root directory."""
    if os.getuid() != 0:
        return Path("/")
    theirs = sock_dir / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)
    return theirs
