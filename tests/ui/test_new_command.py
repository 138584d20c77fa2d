"""The new-command dialog: its checkboxes, and a run started from it kept with its output (and typed into
at once, in the foreground)."""

from __future__ import annotations

from textual.widgets import Checkbox

from openclaw_tui.ui.dialogs import NewCommandDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, drawn, run, run_in_the_foreground, selected, until


async def test_checkboxes_show_their_state_in_text(app, host):
    async with run(app, SIZE) as pilot:
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
        box = dialog.query_one("#background", Checkbox)
        assert "x" in "".join(drawn(box))
        box.value = False
        await pilot.pause()
        assert "x" not in "".join(drawn(box)).replace("background", "")
        await pilot.press("escape")


async def test_a_foreground_command_stays_listed_with_its_output_after_it_ends(app, host):
    async with run(app, SIZE) as pilot:
        await run_in_the_foreground(pilot, app, "echo fg-output-here", pty=False)
        session = await until(pilot, lambda: host.sessions() and host.sessions()[0], "the run")
        await until(pilot, lambda: not session.running, "the run ended")
        await until(pilot, lambda: selected(app) == session.id, "the run selected")
        await pilot.pause(0.3)
        assert host.session(session.id) is session and session.id in app.query_one(SessionList).ids
        assert "fg-output-here" in app.workspace.view.stream.text()


async def test_a_foreground_pty_command_takes_the_keys_at_once(app, host):
    async with run(app, SIZE) as pilot:
        await run_in_the_foreground(pilot, app, "cat", pty=True)
        await until(pilot, lambda: app.workspace.type_through, "type-through into the new run")
        await pilot.press("h", "i", "enter")
        session = host.sessions()[0]
        await until(pilot, lambda: "hi" in session.output.full_text(), "the keys reaching it")
        await pilot.press("ctrl+right_square_bracket")
