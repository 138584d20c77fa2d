"""Snapshot tests: the dashboard's main views at 120x36 with a frozen clock, fixed ids and fixed output.

Each view waits until the sessions' output is on screen and clears the notice line before the capture. The same
SVGs are copied to ``screenshots/`` by ``tests/ui/make_screenshots.py`` for the README.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from openclaw_tui.ui import DashboardApp
from openclaw_tui.ui.dialogs import ConfirmDialog, PasteDialog, SendKeysDialog
from openclaw_tui.ui.notices import NoticeLine
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, SMALL, ClosingApp, new_host, screen_text, until
from ..support.sessions import start_background

SOCKET = "/run/user/1000/openclaw-tui/host.sock"

QUESTION = "bash -c 'read -r -p \"Overwrite existing config? [y/N] \" a; echo \"answer: $a\"'"
COLOURS = (
    "printf '\\033[1;31mbold red\\033[0m \\033[32mgreen\\033[0m \\033[7mreverse\\033[0m \\033[4munderline\\033[0m "
    "\\033[38;5;208m256-colour orange\\033[0m \\033[38;2;100;150;250mtruecolour blue\\033[0m\\n'; "
    "printf '\\033[44;97m white on blue \\033[0m  wide: 漢字かな  \\033[3mitalic\\033[0m \\033[2mdim\\033[0m\\n'; "
    "printf 'build$ '; sleep 60"
)


def dashboard(wait_ms: int = 1000) -> DashboardApp:
    """A dashboard on a host of its own, named as the one serving a user's socket (it closes the host: the
    snapshot runs it on a loop of its own)."""
    return ClosingApp(new_host(wait_ms), attached_to=SOCKET)


async def settle(pilot: Pilot[Any]) -> None:
    """Clear the notice line and let the last frame paint."""
    pilot.app.query_one(NoticeLine).clear()
    await pilot.pause(0.2)


async def _prompt_session(pilot: Pilot[Any]) -> str:
    """A PTY session at a y/N prompt, selected, on screen, and already counted as waiting (notice shown)."""
    app = pilot.app
    sid = await start_background(app.host.call, QUESTION, agent="main", pty=True, workdir="/tmp")
    await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is app.host.session(sid),
                "the session selected")
    await until(pilot, lambda: "Overwrite" in screen_text(app), "the prompt on screen")
    await until(pilot, lambda: app.host.session(sid).waiting_for_input, "the session waiting")
    await until(pilot, lambda: app.host.session(sid).prompt, "its prompt read (the list shows it)")
    await until(pilot, lambda: "1 waiting" in str(app.query_one("#header").render()), "the header count")
    notices = app.query_one(NoticeLine)
    await until(pilot, lambda: notices.current is not None and sid in notices.current.text, "the notice")
    await settle(pilot)  # before any dialog opens
    return sid


async def _dialog_on_prompt(pilot: Pilot[Any], key: str, kind: type) -> Any:
    """The prompt session, then the dialog ``key`` opens on it."""
    await _prompt_session(pilot)
    await pilot.press(key)
    return await until(pilot, lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen, kind.__name__)


def test_empty_dashboard(snap_compare, frozen):
    assert snap_compare(dashboard(), terminal_size=SIZE)


def test_list_mixing_running_finished_failed_and_waiting(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        host = app.host
        done = await start_background(host.call, "echo 'built 42 objects'", agent="ci", workdir="/tmp")
        await until(pilot, lambda: not host.session(done).running, "the build to finish")
        failed = await start_background(host.call, "echo 'fetching artifacts'; kill -TERM $$", agent="deploy",
                                        workdir="/tmp")
        await until(pilot, lambda: not host.session(failed).running, "the deploy to fail")
        await start_background(host.call, "echo 'serving on :8080'; sleep 60", agent="web", workdir="/tmp")
        await _prompt_session(pilot)

    assert snap_compare(dashboard(), terminal_size=SIZE, run_before=run_before)


def test_pty_session_with_colours(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        sid = await start_background(app.host.call, COLOURS, pty=True,
                                     workdir="/tmp")  # idle PTY: a long threshold keeps it 'running'
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        await until(pilot, lambda: "build$" in screen_text(app), "the output on screen")
        await settle(pilot)

    assert snap_compare(dashboard(600_000), terminal_size=SIZE, run_before=run_before)


def test_send_keys_prompt_reporting_a_bad_token(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        dialog = await _dialog_on_prompt(pilot, "k", SendKeysDialog)
        field = dialog.query_one(Input)
        field.value = '"yes" Entr'
        await pilot.press("enter")
        await until(pilot, lambda: "Entr" in str(dialog.query_one("#send-keys-error").render()), "the error")
        await settle(pilot)

    assert snap_compare(dashboard(), terminal_size=SIZE, run_before=run_before)


def test_paste_dialog(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        dialog = await _dialog_on_prompt(pilot, "p", PasteDialog)
        dialog.query_one(TextArea).text = "first line\nsecond line"
        await settle(pilot)

    assert snap_compare(dashboard(), terminal_size=SIZE, run_before=run_before)


def test_kill_confirmation(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        await _dialog_on_prompt(pilot, "x", ConfirmDialog)
        await settle(pilot)

    assert snap_compare(dashboard(), terminal_size=SIZE, run_before=run_before)


def test_type_through_mode_shows_how_to_leave(snap_compare, frozen):
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        sid = await _prompt_session(pilot)
        await pilot.press("t", "y")
        await until(pilot, lambda: app.workspace.type_through, "type-through on")
        await until(pilot, lambda: "[y/N] y" in screen_text(app), "the typed key echoed")
        await until(pilot, lambda: "type y" in str(app.query_one("#view-inputs").render()), "the input recorded")
        session = app.host.session(sid)
        assert session.inputs[-1].source == "operator"
        # The echo made it busy for a moment; it settles back into waiting.
        await until(pilot, lambda: session.idle_ms() > 1500 and session.waiting_for_input, "the session waiting again")
        table = app.query_one(SessionList)
        await until(pilot, lambda: any(sid in line.text and "waiting" in line.text
                                       for line in table.render_lines(table.region.reset_offset)), "the row waiting")
        await until(pilot, lambda: "1 waiting" in str(app.query_one("#header").render()), "the header count")
        await settle(pilot)

    assert snap_compare(dashboard(), terminal_size=SIZE, run_before=run_before)


NUMBERED = ("for i in $(seq 1 300); do if [ $((i % 21)) = 0 ]; then printf 'line %d \\033[31merror\\033[0m here\\n' $i; "
            "else echo \"line $i\"; fi; done; sleep 60")


@pytest.mark.parametrize("size", [(120, 40), SMALL], ids=["120x40", "80x24"])
def test_history_searched_with_every_match_highlighted(snap_compare, frozen, size):
    """Scrolled back into a PTY run's history, searching ``error``: every match marked, the current one in its
    own colour, the count in the input and the notice row saying how far back the view stands."""
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        sid = await start_background(app.host.call, NUMBERED, pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        await until(pilot, lambda: "line 300" in screen_text(app), "the output on screen")
        await pilot.press("ctrl+f", *"error", "enter", "enter")
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: terminal.pager is not None and terminal.pager.ready, "the whole history")
        await until(pilot, lambda: str(app.query_one("#search-count").render()).strip() == "3/14", "the third match")
        await settle(pilot)

    assert snap_compare(dashboard(600_000), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [(120, 40), SMALL], ids=["120x40", "80x24"])
def test_zoomed_view(snap_compare, frozen, size):
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        sid = await start_background(app.host.call, COLOURS, pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        await until(pilot, lambda: "build$" in screen_text(app), "the output on screen")
        await pilot.press("z")
        await until(pilot, lambda: app.workspace.zoomed, "zoomed")
        await settle(pilot)

    assert snap_compare(dashboard(600_000), terminal_size=size, run_before=run_before)
