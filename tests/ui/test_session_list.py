"""The session list: what a row says (a non-zero exit is a failure to the operator) and moving through it."""

from __future__ import annotations

from rich.style import Style

from openclaw_tui.ui.sessions.list import SessionList

from .conftest import SIZE, header, run, selected, start, until


async def test_a_non_zero_exit_reads_as_a_failure_to_the_operator_only(app, host):
    async with run(app, SIZE) as pilot:
        bad = await start(host, "sh -c 'exit 3'", agent="main")
        good = await start(host, "true", agent="main")
        await until(pilot, lambda: not host.session(bad).running and not host.session(good).running, "both ended")
        table = app.query_one(SessionList)
        await until(pilot, lambda: bad in table.ids, "listed")
        strip = next(table.render_line(y) for y in range(1, 3) if bad in table.render_line(y).text)
        exit_style = next(seg.style for seg in strip if seg.text.strip() == "exit 3")
        assert isinstance(exit_style, Style) and exit_style.color is not None and exit_style.color.name == "red"
        await until(pilot, lambda: "1 finished · 1 failed" in header(app), "counted as failed")
        await pilot.press("f", "f", "f", "f")  # failed
        await until(pilot, lambda: table.ids == [bad], "the failed filter keeps it")
        await pilot.press("f", "f", "f", "f")  # finished
        await until(pilot, lambda: table.ids == [good], "the finished filter does not")
        res = await host.call({"tool": "process", "action": "poll", "sessionId": bad}, agent="main")
        assert res["details"]["status"] == "completed"  # the contract's word for agents is unchanged


async def test_home_and_end_select_the_first_and_last_session(app, host):
    async with run(app, SIZE) as pilot:
        ids = [await start(host, "sleep 60") for _ in range(4)]  # listed newest first
        table = app.query_one(SessionList)
        await until(pilot, lambda: len(table.ids) == 4, "the sessions listed")
        await pilot.press("end")
        await until(pilot, lambda: selected(app) == ids[0], "the last (oldest) selected")
        await pilot.press("home")
        await until(pilot, lambda: selected(app) == ids[-1], "the first (newest) selected")
