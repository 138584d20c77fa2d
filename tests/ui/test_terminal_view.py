"""The terminal widget's sizing: watching never resizes the agent's terminal; type-through and fit do.

Real hosts and real PTY programs: the program reports the size it gets (``stty size`` on each Enter), so
every assertion about a resize is also an assertion about what the program learned. An attached dashboard
(a ``RemoteHost`` on a served socket) is held to the same rules.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.sessions.terminal_view import TerminalView, _offset

from ..support.pilots import SIZE, detach, run, until
from ..support.sessions import start_background

SIZES = "stty size; while read line; do stty size; done"  # prints "rows cols" now and on each Enter
TALL = "seq 1 100; stty size; sleep 60"  # the cursor ends on the PTY's last row


def rendered(terminal: TerminalView) -> list[str]:
    """What the widget draws, row by row, as text."""
    return [terminal.render_line(y).text for y in range(terminal.size.height)]


async def _shown(pilot: Pilot[Any], app: DashboardApp, sid: str) -> TerminalView:
    await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is not None
                and app.workspace.selected.id == sid, "the session selected")
    terminal = app.workspace.view.terminal
    await until(pilot, lambda: terminal.live is not None and terminal.size.width > 0, "the terminal on view")
    return terminal


def test_a_larger_screen_is_shown_around_the_cursor_as_tmux_shows_a_larger_window() -> None:
    assert [_offset(c, 100, 40) for c in (0, 39, 40, 50, 60, 61, 99)] == [0, 0, 20, 30, 40, 60, 60]
    assert _offset(70, 50, 80) == 0  # the pane is larger: nothing to move


async def test_watching_never_resizes_the_pty_and_a_smaller_pane_says_what_it_shows(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, TALL, pty=True, workdir="/tmp")
        session = host.session(sid)
        terminal = await _shown(pilot, app, sid)
        assert terminal.size.height < 30
        await until(pilot, lambda: any("30 120" in row for row in rendered(terminal)), "the program's size shown")
        rows = rendered(terminal)
        assert session.pty_size == (120, 30)
        assert (terminal.live.screen.cols, terminal.live.screen.rows) == (120, 30)
        assert terminal.cropped and terminal.origin[1] > 0  # the cursor is on the last row: the bottom shows
        notice = rows[-1]
        assert "120x30 terminal, larger than the pane" in notice and "= fits it" in notice
        assert f"rows {terminal.origin[1] + 1}-30 shown" in notice
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: terminal.size.width == 100, "the pane to shrink")
        await pilot.pause(0.3)
        assert session.pty_size == (120, 30)  # still the program's own size


async def test_with_the_cursor_hidden_a_smaller_pane_shows_the_top(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "printf '\\033[?25l'; " + TALL, pty=True, workdir="/tmp")
        terminal = await _shown(pilot, app, sid)
        await until(pilot, lambda: any("30 120" in row for row in terminal.live.screen.display()), "all output")
        await pilot.pause(0.2)
        assert terminal.cropped and terminal.origin == (0, 0)
        assert rendered(terminal)[0] == terminal.live.screen.display()[0]


async def test_a_larger_pane_shows_the_pty_at_its_size_and_leaves_the_rest_blank(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, SIZES, pty=True, workdir="/tmp")
        session = host.session(sid)
        session.resize(40, 6)  # as an agent's own terminal, or another dashboard's fit, might be
        session.send(b"\r", "operator", "type")
        terminal = await _shown(pilot, app, sid)
        await until(pilot, lambda: any("6 40" in row for row in rendered(terminal)), "the program at 40x6")
        rows = rendered(terminal)
        assert not terminal.cropped
        assert all(row[40:].strip() == "" for row in rows)
        assert all(row.strip() == "" for row in rows[6:])


async def test_fit_resizes_the_pty_to_the_pane(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, SIZES, pty=True, workdir="/tmp")
        session = host.session(sid)
        terminal = await _shown(pilot, app, sid)
        await pilot.press("equals_sign")
        width, height = terminal.size
        await until(pilot, lambda: session.pty_size == (width, height), "the PTY at the pane's size")
        session.send(b"\r", "operator", "type")
        await until(pilot, lambda: any(f"{height} {width}" in row for row in rendered(terminal)),
                    "the program told the new size")
        assert not terminal.cropped


async def test_type_through_fits_the_pty_and_gives_its_size_back_when_it_ends(app: DashboardApp, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, SIZES, pty=True, workdir="/tmp")
        session = host.session(sid)
        terminal = await _shown(pilot, app, sid)
        await until(pilot, lambda: any("30 120" in row for row in rendered(terminal)), "the first size")
        await pilot.press("t")
        await until(pilot, lambda: terminal.type_through, "type-through on")
        await until(pilot, lambda: session.pty_size == tuple(terminal.size), "the PTY fitted to the pane")
        await pilot.press("enter")
        width, height = terminal.size
        await until(pilot, lambda: any(f"{height} {width}" in row for row in rendered(terminal)),
                    "the program told the pane's size")
        await pilot.resize_terminal(100, 34)
        await until(pilot, lambda: session.pty_size == tuple(terminal.size) and terminal.size.width == 100,
                    "the PTY following the pane while typing through")
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not terminal.type_through, "type-through off")
        await until(pilot, lambda: session.pty_size == (120, 30), "the earlier size given back")
        session.send(b"\r", "operator", "type")
        await until(pilot, lambda: (session.output.full_text().splitlines() or [""])[-1] == "30 120",
                    "the program told it has its size back")


async def test_an_attached_dashboard_never_resizes_by_watching_and_fits_on_request(served, remote):
    host, _sock = served
    sid = await start_background(host.call, SIZES, agent="agent-a", pty=True, workdir="/tmp")
    session = host.session(sid)
    app = make_app(remote)
    async with run(app, (80, 24)) as pilot:
        terminal = await _shown(pilot, app, sid)
        await until(pilot, lambda: any("30 120" in row for row in rendered(terminal)), "the size, drawn remotely")
        assert session.pty_size == (120, 30)
        assert (terminal.live.screen.cols, terminal.live.screen.rows) == (120, 30)
        assert "120x30 terminal" in rendered(terminal)[-1]
        await pilot.press("equals_sign")
        width, height = terminal.size
        await until(pilot, lambda: session.pty_size == (width, height), "the host's PTY fitted")
        await until(pilot, lambda: (terminal.live.screen.cols, terminal.live.screen.rows) == (width, height),
                    "the attached view following the size mark")
        session.send(b"\r", "operator", "type")
        await until(pilot, lambda: any(f"{height} {width}" in row for row in rendered(terminal)),
                    "the program's new size drawn remotely")
        await pilot.press("t")
        await until(pilot, lambda: terminal.type_through, "type-through on")
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not terminal.type_through, "type-through off")
        await until(pilot, lambda: session.pty_size == (width, height), "the size before type-through kept")
        await detach(pilot, app)
    assert session.running and session.pty_size == (width, height)
