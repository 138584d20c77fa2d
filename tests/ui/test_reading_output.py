"""Reading a session's output in the dashboard: scrolling back through its history, searching it, selecting
it with the mouse and copying the selection, zooming the view, at 120x40 and 80x24.

Real hosts and real programs: a PTY run prints 300 numbered lines (every 21st says ``error`` in red, 14 in
all) and waits; the pipe view and the log view read a pipe run that prints the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.events import MouseScrollDown, MouseScrollUp
from textual.pilot import Pilot

from openclaw_tui.ui import DashboardApp
from openclaw_tui.ui.notices import NoticeLine
from openclaw_tui.ui.sessions.terminal_view import TerminalView

from ..support.pilots import SMALL, run, toasts, until
from ..support.sessions import start_background

BIG = (120, 40)
NUMBERED = ("for i in $(seq 1 300); do if [ $((i % 21)) = 0 ]; then printf 'line %d \\033[31merror\\033[0m here\\n' $i; "
            "else echo \"line $i\"; fi; done; sleep 120")
SIZES = pytest.mark.parametrize("size", [BIG, SMALL], ids=["120x40", "80x24"])


def rows(terminal: TerminalView) -> list[str]:
    return [terminal.render_line(y).text.rstrip() for y in range(terminal.size.height)]


def count(app: DashboardApp) -> str:
    return str(app.query_one("#search-count").render()).strip()


async def numbered(pilot: Pilot[Any], app: DashboardApp, pty: bool = True) -> str:
    """The numbered run, selected, its last line on view."""
    sid = await start_background(app.host.call, NUMBERED, pty=pty, workdir="/tmp")
    await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is not None
                and app.workspace.selected.id == sid, "the run selected")
    if pty:
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: any(r == "line 300" for r in rows(terminal)), "line 300 on view")
    else:
        stream = app.workspace.view.stream
        await until(pilot, lambda: "line 300" in stream.text(), "line 300 in the pipe view")
    return sid


@SIZES
async def test_pageup_scrolls_back_to_line_1_and_end_follows_again(app: DashboardApp, size):
    async with run(app, size) as pilot:
        sid = await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await pilot.press("pageup")
        await until(pilot, lambda: terminal.reading and "end follows" in rows(terminal)[-1], "the view scrolled back")
        assert rows(terminal)[-1].lstrip().startswith("−")  # "−21 lines · end follows"
        assert "line 300" not in rows(terminal)
        for _ in range(400 // max(1, terminal.size.height - 2)):
            await pilot.press("pageup")
        await until(pilot, lambda: rows(terminal)[0] == "line 1", "line 1 at the top: the whole history")
        assert rows(terminal)[1] == "line 2"
        app.host.session(sid).send(b"more\r", "operator", "type")  # output arrives: the view stays
        await pilot.pause(0.3)
        assert rows(terminal)[0] == "line 1"
        await pilot.press("end")
        await until(pilot, lambda: not terminal.reading and "line 300" in "\n".join(rows(terminal)), "live again")
        assert app.workspace.selected.id == sid  # end followed; it did not select the last session


async def test_the_wheel_scrolls_back_and_down_past_the_newest_follows(app: DashboardApp):
    async with run(app, BIG) as pilot:
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await pilot._post_mouse_events([MouseScrollUp], terminal, offset=(5, 5))  # Pilot has no wheel of its own
        await until(pilot, lambda: terminal.reading, "scrolled by the wheel")
        await until(pilot, lambda: "−3 lines" in rows(terminal)[-1], "three lines per notch")
        await pilot._post_mouse_events([MouseScrollDown], terminal, offset=(5, 5))
        await until(pilot, lambda: not terminal.reading, "down past the newest: live again")


async def test_type_through_returns_to_live(app: DashboardApp):
    async with run(app, BIG) as pilot:
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await pilot.press("pageup")
        await until(pilot, lambda: terminal.reading, "scrolled back")
        await pilot.press("t")
        await until(pilot, lambda: app.workspace.type_through and not terminal.reading, "typing, live")


@SIZES
async def test_search_highlights_every_match_counts_and_steps_with_wrap_around(app: DashboardApp, size):
    async with run(app, size) as pilot:
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await pilot.press("ctrl+f", *"error")
        await until(pilot, lambda: count(app).endswith("/14"), "14 matches counted")
        assert count(app) == "1/14"  # the newest first: line 294
        await until(pilot, lambda: "line 294 error here" in rows(terminal), "the newest match on view")
        shown = [r for r in rows(terminal)[:-1] if r]  # the last row: the notice
        first = int(shown[0].split()[1])
        assert [int(r.split()[1]) for r in shown] == list(range(first, first + len(shown)))  # a search, no filter
        pager = terminal.pager
        current = pager.found.current
        assert terminal.render_line(rows(terminal).index("line 294 error here")).text.startswith("line 294")
        await pilot.press("enter")
        await until(pilot, lambda: count(app) == "2/14", "enter: the next match back")
        assert pager.found.current != current
        await pilot.press("escape")  # the input closes; the view stays on the match
        await until(pilot, lambda: not app.workspace.view.query_one("#search").display, "the input closed")
        assert terminal.reading and "line 273 error here" in rows(terminal)
        for expected in range(3, 15):
            await pilot.press("n")
            await until(pilot, lambda e=expected: count(app) == f"{e}/14", f"match {expected}")
        assert "line 21 error here" in rows(terminal)
        await pilot.press("n")
        await until(pilot, lambda: count(app) == "1/14", "n wraps around to the newest")
        await pilot.press("N")
        await until(pilot, lambda: count(app) == "14/14", "N wraps back to the oldest")
        await pilot.press("escape")  # the second escape follows live
        await until(pilot, lambda: not terminal.reading and "line 300" in rows(terminal), "live again")


async def test_smart_case_and_a_regular_expression_toggle(app: DashboardApp):
    async with run(app, BIG) as pilot:
        await numbered(pilot, app)
        await pilot.press("ctrl+f", *"ERROR")
        await until(pilot, lambda: count(app) == "0/0", "no match: a capital letter makes case count")
        await pilot.press(*["backspace"] * 5, *"Error")
        await until(pilot, lambda: count(app) == "0/0", "none for Error either")
        await pilot.press(*["backspace"] * 5, *"line 2.1")
        await until(pilot, lambda: count(app) == "0/0", "plain text: a dot is a dot")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: count(app) == "1/10", "a regular expression: line 201, 211 ... 291")
        await pilot.press("ctrl+r", *["backspace"] * 8, *"LINE 2")
        await until(pilot, lambda: count(app) == "0/0", "capitals: case-sensitive")
        await pilot.press(*["backspace"] * 6, *"line 29")
        await until(pilot, lambda: count(app) == "1/11", "all lower case: either case (line 29, 290 ... 299)")


@SIZES
async def test_the_pipe_view_scrolls_back_searches_and_follows(app: DashboardApp, size):
    async with run(app, size) as pilot:
        await numbered(pilot, app, pty=False)
        stream = app.workspace.view.stream
        await pilot.press("pageup")
        await until(pilot, lambda: not stream.following, "the pipe view scrolled back")
        await until(pilot, lambda: "end follows" in stream.render_line(stream.size.height - 1).text, "the notice")
        await pilot.press("ctrl+f", *"error")
        first = await until(pilot, lambda: count(app).endswith("/14") and count(app), "14 matches in the pipe view")
        assert first != "1/14"  # scrolled back a page: the newest match at or above the view, not below it
        shown = int(first.split("/")[0])
        await pilot.press("enter")
        await until(pilot, lambda: count(app) == f"{shown + 1}/14", "enter: the next match back")
        await pilot.press("escape", "N")
        await until(pilot, lambda: count(app) == first, "N: the newer one again")
        number = stream.found.current.line
        assert "error" in stream.text_of(number)
        assert stream.scroll_y <= number - stream.dropped < stream.scroll_y + stream.size.height  # on view
        await pilot.press("escape")
        await until(pilot, lambda: stream.following and stream.found is None, "following again")


async def test_the_log_view_searches_too(app: DashboardApp):
    async with run(app, BIG) as pilot:
        await numbered(pilot, app, pty=False)
        await pilot.press("l")
        pane = app.workspace.view.log_pane
        await until(pilot, lambda: "line 300" in pane.text, "the log's tail")
        await pilot.press("ctrl+f", *"error")
        await until(pilot, lambda: count(app).endswith("/") is False and count(app).startswith("1/"),
                    "matches in the log page")
        assert pane.found is not None and all("error" in pane.line_text(m.line - pane.dropped)
                                              for m in pane.found.matches)


async def test_a_drag_selects_a_line_and_y_copies_the_selection(app: DashboardApp, private_runtime_dir):
    async with run(app, BIG) as pilot:
        sid = await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        row = rows(terminal).index("line 294 error here")
        # the clicks first: the copy's notice below takes a row of the view, and the lines move up
        await pilot.click(terminal, offset=(2, row), times=3)
        await until(pilot, lambda: terminal.selected_text() == "line 294 error here", "a triple-click: the line")
        await pilot.click(terminal, offset=(9, row), times=2)
        await until(pilot, lambda: terminal.selected_text() == "error", "a double-click: the word")
        await pilot.mouse_down(terminal, offset=(0, row))
        await pilot.hover(terminal, offset=(10, row))
        await pilot.mouse_up(terminal, offset=(10, row))
        await until(pilot, lambda: terminal.selected_text() == "line 294 er", "the drag's cells")
        await pilot.press("y")
        await until(pilot, lambda: any("selection" in t for t in toasts(app)), "the copy's notice")
        copies = list((private_runtime_dir / "openclaw-tui" / "copies").glob(f"{sid}-selection-*.txt"))
        assert len(copies) == 1 and copies[0].read_text() == "line 294 er"


@SIZES
async def test_zoom_gives_the_view_the_whole_workspace(app: DashboardApp, size):
    async with run(app, size) as pilot:
        for _ in range(5):
            await start_background(app.host.call, "sleep 120", workdir="/tmp")
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: len(app.workspace.query_one("#session-list")._ids) == 6, "six sessions")
        await pilot.pause(0.2)
        unzoomed = terminal.size.height
        if size == SMALL:
            assert unzoomed >= 9  # at least 8 program rows, and the notice row of a larger PTY
        await pilot.press("z")
        await until(pilot, lambda: terminal.size.height > unzoomed, "zoomed")
        if size == SMALL:
            assert terminal.size.height >= 20
        assert not app.workspace.query_one("#sessions").display or app.workspace.zoomed
        await pilot.press("z")
        await until(pilot, lambda: terminal.size.height == unzoomed, "back")


async def test_paging_back_draws_a_history_line_once_and_the_page_above_before_its_key(app: DashboardApp):
    async with run(app, BIG) as pilot:
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        await pilot.press("pageup")
        await until(pilot, lambda: terminal.pager is not None and terminal.pager.ready, "the whole history")
        await pilot.press("pageup")
        pager = terminal.pager
        assert pager is not None
        above = range(pager.top() - pager.rows, pager.top())
        await until(pilot, lambda: all(n in pager._strips for n in above), "the page above drawn ahead")
        kept = {n: pager._strips[n] for n in above}
        await pilot.press("pageup")
        await until(pilot, lambda: pager.top() == above[0] + 1, "a page back (a page is the view's rows less one)")
        assert rows(terminal)[0] == pager.line_text(pager.top()).rstrip()
        assert all(pager._strips[n] is kept[n] for n in above)  # shown as drawn ahead, not drawn again


@SIZES
async def test_on_the_alternate_screen_a_scroll_key_says_there_is_no_history_there(app: DashboardApp, size):
    async with run(app, size) as pilot:
        sid = await start_background(app.host.call, "seq 1 50; printf '\\033[?1049h\\033[Hon the alternate screen'; sleep 30",
                                     pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is not None
                    and app.workspace.selected.id == sid, "the program selected")
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: rows(terminal)[:1] == ["on the alternate screen"], "the alternate screen on view")
        await pilot.press("pageup")
        await until(pilot, lambda: terminal.reading and "no history here" in rows(terminal)[-1], "the row says why")
        assert "alternate screen" in rows(terminal)[-1] and "follows" in rows(terminal)[-1]
        assert rows(terminal)[0].startswith("on the alternate screen")  # the main screen's 50 lines stay under it
        await pilot.press("pageup")
        assert not any(row == "line 1" or row == "1" for row in rows(terminal))
        await pilot.press("end")
        await until(pilot, lambda: not terminal.reading, "live again")


@SIZES
async def test_the_copy_notice_does_not_move_the_view(app: DashboardApp, size):
    async with run(app, size) as pilot:
        await numbered(pilot, app)
        terminal = app.workspace.view.terminal
        region, before = terminal.region, rows(terminal)
        await pilot.press("y")
        await until(pilot, lambda: any(t.startswith("Copy:") for t in toasts(app)), "the copy's notice")
        notices = app.query_one("#notices")
        await until(pilot, lambda: notices.region.height >= 2, "a notice of two rows or more")
        assert terminal.region == region and rows(terminal) == before  # drawn over the view, not moving it
        app.query_one(NoticeLine).clear()
        await until(pilot, lambda: notices.region.height == 1, "the notice gone")
        assert terminal.region == region
