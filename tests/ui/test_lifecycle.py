"""The dashboard's life: the demo it starts, quitting, signals, and closing while host messages still
arrive."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest
from textual.message import Message

from openclaw_tui.ui import make_app
from openclaw_tui.ui.demo import demo_folder
from openclaw_tui.ui.dialogs import QuitDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.messages import SessionExited, SessionOutput, SessionsChanged
from openclaw_tui.ui.sessions.workspace import Workspace

from ..support.pilots import SIZE, heard, run, selected, until
from ..support.sessions import start_background


async def test_demo_starts_the_example_sessions_and_quitting_can_end_them(host):
    app = make_app(host, demo=True)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: len(host.sessions()) == 6, "the six demo sessions")
        sessions = host.sessions()
        assert {s.agent for s in sessions} == {"demo"}
        assert sorted(s.pty for s in sessions) == [False, False, True, True, True, True]
        assert {s.cwd for s in sessions} == {str(demo_folder())}
        await until(pilot, lambda: any(s.waiting_reason == "password-prompt" or s.waiting_for_input for s in sessions),
                    "a demo prompt waiting")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitDialog), "the quit question")
        await pilot.press("e")
        await until(pilot, lambda: not app.is_running, "the app to quit once they ended", timeout=30)
    assert not any(s.running for s in sessions) and not host.closed
    assert (demo_folder() / "build.sh").exists()  # left for demo sessions that a detach keeps running


async def test_the_demo_on_a_served_host_ends_with_its_newest_session_on_view(served, remote):
    # sessions reach a mirror one by one, and the first one listed is selected: the demo then shows the
    # newest (the full-screen program), as on a host whose sessions were all there when the dashboard opened
    host, _sock = served
    app = make_app(remote, demo=True)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: len(app.sessions()) == 6, "the six demo sessions")
        newest = host.sessions()[0]
        await until(pilot, lambda: selected(app) == newest.id, "the newest demo session on view")
        assert newest.pty  # the full-screen program


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
async def test_a_terminating_signal_detaches(host, sig, monkeypatch):
    if sig == signal.SIGHUP:  # the terminal is gone: the app ends the process at once, here seen and stopped
        monkeypatch.setattr(os, "_exit", lambda code: app.exit(code))
    app = make_app(host, handle_signals=True)
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session listed")
        os.kill(os.getpid(), sig)
        deadline = time.monotonic() + 20
        while app.is_running and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not app.is_running
    app.disarm_watchdog()
    assert host.session(sid).running and not host.closed


def host_messages(sid: str) -> list[Message]:
    """What the host's last events become while the app closes: a list change, output, an exit."""
    return [SessionsChanged(), SessionOutput(sid),
            SessionExited(sid, {"sessionId": sid, "name": "sleep 60", "status": "failed"}, True)]


@pytest.mark.parametrize("gone", [(Workspace, SummaryHeader), (SummaryHeader,), (Workspace,)])
async def test_host_messages_after_the_widgets_are_gone_do_not_fail_the_exit(app, host, gone):
    # While the app closes its widgets go first, one by one in no fixed order; the host's last messages
    # can still be in its queue.
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session listed")
        for widget in gone:
            await app.query_one(widget).remove()
        for message in host_messages(sid):
            app.post_message(message)
        await until(pilot, lambda: all(m in heard(app, type(m)) for m in host_messages(sid)), "the messages taken")
        await pilot.pause()  # the hook hears a message just before its handler runs
        assert app.is_running
