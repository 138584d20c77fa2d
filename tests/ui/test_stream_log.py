"""A pipe session's log: its streams told apart, and following the end unless the operator scrolled up."""

from __future__ import annotations

from openclaw_tui.ui import DashboardApp
from openclaw_tui.ui.sessions.stream_log import STDERR_STYLE, StreamLog

from ..support.pilots import SIZE, drawn, run, until
from ..support.sessions import start_background


async def test_pipe_session_is_a_log_with_stderr_marked(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "echo to-stdout; echo to-stderr >&2; sleep 60",
                                     workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        log = app.query_one(StreamLog)
        await until(pilot, lambda: {"to-stdout", "to-stderr"} <= {line.strip() for line in drawn(log)}, "both streams in the log")
        assert app.query_one("#view-body").current == "stream"
        colours = {line.text.strip(): {seg.style.color for seg in line if seg.style and seg.text.strip()}
                   for line in log.render_lines(log.region.reset_offset)}
        assert colours["to-stderr"] == {STDERR_STYLE.color} != colours["to-stdout"]


async def test_pipe_log_follows_new_output_unless_scrolled_up(app: DashboardApp, host, tmp_path):
    go = tmp_path / "go"
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call,
                                     f"seq 1 150; while [ ! -e {go} ]; do sleep 0.05; done; echo more; sleep 60",
                                     workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        log = app.query_one(StreamLog)

        def last_shown() -> str:
            return log.render_line(log.size.height - 1).text.strip()

        await until(pilot, lambda: last_shown() == "150", "the log following to the last line")
        log.scroll_to(y=0, animate=False, immediate=True)  # the operator scrolls up to read
        go.touch()
        await until(pilot, lambda: log.text().endswith("\nmore"), "the new line in the log")
        await pilot.pause()
        assert log.scroll_offset.y == 0 and last_shown() != "more"
        log.scroll_end(animate=False, immediate=True)  # back at the bottom: following again
        await until(pilot, lambda: last_shown() == "more", "the log at the end again")
        other = await start_background(host.call, "seq 1 100; sleep 60",
                                       workdir="/tmp")  # another session opens at its end too
        await until(pilot, lambda: app.workspace.select(other), "the other session selected")
        await until(pilot, lambda: last_shown() == "100", "the other log at its end")
