"""Notices: which host changes are news (a session waiting for input, a session ended), how they merge, and
the line of their own they take."""

from __future__ import annotations

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import DEFAULT_INPUT_WAIT_MS
from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.dialogs import ConfirmDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.notices import NoticeLine
from openclaw_tui.ui.sessions.list import SessionList
from openclaw_tui.ui.sessions.rows import WAIT_MARK

from ..support.hosts import close_within
from ..support.pilots import SIZE, drawn, header, run, selected, sync_list, toasts, until
from ..support.sessions import start_background


async def test_exit_toast_of_a_removed_session_says_how_it_ended(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: host.session(sid) is None, "the session removed")
        toast = await until(pilot, lambda: next((t for t in toasts(app) if sid in t), None), "the exit toast")
        assert "killed by SIG" in toast and "failed, failed" not in toast, toast


NAME_PROMPT = "read -r -p 'Name? ' n; echo hello $n; sleep 60"


def waiting_toasts(app: DashboardApp, sid: str) -> int:
    """How many "waiting for input" toasts about ``sid`` are on screen."""
    return sum(sid in t and "waiting for input" in t for t in toasts(app))


async def test_typing_into_a_prompt_that_still_waits_is_not_announced_again(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "stty -echo; echo ready; cat > /dev/null", pty=True,
                                     workdir="/tmp")  # a password-style prompt
        session = host.session(sid)

        await until(pilot, lambda: waiting_toasts(app, sid) == 1, "the waiting toast")
        for key in (b"a", b"b", b"c"):  # typed one by one, as in type-through; the line is not finished
            await host.send_input(sid, key, "operator", "type")
            await until(pilot, lambda: session.waiting_reason == "password-prompt", "still waiting")
            await sync_list(pilot, app)
        await pilot.pause()
        assert waiting_toasts(app, sid) == 1


async def test_no_waiting_toast_for_the_session_being_typed_into(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, NAME_PROMPT, pty=True, workdir="/tmp")
        session = host.session(sid)

        await until(pilot, lambda: waiting_toasts(app, sid) == 1, "the first waiting toast")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("t")
        for key in ("a", "b"):  # each echo makes it busy, then it waits again: no news while typing into it
            await pilot.press(key)
            await until(pilot, lambda: session.waiting_reason is None, "busy with the echo")
            await sync_list(pilot, app)
            await until(pilot, lambda: session.waiting_reason is not None, "waiting again")
            await sync_list(pilot, app)
        await pilot.pause()
        assert waiting_toasts(app, sid) == 1


PROMPT = "read -r -p 'Name? ' n; echo hello $n; sleep 60"


async def test_notices_take_their_own_line_and_merge_sessions_that_start_waiting(app, host):
    async with run(app, SIZE) as pilot:
        ids = [await start_background(host.call, PROMPT, pty=True, workdir="/tmp") for _ in range(3)]
        line = app.query_one(NoticeLine)
        await until(pilot, lambda: line.current is not None and all(sid in line.current.text for sid in ids),
                    "one notice naming the three waiting sessions")
        assert "3 sessions wait for input" in line.current.text
        assert not app.query("Toast") and not app.query("ToastRack Toast")
        others = [app.query_one(SummaryHeader), app.query_one(SessionList), app.query_one("#view-title")]
        assert not any(line.region.overlaps(w.region) for w in others)
        await pilot.press("x")  # a dialog opens; a notice that arrives now is not drawn over it
        dialog = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen, "the question")
        app.notify("a notice while the dialog is open")
        await pilot.pause()
        assert not line.region.overlaps(dialog.query_one(".dialog-box").region)
        await pilot.press("n")


async def test_the_demo_starts_without_a_burst_of_notices(host):
    app = make_app(host, demo=True)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: len(host.sessions()) == 6, "the demo's sessions")
        await until(pilot, lambda: "◆ 3 waiting" in header(app), "its three prompts counted in the header", 30)
        await pilot.pause(0.3)
        assert not [t for t in toasts(app) if "wait" in t], toasts(app)


async def test_a_prompt_the_kernel_shows_blocked_is_news_long_before_the_idle_rule():
    # The other dashboard tests set a 1 s idle threshold, which would mark the prompt by itself; at the
    # default 15 s only the kernel's evidence (the program blocked reading its terminal) can do it sooner.
    host = ToolHost(env={}, config_path="/dev/null")
    assert host.supervisor.settings.exec.input_wait_ms == DEFAULT_INPUT_WAIT_MS == 15_000
    app = make_app(host)
    try:
        async with run(app, SIZE) as pilot:
            sid = await start_background(host.call, NAME_PROMPT, pty=True, workdir="/tmp")
            table = app.query_one(SessionList)

            def marked() -> bool:
                row = next((r for r in drawn(table) if sid in r), "")
                return (row.lstrip().startswith(WAIT_MARK) and "◆ 1 waiting" in header(app)
                        and waiting_toasts(app, sid) == 1)

            await until(pilot, marked, "the row marked, counted and announced", timeout=14)
            assert host.session(sid).idle_ms() < DEFAULT_INPUT_WAIT_MS  # so not by the idle rule
    finally:
        await close_within(host)
