"""The header line: the counts, read apart and muted at zero, and what quitting does."""

from __future__ import annotations

from openclaw_tui.ui import make_app
from openclaw_tui.ui.header import SummaryHeader

from ..support.pilots import SIZE, SMALL, drawn, header, run, selected, until
from ..support.sessions import start_background


async def test_the_header_says_what_quitting_does(host):
    app = make_app(host, socket="/run/user/1000/openclaw-tui/host.sock")
    async with run(app, (160, 36)) as pilot:
        await until(pilot, lambda: header(app).rstrip().endswith(
            "attached to /run/user/1000/openclaw-tui/host.sock · q quits"), "nothing running: q quits")
        for _ in range(2):
            await start_background(host.call, "sleep 60", workdir="/tmp")
        await until(pilot, lambda: "q: keep running or end 2" in header(app), "the header saying what quitting asks")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: header(app).rstrip().endswith("attached · q: keep or end 2"), "shorter at 120")
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: header(app).rstrip().endswith(" q: keep/end 2"), "the short form at 80 columns")


async def test_the_header_reads_apart_and_mutes_zero_counts(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "echo done", workdir="/tmp")
        await until(pilot, lambda: "1 finished" in header(app), "the count")
        assert "◆ 0 waiting for input · 1 finished · 0 failed" in header(app)
        strip = app.query_one(SummaryHeader).render_lines(app.query_one(SummaryHeader).size.region)[0]
        def colour(word: str):
            return next(seg.style.color for seg in strip if word in seg.text and seg.style)

        assert colour("0 waiting") != colour("1 finished")  # muted (Textual draws dim as a blend)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        title = "".join(drawn(app.query_one("#view-title")))
        assert f"{sid} · echo done · operator · completed exit 0" in title, title
