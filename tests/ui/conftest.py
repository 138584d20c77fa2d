"""Fixtures for dashboard tests: a real host, the app built by ``make_app``, and condition waits.

Every app closes its host when it unmounts (ending its sessions), and the ``host`` fixture closes it
again afterwards in case a test failed before the app ran, so the suite's no-orphans guard holds.
Snapshot helpers freeze what changes by itself: runtimes, clock times and session ids.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from openclaw_tui import ToolHost
from openclaw_tui.remote.server import HostServer
from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.notices import NoticeLine

from ..waiting import wait_for

SIZE = (120, 36)
FIXED_IDS = ("amber-atlas", "bold-beacon", "calm-comet", "deft-delta", "eager-eagle", "fancy-fern",
             "glad-grove", "happy-heron")


def new_host(wait_ms: int = 1000) -> ToolHost:
    """A host on default settings except a short input-wait threshold (1 s, the smallest allowed)."""
    return ToolHost(env={"OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS": str(wait_ms)}, config_path="/dev/null")


@pytest.fixture(autouse=True)
def private_runtime_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies go to ``$XDG_RUNTIME_DIR/openclaw-tui/copies``: a folder of the test's own, and no tmux
    around the app (the suite may run inside one), so a copy's notice is the same everywhere."""
    folder = tmp_path_factory.mktemp("run")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.delenv("TMUX", raising=False)
    return folder


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    h = new_host()
    yield h
    await h.close()


@pytest.fixture
def app(host: ToolHost) -> DashboardApp:
    return make_app(host, cursor_blink=False)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[ToolHost, Path]]:
    """``(host, socket)`` of a host serving a private socket, for attached dashboards."""
    host = new_host()
    host.start()
    server = HostServer(host, tmp_path / "host.sock")
    await server.start()
    try:
        yield host, tmp_path / "host.sock"
    finally:
        await server.close()
        await host.close()


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Freeze runtimes (12 s), clock times and session ids for deterministic screenshots."""
    names = itertools.cycle(FIXED_IDS)
    monkeypatch.setattr("openclaw_tui.ui.clock.runtime_ms", lambda session: 12_000)
    monkeypatch.setattr("openclaw_tui.ui.clock.wall_clock", lambda at: "12:00:00")
    def fixed(taken: object) -> str:
        return next(names)

    monkeypatch.setattr("openclaw_tui.core.names.new_session_id", fixed)
    monkeypatch.setattr("openclaw_tui.core.registry.new_session_id", fixed, raising=False)  # imported by name


async def until(pilot: Pilot[Any], predicate: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Let the app run until ``predicate()`` is truthy; fail naming ``what`` after a generous deadline."""
    return await wait_for(predicate, timeout, what, pause=pilot.pause, step=0.05)


async def start(host: ToolHost, command: str, agent: str | None = None, **params: Any) -> str:
    """Start a background session the way an agent (or, with agent None, the operator) would."""
    res = await host.call({"tool": "exec", "command": command, "background": True, "workdir": "/tmp", **params},
                          agent=agent)
    assert res["details"]["status"] == "running", res
    return str(res["details"]["sessionId"])


def screen_text(app: DashboardApp) -> str:
    return app.workspace.view.terminal.screen_text()


def toasts(app: DashboardApp) -> list[str]:
    """Every notice the app has shown so far (the notice line keeps them), oldest first."""
    return [n.text for n in app.query_one(NoticeLine).history]

