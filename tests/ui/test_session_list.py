"""The session list: what a row says (a non-zero exit is a failure to the operator) and moving through it."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from openclaw_tui.ui import make_app
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.sessions.list import SessionList
from openclaw_tui.ui.sessions.rows import WAIT_MARK

from ..support.pilots import SIZE, drawn, header, run, selected, until
from ..support.sessions import start_background


async def test_a_non_zero_exit_reads_as_a_failure_to_the_operator_only(app, host):
    async with run(app, SIZE) as pilot:
        bad = await start_background(host.call, "sh -c 'exit 3'", agent="main", workdir="/tmp")
        good = await start_background(host.call, "true", agent="main", workdir="/tmp")
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


async def marked_by_the_idle_rule_alone(app, host) -> None:
    """``sleep`` under a PTY: stdin writable and silent past the threshold (1 s here, the smallest the setting
    takes), but never reading its terminal, so the kernel shows nothing and only the idle rule calls it
    waiting. Its row must carry the mark and the header count it."""
    assert host.supervisor.settings.exec.input_wait_ms == 1000
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 300", pty=True, agent="main", workdir="/tmp")
        table = app.query_one(SessionList)

        def marked() -> bool:
            row = next((r for r in drawn(table) if sid in r), "")
            return row.lstrip().startswith(WAIT_MARK) and "◆ 1 waiting" in header(app)

        await until(pilot, marked, "the row marked and counted in the header")
        listed = (await host.call({"tool": "process", "action": "list"}, agent="main"))["details"]["sessions"]
        assert [(s["sessionId"], s["waitingForInput"], s["waitingReason"]) for s in listed] == [(sid, True, None)]
        await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")


async def test_a_session_waiting_by_the_idle_rule_alone_is_marked_and_counted(app, host):
    await marked_by_the_idle_rule_alone(app, host)


async def test_an_attached_dashboard_marks_and_counts_a_session_waiting_by_the_idle_rule(served, remote):
    await marked_by_the_idle_rule_alone(make_app(remote), served[0])


async def test_home_and_end_select_the_first_and_last_session(app, host):
    async with run(app, SIZE) as pilot:
        ids = [await start_background(host.call, "sleep 60",
                                      workdir="/tmp") for _ in range(4)]  # listed newest first
        table = app.query_one(SessionList)
        await until(pilot, lambda: len(table.ids) == 4, "the sessions listed")
        await pilot.press("end")
        await until(pilot, lambda: selected(app) == ids[0], "the last (oldest) selected")
        await pilot.press("home")
        await until(pilot, lambda: selected(app) == ids[-1], "the first (newest) selected")


def runs_led_by_blanks(widget: Widget) -> list[str]:
    """The runs of one style that start with blanks before their text, in what ``widget`` draws: an SVG
    renderer (the README's screenshots) drops such blanks and draws the text off its column."""
    strips: list[Strip] = widget.render_lines(widget.region.reset_offset)
    runs = (text for strip in strips for text, _, _ in Segment.simplify(strip))
    return [run for run in runs if run.startswith(" ") and run.strip()]


async def test_no_run_of_text_in_the_list_or_the_header_starts_with_blanks(app, host):
    # the header row, right-aligned runtimes, empty cells, a coloured status cell and its gap, the cursor row
    async with run(app, SIZE) as pilot:
        done = await start_background(host.call, "sh -c 'exit 3'", agent="ci", workdir="/tmp")
        await until(pilot, lambda: not host.session(done).running, "the run ended")
        await start_background(host.call, "sleep 60", agent="web", workdir="/tmp")
        table = app.query_one(SessionList)
        await until(pilot, lambda: len(table.ids) == 2 and "1 failed" in header(app), "both listed")
        assert runs_led_by_blanks(table) == [] and runs_led_by_blanks(app.query_one(SummaryHeader)) == []
