"""The dashboard's share of attention: a waiting row shows what it asks, ``m`` mutes the selected session
(the mute column marks it, the host keeps it), and each notification rings the terminal."""

from __future__ import annotations

from openclaw_tui.ui.bell import passthrough, ring
from openclaw_tui.ui.sessions.list import SessionList
from openclaw_tui.ui.sessions.rows import MUTE_MARK

from ..support.pilots import SIZE, SMALL, run, selected, toasts, until
from ..support.sessions import start_background

QUESTION = "read -p 'Overwrite existing config? [y/N] ' a; sleep 60"


def rows(table: SessionList) -> list[str]:
    return [table.render_line(y).text for y in range(0, len(table.ids) + 1)]


async def test_a_waiting_row_shows_its_prompt_in_the_prompt_column(app, host):
    async with run(app, SIZE) as pilot:
        busy = await start_background(host.call, "sleep 60", agent="ci", workdir="/tmp")
        asking = await start_background(host.call, QUESTION, agent="main", pty=True, workdir="/tmp")
        table = app.query_one(SessionList)
        # the prompt's start: beside the cpu and mem columns the prompt is cut to its first 20 columns
        await until(pilot, lambda: any("Overwrite existing c" in r for r in rows(table)), "the prompt")
        head, *lines = rows(table)
        assert "prompt" in head.split()
        row = next(r for r in lines if asking in r)
        assert row.index("Overwrite") > row.index("waiting"), "after the status"
        assert "Overwrite" not in next(r for r in lines if busy in r)
        await host.call({"tool": "process", "action": "write", "sessionId": asking, "data": "n\n"}, agent="main")
        await until(pilot, lambda: "prompt" not in rows(table)[0].split(), "the column gone once nothing waits")


async def test_the_prompt_column_gives_way_on_a_small_terminal(app, host):
    async with run(app, SMALL) as pilot:
        asking = await start_background(host.call, QUESTION, agent="main", pty=True, workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: host.session(asking).prompt and "prompt" in rows(table)[0].split()
                    and any(asking in r and "Overwr" in r for r in rows(table)), "the column and the row")
        row = next(r for r in rows(table) if asking in r)
        assert "Overwr" in row and "waiting" in row and len(row.rstrip()) <= SMALL[0]


async def test_m_mutes_the_selected_session_and_m_again_unmutes_it(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", agent="main", workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        assert MUTE_MARK not in "".join(rows(table)), "no mute column while nothing is muted"
        await pilot.press("m")
        await until(pilot, lambda: host.session(sid).muted, "the host muting it")
        await until(pilot, lambda: MUTE_MARK in next(r for r in rows(table) if sid in r), "the mark")
        assert any(f"Muted session {sid}" in t for t in toasts(app))
        assert host.supervisor.mutes.sessions == {sid}
        await pilot.press("m")
        await until(pilot, lambda: not host.session(sid).muted, "unmuted")
        await until(pilot, lambda: MUTE_MARK not in "".join(rows(table)), "the mark gone")


async def test_each_notification_rings_the_terminal_and_a_muted_session_does_not(app, host):
    async with run(app, SIZE) as pilot:
        await host.mute(True, agent="night-bot")  # before its session can wait
        quiet = await start_background(host.call, QUESTION, agent="night-bot", pty=True, workdir="/tmp")
        loud = await start_background(host.call, QUESTION, agent="main", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.rung and host.session(quiet).prompt, "the bell, and both waiting")
        await until(pilot, lambda: not host.attention._pending, "the merge window closed")
        assert loud in app.rung[0] and app.rung[0].startswith("\a\x1b]9;") and app.rung[0].endswith("\a")
        assert not any(quiet in r for r in app.rung)
        assert not any(quiet in t and "waiting for input" in t for t in toasts(app)), "nor in the notice line"


def test_the_ring_sends_osc_777_where_it_is_known_and_passes_through_tmux() -> None:
    plain = ring("a (b) waits\x1b[31m", {"TERM": "xterm-256color"})
    assert plain == "\a\x1b]9;a (b) waits [31m\a"
    vte = ring("x; y", {"VTE_VERSION": "7200"})
    assert vte == "\a\x1b]9;x; y\a\x1b]777;notify;openclaw-tui;x, y\a"
    tmux = ring("z", {"TMUX": "/tmp/tmux-0/default,1,0"})
    assert tmux == "\a" + passthrough("\x1b]9;z\a") == "\a\x1bPtmux;\x1b\x1b]9;z\a\x1b\\"
