"""Fixtures for dashboard tests: a real host, the app built by ``make_app``, and what keeps captures still.

No app closes its host (the dashboard is a client: its host outlives it), so the ``host`` fixture closes
it afterwards, within a deadline (:mod:`tests.support.hosts`), so the suite's no-orphans guard holds and a
broken kill fails the test instead of hanging the run. ``remote`` is a mirror of the ``served`` host, as the
real dashboard holds one. Text cursors never blink here, and ``frozen`` freezes what changes by itself for
snapshots: runtimes, clock times and session ids. The pilot helpers are :mod:`tests.support.pilots`.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui import DashboardApp, make_app

from ..support.hosts import close_within
from ..support.pilots import FIXED_IDS, new_host, steady_cursors


@pytest.fixture(autouse=True)
def private_runtime_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies go to ``$XDG_RUNTIME_DIR/openclaw-tui/copies``: a folder of the test's own, and no tmux
    around the app (the suite may run inside one), so a copy's notice is the same everywhere."""
    folder = tmp_path_factory.mktemp("run")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.delenv("TMUX", raising=False)
    return folder


@pytest.fixture(autouse=True)
def private_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary directory (where the demo writes its scripts) is a folder of the test's own."""
    folder = tmp_path_factory.mktemp("tmp")
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture(autouse=True)
def steady() -> Iterator[None]:
    """No blinking text cursor in any test (a blinking one makes every capture differ)."""
    with steady_cursors():
        yield


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    h = new_host()
    yield h
    await close_within(h)


@pytest.fixture
def app(host: ToolHost) -> DashboardApp:
    return make_app(host)


@pytest.fixture
async def served(sock_dir: Path) -> AsyncIterator[tuple[ToolHost, Path]]:
    """``(host, socket)`` of a host serving a private socket, for attached dashboards."""
    host = new_host()
    host.start()
    server = HostServer(host, sock_dir / "host.sock")
    try:
        await server.start()
        yield host, sock_dir / "host.sock"
    finally:
        await server.close()
        await close_within(host)


@pytest.fixture
async def remote(served: tuple[ToolHost, Path]) -> AsyncIterator[RemoteHost]:
    """A mirror of the ``served`` host, as the dashboard holds one; disconnected afterwards."""
    mirror = await RemoteHost.connect(served[1])
    try:
        yield mirror
    finally:
        await mirror.close()


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Freeze runtimes (12 s), clock times and session ids for deterministic screenshots."""
    names = itertools.cycle(FIXED_IDS)
    monkeypatch.setattr("openclaw_tui.ui.clock.runtime_ms", lambda session: 12_000)
    monkeypatch.setattr("openclaw_tui.ui.clock.wall_clock", lambda at: "12:00:00")
    def fixed(taken: object) -> str:
        return next(names)

    monkeypatch.setattr("openclaw_tui.core.session.names.new_session_id", fixed)
    monkeypatch.setattr("openclaw_tui.core.session.registry.new_session_id", fixed, raising=False)  # imported by name
