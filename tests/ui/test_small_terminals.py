"""The dashboard on small terminals: dialogs that fit and wrap, rows kept for the session, the exit code
kept."""

from __future__ import annotations

from textual.widgets import Input, Label

from openclaw_tui.ui.dialogs import ConfirmDialog, NewCommandDialog, PasteDialog, QuitDialog, SendKeysDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SMALL, drawn, footer_actions, run, selected, until
from ..support.sessions import start_background


def says(lines: list[str], text: str) -> bool:
    """Whether ``lines`` (as drawn) hold ``text`` word for word, whatever the spacing: each line break falls
    between two words, or inside a word too long for a line (folded there)."""
    pieces = " ".join(lines).split()
    for word in text.split():
        folded = ""
        while pieces and len(folded) < len(word):
            folded += pieces.pop(0)
        if folded != word:
            return False
    return not pieces


async def test_every_dialog_fits_an_80x24_terminal(app, host):
    async with run(app, SMALL) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        for key, kind in (("n", NewCommandDialog), ("p", PasteDialog), ("k", SendKeysDialog), ("x", ConfirmDialog)):
            await pilot.press(key)
            dialog = await until(pilot, lambda: isinstance(app.screen, kind) and app.screen, kind.__name__)
            box = dialog.query_one(".dialog-box")
            await until(pilot, lambda: box.region.width > 0, f"{kind.__name__} laid out")
            assert app.screen.region.contains_region(box.region), (kind.__name__, box.region)
            for widget in box.query("Button, Input, TextArea"):
                assert box.region.contains_region(widget.region), (kind.__name__, widget, widget.region)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, kind), f"{kind.__name__} closed")


async def test_the_session_view_keeps_rows_on_a_60x15_terminal(app, host):
    async with run(app, (60, 15)) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: terminal.size.height >= 3, "a few rows for the session")
        await until(pilot, lambda: "quit" in footer_actions(app), "quit in the footer")


async def test_the_quit_question_wraps_every_id_inside_the_dialog(app, host):
    async with run(app, SMALL) as pilot:
        ids = [await start_background(host.call, "sleep 60", workdir="/tmp") for _ in range(6)]
        await until(pilot, lambda: set(app.query_one(SessionList).ids) == set(ids), "the sessions listed")
        await pilot.press("q")
        dialog = await until(pilot, lambda: isinstance(app.screen, QuitDialog) and app.screen, "the question")
        question = dialog.query_one("#quit-question", Label)
        box = dialog.query_one(".dialog-box")
        await until(pilot, lambda: question.size.height > 2, "the question laid out on several lines")
        assert box.region.contains_region(question.region)
        text = " ".join(drawn(question))
        assert all(sid in text for sid in ids), text
        assert "Keep them running on the host (detach), or end them?" in text
        buttons = [b.region for b in dialog.query("Button")]
        assert all(box.region.contains_region(b) for b in buttons) and len(buttons) == 3
        await pilot.press("c")
        await until(pilot, lambda: not isinstance(app.screen, QuitDialog), "the question gone, nothing ended")
        assert all(host.session(sid).running for sid in ids)


async def test_a_long_refusal_wraps_inside_the_new_command_dialog(app, host, tmp_path):
    async with run(app, SMALL) as pilot:
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
        dialog.query_one("#command", Input).value = "make test"
        missing = tmp_path / ("a-folder-with-a-rather-long-name-" * 2) / "missing"
        dialog.query_one("#workdir", Input).value = str(missing)
        await pilot.press("enter")
        again = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen is not dialog
                            and app.screen, "the dialog again, with the reason")
        error = again.query_one("#new-command-error", Label)
        await until(pilot, lambda: error.size.height > 1, "the reason on several lines")
        assert again.query_one(".dialog-box").region.contains_region(error.region)
        refusal = str(error.content)
        assert f"{str(missing)!r} does not exist or is not a directory" in refusal, refusal
        assert says(drawn(error), refusal), drawn(error)  # where its lines break depends on tmp_path's length
        await pilot.press("escape")


async def test_at_80_columns_the_exit_code_stays_and_name_and_agent_get_shorter(app, host):
    async with run(app, SMALL) as pilot:
        sid = await start_background(host.call, "sh -c 'echo a-rather-long-command-line; exit 3'",
                                     agent="an-agent-with-a-long-name", workdir="/tmp")
        await until(pilot, lambda: not host.session(sid).running, "the session ended")
        table = app.query_one(SessionList)
        row = await until(pilot, lambda: next((r for r in drawn(table) if sid in r and "exit 3" in r), None),
                          "the row with its exit code")
        assert "…" in row  # the name or agent was shortened to make room
        assert len(row) <= SMALL[0]
