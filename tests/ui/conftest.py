"""Fixtures for dashboard tests: a real host, the app built by ``make_app``, and condition waits.

No app closes its host (the dashboard is a client: its host outlives it), so the ``host`` fixture closes
it afterwards, within a deadline (:mod:`tests.support.hosts`), so the suite's no-orphans guard holds and a broken
kill fails the test instead of hanging the run; :class:`ClosingApp` does it on unmount for tests that run
the app on a loop of its own (snapshots). ``remote`` is a mirror of the ``served`` host, as the real
dashboard holds one. Apps run
through :func:`run`, which hears every message the app handles (Textual's ``message_hook``): tests read
the notices shown from there. Text cursors never blink here (:mod:`tests.support.pilots`), and snapshot helpers freeze
what changes by itself: runtimes, clock times and session ids.
"""

from __future__ import annotations

import contextlib
import itertools
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import pytest
from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget

from openclaw_tui import ToolHost
from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui import DashboardApp, app as ui_app, make_app
from openclaw_tui.ui.dialogs import QuitDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.messages import SessionsChanged
from openclaw_tui.ui.notices import NoticeLine

from ..support.hosts import close_within
from ..support.pilots import steady_cursors
from ..support.waiting import wait_for

SIZE = (120, 36)
SMALL = (80, 24)
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


class ClosingApp(DashboardApp):
    """The dashboard on a host of the test's own that it closes when it unmounts: for tests that run the app
    on a loop of its own (``snap_compare``), where no fixture can close the host after it."""

    CSS_PATH = str(Path(ui_app.__file__).with_name("app.tcss"))  # Textual reads it beside the class's module

    async def on_unmount(self) -> None:
        await super().on_unmount()
        await close_within(self.host)  # type: ignore[arg-type]  # always a ToolHost here


A = TypeVar("A", bound=App[Any])
M = TypeVar("M", bound=Message)
HEARD: WeakKeyDictionary[App[Any], list[Message]] = WeakKeyDictionary()


def run(app: A, size: tuple[int, int] = SIZE) -> contextlib.AbstractAsyncContextManager[Pilot[Any]]:
    """``app.run_test`` at ``size``, hearing every message the app handles (see :func:`heard`)."""
    return app.run_test(size=size, message_hook=HEARD.setdefault(app, []).append)


def heard(app: App[Any], kind: type[M]) -> list[M]:
    """The messages of ``kind`` that ``app``'s widgets have handled so far, oldest first (each once, though
    the hook hears a bubbling message at every widget it reaches)."""
    found = {id(m): m for m in HEARD.get(app, []) if isinstance(m, kind)}
    return list(found.values())


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


async def until(pilot: Pilot[Any], predicate: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Let the app run until ``predicate()`` is truthy; fail naming ``what`` after a generous deadline."""
    return await wait_for(predicate, timeout, what, pause=pilot.pause, step=0.05)


async def start(host: ToolHost, command: str, agent: str | None = None, **params: Any) -> str:
    """Start a background session the way an agent (or, with agent None, the operator) would."""
    res = await host.call({"tool": "exec", "command": command, "background": True, "workdir": "/tmp", **params},
                          agent=agent)
    assert res["details"]["status"] == "running", res
    return str(res["details"]["sessionId"])


async def detach(pilot: Pilot[Any], app: DashboardApp) -> None:
    """Quit, keeping any running sessions running (the quit question's first answer)."""
    await pilot.press("q")
    await until(pilot, lambda: not app.is_running or isinstance(app.screen, QuitDialog), "quitting or the question")
    if app.is_running:
        await pilot.press("d")
    await until(pilot, lambda: not app.is_running, "the app to quit")


def screen_text(app: DashboardApp) -> str:
    return app.workspace.view.terminal.screen_text()


def toasts(app: DashboardApp) -> list[str]:
    """Every notice the app has shown so far, oldest first."""
    return [m.notice.text for m in heard(app, NoticeLine.Shown)]


def drawn(widget: Widget) -> list[str]:
    """The lines ``widget`` draws now (border included), as text."""
    return [strip.text for strip in widget.render_lines(widget.region.reset_offset)]


def header(app: DashboardApp) -> str:
    return "".join(drawn(app.query_one(SummaryHeader)))


def title(app: DashboardApp) -> str:
    """The session view's title line."""
    return "".join(drawn(app.query_one("#view-title")))


def inputs_line(app: DashboardApp) -> str:
    """The session view's inputs line."""
    return "".join(drawn(app.query_one("#view-inputs")))


def selected(app: DashboardApp) -> str | None:
    """The id of the session on view (and highlighted in the list)."""
    return app.workspace.selected.id if app.workspace.selected else None


async def select(pilot: Pilot[Any], app: DashboardApp, sid: str) -> None:
    """Select ``sid`` in the list, once it is listed."""
    await until(pilot, lambda: app.workspace.select(sid) or selected(app) == sid, f"{sid} selected")


async def sync_list(pilot: Pilot[Any], app: DashboardApp) -> None:
    """Have the app look at the sessions now, as a host event or its once-a-second tick would have it."""
    seen = len(heard(app, SessionsChanged))
    app.post_message(SessionsChanged())
    await until(pilot, lambda: len(heard(app, SessionsChanged)) > seen, "the list looked at")
    await pilot.pause()  # the hook hears a message just before its handler runs


def footer_actions(app: DashboardApp) -> dict[str, Any]:
    """The footer's keys by action (looked up by widget type: Textual's ``FooterKey`` is not public)."""
    return {k.action: k for k in app.query("FooterKey")}
