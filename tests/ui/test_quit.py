"""Quitting a dashboard while sessions run, against a served host: keep them running (detach), end them, or
stay. The dashboard is a client, so only the operator's "end them" ends anything."""

from __future__ import annotations

import pytest

from openclaw_tui.ui import make_app
from openclaw_tui.ui.dialogs import QuitDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, SMALL, drawn, header, run, until
from ..support.sessions import start_background


async def ask(pilot, app) -> QuitDialog:
    await pilot.press("q")
    return await until(pilot, lambda: isinstance(app.screen, QuitDialog) and app.screen, "the quit question")


@pytest.mark.parametrize("key", ["d", "enter"], ids=["d", "the focused first answer"])
async def test_keep_running_detaches_and_leaves_every_session_running(served, remote, key):
    host, _sock = served
    ids = [await start_background(host.call, "sleep 60", agent="agent-a", workdir="/tmp"),
           await start_background(host.call, "sleep 60", workdir="/tmp")]
    app = make_app(remote)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: "2 running" in header(app), "the sessions counted")
        await ask(pilot, app)
        await pilot.press(key)
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert all(host.session(sid).running for sid in ids)
    assert not remote.closed  # the app never closes its host's mirror: its owner does


async def test_end_them_ends_every_running_session_then_quits(served, remote):
    host, _sock = served
    ids = [await start_background(host.call, "sleep 60", agent="agent-a", workdir="/tmp"),
           await start_background(host.call, "sleep 60", agent="agent-b", workdir="/tmp"),
           # ignores SIGTERM: the kill goes on to SIGKILL
           await start_background(host.call, "trap '' TERM; sleep 60", workdir="/tmp")]
    done = await start_background(host.call, "true", workdir="/tmp")
    app = make_app(remote)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: "3 running" in header(app), "the sessions counted")
        dialog = await ask(pilot, app)
        assert all(sid in str(dialog.question) for sid in ids) and done not in dialog.question
        await pilot.press("e")
        await until(pilot, lambda: not app.is_running, "the app to quit once they ended", timeout=40)
    # the app quits only once the host confirmed each end: nothing is still running by then
    assert not any(host.session(sid).running for sid in ids)
    assert all(host.session(sid).exit.killed_by == "operator" for sid in ids)
    assert all(host.session(sid).exit.cleanup == "confirmed" for sid in ids)
    assert not host.closed


async def test_end_them_ends_every_session_not_only_those_the_list_shows(served, remote):
    host, _sock = served
    ids = [await start_background(host.call, "sleep 60", workdir="/tmp") for _ in range(30)]
    app = make_app(remote)
    async with run(app, SMALL) as pilot:
        table = app.query_one(SessionList)
        await until(pilot, lambda: len(table.ids) == 30, "every session listed")
        shown = [sid for sid in ids if any(sid in row for row in drawn(table))]
        assert 0 < len(shown) < 30  # at 80x24 the list shows only some of them at once
        dialog = await ask(pilot, app)
        assert "30 sessions still running" in str(dialog.question)
        await pilot.press("e")
        await until(pilot, lambda: not app.is_running, "the app to quit once they ended", timeout=60)
    assert [sid for sid in ids if host.session(sid).running] == []
    assert all(host.session(sid).exit.killed_by == "operator" for sid in ids)


async def test_cancel_stays_and_ends_nothing(served, remote):
    host, _sock = served
    sid = await start_background(host.call, "sleep 60", workdir="/tmp")
    app = make_app(remote)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: "1 running" in header(app), "the session counted")
        for key in ("c", "escape"):
            await ask(pilot, app)
            await pilot.press(key)
            await until(pilot, lambda: not isinstance(app.screen, QuitDialog), "the question gone")
            assert app.is_running and host.session(sid).running
        await ask(pilot, app)
        await pilot.press("d")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert host.session(sid).running
