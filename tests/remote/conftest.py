"""A host served on a private socket, for the remote tests."""

from __future__ import annotations

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.server import HostServer


@pytest.fixture
def sock(tmp_path):
    return tmp_path / "run" / "host.sock"


@pytest.fixture
async def served(sock):
    """``(host, socket_path)`` of a running in-process host serving the socket."""
    async with ToolHost(env={}, config_path="/dev/null") as host:
        server = HostServer(host, sock)
        await server.start()
        try:
            yield host, sock
        finally:
            await server.close()
