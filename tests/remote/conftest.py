"""A host served on a private socket, for the remote tests."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost

from ..support.hosts import hosting, serving
from ..support.webrig import WebRig


@pytest.fixture
def sock(sock_dir):
    return sock_dir / "run" / "host.sock"


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


@pytest.fixture
async def web(sock_dir: Path) -> AsyncIterator[WebRig]:
    """``openclaw-tui web`` on a free loopback port, serving a host of its own (the web tests)."""
    rig = WebRig(sock_dir).start()
    try:
        yield rig
    finally:
        rig.close()
