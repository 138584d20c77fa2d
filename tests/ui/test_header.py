"""The header line: the counts, read apart and muted at zero, and what quitting does."""

from __future__ import annotations

from openclaw_tui.ui.header import SummaryHeader

from .conftest import SIZE, SMALL, drawn, header, run, selected, start, until


async def test_an_embedded_dashboard_says_how_many_sessions_quitting_ends(app, host):
    async with run(app, SIZE) as pilot:
        for _ in range(2):
            await start(host, "sleep 60")
        await until(pilot, lambda: "q ends 2 sessions" in header(app), "the header saying what quitting ends")
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: "q ends 2" in header(app), "the short form at 80 columns")


async def test_the_header_reads_apart_and_mutes_zero_counts(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start(host, "echo done")
        await until(pilot, lambda: "1 finished" in header(app), "the count")
        assert "◆ 0 waiting for input · 1 finished · 0 failed" in header(app)
        strip = app.query_one(SummaryHeader).render_lines(app.query_one(SummaryHeader).size.region)[0]
        def colour(word: str):
            return next(seg.style.color for seg in strip if word in seg.text and seg.style)

        assert colour("0 waiting") != colour("1 finished")  # muted (Textual draws dim as a blend)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        title = "".join(drawn(app.query_one("#view-title")))
        assert f"{sid} · echo done · operator · completed exit 0" in title, title
