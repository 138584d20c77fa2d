"""Pilot tests: every dashboard binding, driven by keys against real sessions on a real host."""

from __future__ import annotations

from textual.widgets import Checkbox, Input, Label, TextArea

from openclaw_tui.ui import DashboardApp
from openclaw_tui.ui.dialogs import ConfirmDialog, NewCommandDialog, PasteDialog, QuitDialog, SendKeysDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, run, screen_text, select, selected, toasts, until
from ..support.sessions import start_background

PROMPT = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


async def prompt_on_screen(pilot, app: DashboardApp, host) -> str:
    """A PTY session asking ``name?``, selected and drawn."""
    sid = await start_background(host.call, PROMPT, pty=True, workdir="/tmp")
    await select(pilot, app, sid)
    await until(pilot, lambda: "name?" in screen_text(app), "the prompt")
    return sid


async def test_new_command_dialog_starts_a_pty_session_and_selects_it(app, host):
    async with run(app, SIZE) as pilot:
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "dialog")
        dialog.query_one("#command", Input).value = PROMPT
        dialog.query_one("#workdir", Input).value = "/tmp"
        await pilot.press("enter")
        session = await until(pilot, lambda: host.sessions() and host.sessions()[0], "the new session")
        assert session.pty and session.agent is None and session.cwd == "/tmp"
        await until(pilot, lambda: selected(app) == session.id, "the new session selected")
        await until(pilot, lambda: "name?" in screen_text(app), "the prompt on the terminal view")


async def test_a_refused_command_comes_back_in_the_dialog_with_the_reason(app, host, tmp_path):
    async with run(app, SIZE) as pilot:
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "dialog")
        dialog.query_one("#command", Input).value = "make test"
        dialog.query_one("#workdir", Input).value = str(tmp_path / "missing")
        dialog.query_one("#pty", Checkbox).value = False
        await pilot.press("enter")
        again = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen is not dialog
                            and app.screen, "the dialog again")
        assert again.query_one("#command", Input).value == "make test"
        assert again.query_one("#workdir", Input).value == str(tmp_path / "missing")
        assert again.query_one("#pty", Checkbox).value is False
        assert "does not exist" in str(again.query_one("#new-command-error", Label).render())
        assert host.sessions() == []
        await pilot.press("escape")


async def test_send_keys_prompt_sends_tokens_and_refuses_a_bad_one(app, host):
    async with run(app, SIZE) as pilot:
        sid = await prompt_on_screen(pilot, app, host)
        await pilot.press("k")
        dialog = await until(pilot, lambda: isinstance(app.screen, SendKeysDialog) and app.screen, "prompt")
        dialog.query_one(Input).value = '"ada" Entr'
        await pilot.press("enter")
        error = dialog.query_one("#send-keys-error", Label)
        await until(pilot, lambda: "Entr" in str(error.render()), "the bad token reported")
        assert app.screen is dialog and not host.session(sid).inputs  # nothing was sent
        dialog.query_one(Input).value = '"ada" Enter'
        await pilot.press("enter")
        await until(pilot, lambda: "hello ada" in screen_text(app), "the answer echoed")
        record = host.session(sid).inputs[-1]
        assert (record.source, record.action) == ("operator", "send-keys")


async def test_submit_sends_enter(app, host):
    async with run(app, SIZE) as pilot:
        sid = await prompt_on_screen(pilot, app, host)
        await pilot.press("s")
        session = host.session(sid)
        await until(pilot, lambda: not session.running, "the session to finish")
        assert session.exit.code == 0 and session.inputs[-1].preview == "\r"


async def test_paste_is_raw_when_the_program_did_not_enable_bracketed_paste(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "bash -c 'read -r a; read -r b; echo \"[$a|$b]\"'", pty=True,
                                     workdir="/tmp")
        await select(pilot, app, sid)
        await pilot.press("p")
        dialog = await until(pilot, lambda: isinstance(app.screen, PasteDialog) and app.screen, "paste dialog")
        assert not dialog.bracketed
        dialog.query_one(TextArea).text = "one\ntwo\n"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "[one|two]" in host.session(sid).output.full_text(), "both lines read")
        assert host.session(sid).inputs[-1].action == "paste"


async def test_paste_is_bracketed_when_the_program_enabled_it(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "printf '\\033[?2004hready\\n'; cat -v", pty=True,
                                     workdir="/tmp")
        await select(pilot, app, sid)
        await until(pilot, lambda: host.session(sid).tracked_modes.bracketed_paste, "bracketed paste enabled")
        await pilot.press("p")
        dialog = await until(pilot, lambda: isinstance(app.screen, PasteDialog) and app.screen, "paste dialog")
        assert dialog.bracketed
        dialog.query_one(TextArea).text = "abc\n"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "^[[200~abc" in host.session(sid).output.full_text(), "bracketed text")


async def test_kill_asks_first_and_then_ends_the_process_group(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60 & sleep 60", workdir="/tmp")
        await select(pilot, app, sid)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog), "the dialog gone")
        assert host.session(sid).running
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation again")
        await pilot.press("y")
        session = host.session(sid)
        await until(pilot, lambda: not session.running, "the session to end")
        assert session.exit.killed_by == "operator" and session.exit.cleanup == "confirmed"


async def test_clear_drops_a_finished_session_and_refuses_a_running_one(app, host):
    async with run(app, SIZE) as pilot:
        done = await start_background(host.call, "echo finished", workdir="/tmp")
        await until(pilot, lambda: not host.session(done).running, "the first session to end")
        running = await start_background(host.call, "sleep 60", workdir="/tmp")
        await select(pilot, app, running)
        await pilot.press("c")
        await until(pilot, lambda: any("still running" in t for t in toasts(app)), "the refusal")
        await select(pilot, app, done)
        await pilot.press("c")
        await until(pilot, lambda: host.session(done) is None, "the session cleared")
        await until(pilot, lambda: done not in app.query_one(SessionList).ids, "the row gone")


async def test_remove_kills_a_running_session_after_confirmation(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "sleep 60", workdir="/tmp")
        await select(pilot, app, sid)
        session = host.session(sid)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: host.session(sid) is None, "the session removed")
        assert not session.running


async def test_copy_puts_the_screen_text_on_the_clipboard(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "echo copy-me-please; sleep 60", pty=True, workdir="/tmp")
        await select(pilot, app, sid)
        await until(pilot, lambda: "copy-me-please" in screen_text(app), "the output")
        await pilot.press("y")
        assert "copy-me-please" in app.clipboard
        pipe = await start_background(host.call, "echo from-a-pipe; sleep 60", workdir="/tmp")
        await select(pilot, app, pipe)
        await until(pilot, lambda: "from-a-pipe" in host.session(pipe).output.full_text(), "pipe output")
        await pilot.press("y")
        assert app.clipboard.strip() == "from-a-pipe"


async def test_log_pane_pages_like_the_agent_log_and_lists_who_sent_input(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "seq 1 500; read -r x; sleep 60", pty=True, workdir="/tmp")
        await until(pilot, lambda: "500" in host.session(sid).output.full_text(), "all lines")
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "typed\n"}, agent=None)
        await until(pilot, lambda: "typed" in host.session(sid).output.full_text(), "the echo")  # line 501
        await select(pilot, app, sid)
        await pilot.press("l")
        pane = app.workspace.view.log_pane
        await until(pilot, lambda: "[lines 301-500 of 501" in pane.text, "the last 200 lines")
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: "[lines 101-300 of 501" in pane.text, "the previous page")
        assert pane.details["inputs"][0]["source"] == "operator"
        await pilot.press("l")
        assert not app.workspace.view.log_mode


async def test_type_through_sends_every_key_and_ctrl_bracket_leaves(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "cat -v", pty=True, workdir="/tmp")
        await select(pilot, app, sid)
        await pilot.press("t")
        banner = app.query_one("#type-through-banner")
        await until(pilot, lambda: banner.display and app.workspace.type_through, "type-through on")
        await pilot.press("h", "i", "up", "f5", "ctrl+a", "alt+x", "q", "enter")
        expected = "hi^[[A^[[15~^A^[xq"
        await until(pilot, lambda: expected in host.session(sid).output.full_text(), "the keys echoed by cat -v")
        assert all(r.source == "operator" and r.action == "type" for r in host.session(sid).inputs)
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not app.workspace.type_through and not banner.display, "type-through off")
        await pilot.press("q")  # back to a dashboard key: quit asks because cat still runs
        await until(pilot, lambda: isinstance(app.screen, QuitDialog), "the quit question")
        await pilot.press("escape")


async def test_type_through_answers_a_prompt(app, host):
    async with run(app, SIZE) as pilot:
        await prompt_on_screen(pilot, app, host)
        await pilot.press("t", "b", "o", "b", "enter")
        await until(pilot, lambda: "hello bob" in screen_text(app), "the answer")
        await until(pilot, lambda: not app.workspace.type_through, "type-through left when the session ended")


async def test_filter_by_text_and_state(app, host):
    async with run(app, SIZE) as pilot:
        done = await start_background(host.call, "echo alpha-job", workdir="/tmp")
        running = await start_background(host.call, "sleep 60; echo beta-job", workdir="/tmp")
        await until(pilot, lambda: not host.session(done).running, "the first session to end")
        table = app.query_one(SessionList)
        await until(pilot, lambda: set(table.ids) == {done, running}, "both rows")
        await pilot.press("slash", "b", "e", "t", "a", "enter")
        await until(pilot, lambda: table.ids == [running], "only the text match")
        app.query_one("#filter-text", Input).value = ""
        await pilot.press("f")  # running
        await until(pilot, lambda: table.ids == [running], "only running")
        await pilot.press("f", "f")  # waiting, finished
        await until(pilot, lambda: table.ids == [done], "only finished")
        await pilot.press("f")  # failed
        await until(pilot, lambda: table.ids == [], "no failed session")


async def test_toasts_on_exit_and_on_waiting_for_input(app, host):
    async with run(app, SIZE) as pilot:
        await start_background(host.call, "kill -TERM $$", agent="main", workdir="/tmp")
        await until(pilot, lambda: any("failed" in t and "SIGTERM" in t for t in toasts(app)), "exit toast")
        sid = await start_background(host.call, PROMPT, pty=True, workdir="/tmp")
        await until(pilot, lambda: any(sid in t and "waiting for input" in t for t in toasts(app)), "waiting toast")
        header = str(app.query_one("#header").render())
        assert "1 waiting for input" in header


async def test_operator_and_agent_inputs_are_both_recorded(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "bash -c 'read -r a; read -r b; echo \"$a $b\"'",
                                     agent="main", pty=True, workdir="/tmp")
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "from-agent\n"}, agent="main")
        await select(pilot, app, sid)
        await pilot.press("t", "o", "k", "enter", "ctrl+right_square_bracket")
        session = host.session(sid)
        await until(pilot, lambda: not session.running, "the session to finish")
        assert [r.source for r in session.inputs][:2] == ["main", "operator"]
        line = str(app.query_one("#view-inputs").render())
        assert "main" in line and "operator" in line
        await pilot.press("l")
        pane = app.workspace.view.log_pane
        await until(pilot, lambda: "from-agent ok" in pane.text, "the transcript")
        assert {i["source"] for i in pane.details["inputs"]} == {"main", "operator"}


async def test_quit_without_running_sessions_exits_at_once(app, host):
    async with run(app, SIZE) as pilot:
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None or not app.is_running, "the app to exit")


async def test_quit_with_nothing_running_just_quits(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "true", workdir="/tmp")
        await until(pilot, lambda: not host.session(sid).running, "the session ended")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit without asking")


async def test_copy_outside_tmux_says_it_was_sent_to_the_terminal_and_saves_a_file(app, host, private_runtime_dir):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "echo copy-me-please; sleep 60", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await until(pilot, lambda: "copy-me-please" in app.workspace.view.terminal.screen_text(), "the output")
        await pilot.press("y")
        notice = await until(pilot, lambda: next((t for t in toasts(app) if t.startswith("Copy")), None), "the notice")
        saved = list((private_runtime_dir / "openclaw-tui" / "copies").glob(f"{sid}-screen-*.txt"))
        assert len(saved) == 1 and "copy-me-please" in saved[0].read_text()
        assert "Sent the screen" in notice and "OSC 52" in notice and str(saved[0]) in notice, notice
        assert "copy-me-please" in app.clipboard
        assert oct(saved[0].stat().st_mode & 0o777) == "0o600"
