"""The filter bar: text and state filters, what stays selected, and what an empty list says."""

from __future__ import annotations

from textual.widgets import Input

from openclaw_tui.ui.dialogs import ConfirmDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, drawn, run, selected, title, toasts, until
from ..support.sessions import start_background


async def test_text_filter_moves_the_selection_to_what_the_list_shows(app, host):
    async with run(app, SIZE) as pilot:
        alpha = await start_background(host.call, "sleep 60; echo alpha-job", workdir="/tmp")
        beta = await start_background(host.call, "sleep 60; echo beta-job", workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: set(table.ids) == {alpha, beta}, "both rows")
        await until(pilot, lambda: app.workspace.select(alpha) and selected(app) == alpha, "alpha selected")
        await pilot.press("slash", "b", "e", "t", "a", "enter")
        await until(pilot, lambda: table.ids == [beta], "only beta listed")
        await until(pilot, lambda: selected(app) == beta and beta in title(app), "the view following to beta")
        await pilot.press("x")  # kill asks about the session shown, never the hidden one
        dialog = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen, "the question")
        assert beta in dialog.question and alpha not in dialog.question
        await pilot.press("escape")


async def test_a_filter_that_hides_everything_leaves_no_session_to_act_on(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("f", "f", "f", "f")  # running, waiting, finished, failed: nothing fails
        await until(pilot, lambda: table.ids == [], "no row")
        await until(pilot, lambda: selected(app) is None, "no session selected")
        assert "no session" in title(app)
        assert app.query_one("#view-body").current == "view-empty"
        await pilot.press("x")
        await until(pilot, lambda: any("No session selected" in t for t in toasts(app)), "the refusal")
        assert not isinstance(app.screen, ConfirmDialog) and host.session(sid).running
        await pilot.press("f")  # all again: the list and the view show it
        await until(pilot, lambda: selected(app) == sid and sid in title(app), "the session back")


async def test_escape_clears_the_filter_and_an_empty_list_says_why(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: table.ids == [sid], "listed")
        await pilot.press("slash", "z", "z", "z")
        await until(pilot, lambda: table.ids == [], "nothing matches")
        text = "\n".join(drawn(table))
        assert "No session matches the filter (text 'zzz')" in text and "Escape" in text
        await pilot.press("escape")
        await until(pilot, lambda: table.ids == [sid], "the filter cleared")
        assert app.query_one("#filter-text", Input).value == "" and table.has_focus
