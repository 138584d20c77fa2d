"""Pilot tests for the operator audit's findings: filters and selection, the leave key, exit toasts, small terminals."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from openclaw_tui.core.inputlog import HIDDEN_PREVIEW
from openclaw_tui.remote.mirror import RemoteHost
from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.bridge import SessionExited, SessionOutput, SessionsChanged
from openclaw_tui.ui.dialogs import ConfirmDialog, NewCommandDialog, PasteDialog, SendKeysDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.help import HelpDialog
from openclaw_tui.ui.sessions.list import SessionList

from .conftest import SIZE, screen_text, start, toasts, until


def selected(app: DashboardApp) -> str | None:
    return app.workspace.selected.id if app.workspace.selected else None


def title(app: DashboardApp) -> str:
    return str(app.query_one("#view-title").render())


async def test_text_filter_moves_the_selection_to_what_the_list_shows(app, host):
    async with app.run_test(size=SIZE) as pilot:
        alpha = await start(host, "sleep 60; echo alpha-job")
        beta = await start(host, "sleep 60; echo beta-job")
        table = app.query_one(SessionList)
        await until(pilot, lambda: set(table._ids) == {alpha, beta}, "both rows")
        await until(pilot, lambda: app.workspace.select(alpha) and selected(app) == alpha, "alpha selected")
        await pilot.press("slash", "b", "e", "t", "a", "enter")
        await until(pilot, lambda: table._ids == [beta], "only beta listed")
        await until(pilot, lambda: selected(app) == beta and beta in title(app), "the view following to beta")
        await pilot.press("x")  # kill asks about the session shown, never the hidden one
        dialog = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen, "the question")
        assert beta in dialog.question and alpha not in dialog.question
        await pilot.press("escape")


async def test_a_filter_that_hides_everything_leaves_no_session_to_act_on(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "sleep 60")
        table = app.query_one(SessionList)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("f", "f", "f", "f")  # running, waiting, finished, failed: nothing fails
        await until(pilot, lambda: table._ids == [], "no row")
        await until(pilot, lambda: selected(app) is None, "no session selected")
        assert "no session" in title(app)
        assert app.query_one("#view-body").current == "view-empty"
        await pilot.press("x")
        await until(pilot, lambda: any("No session selected" in t for t in toasts(app)), "the refusal")
        assert not isinstance(app.screen, ConfirmDialog) and host.session(sid).running
        await pilot.press("f")  # all again: the list and the view show it
        await until(pilot, lambda: selected(app) == sid and sid in title(app), "the session back")


def banner(app: DashboardApp) -> str:
    return str(app.query_one("#type-through-banner").render())


async def footer_key(pilot, app: DashboardApp, action: str) -> str:
    key = await until(pilot, lambda: next((k for k in app.query(FooterKey) if k.action == action), None),
                      f"{action} in the footer")
    return str(key.key_display)


async def type_through_on_cat(pilot, app: DashboardApp, host) -> str:
    """Start ``cat`` in a PTY, select it and enter type-through; returns its id."""
    sid = await start(host, "cat", pty=True)
    await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
    await pilot.press("t")
    await until(pilot, lambda: app.workspace.type_through and app.query_one("#type-through-banner").display,
                "type-through on")
    return sid


async def test_type_through_banner_names_the_default_leave_key(app, host):
    async with app.run_test(size=SIZE) as pilot:
        await type_through_on_cat(pilot, app, host)
        assert "press ctrl+] to leave" in banner(app)
        assert await footer_key(pilot, app, "leave_type_through") == "ctrl+]"
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not app.workspace.type_through, "type-through off")


async def test_type_through_banner_names_the_remapped_leave_key_as_the_footer_does(host):
    app = make_app(host, cursor_blink=False, keymap={"leave-type-through": "ctrl+g"})
    async with app.run_test(size=SIZE) as pilot:
        sid = await type_through_on_cat(pilot, app, host)
        shown = await footer_key(pilot, app, "leave_type_through")
        assert shown != "ctrl+]" and f"press {shown} to leave" in banner(app) and "ctrl+]" not in banner(app)
        await pilot.press("ctrl+g")
        await until(pilot, lambda: not app.workspace.type_through, "the remapped key to leave")
        assert not host.session(sid).inputs  # the leave key was not typed through


def inputs_line(app: DashboardApp) -> str:
    return str(app.query_one("#view-inputs").render())


async def test_attached_dashboard_shows_the_inputs_of_a_pty_session(served):
    host, sock = served
    sid = await start(host, "bash -c 'read -r a; read -r b; sleep 60'", agent="agent-a", pty=True)
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "from-agent\n"}, agent="agent-a")
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, cursor_blink=False, attached=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.workspace.select(sid) or selected(app) == sid, "the session selected")
        await until(pilot, lambda: "from-agent" in screen_text(app), "the echo drawn from the raw bytes")
        await until(pilot, lambda: "agent-a write from-agent" in inputs_line(app), "the agent's input listed")
        await pilot.press("t", "o", "k", "ctrl+right_square_bracket")
        await until(pilot, lambda: [(r.source, r.preview) for r in host.session(sid).inputs]
                    == [("agent-a", "from-agent\n"), ("operator", "ok")], "the keys recorded on the host, as one line")
        await until(pilot, lambda: "operator type ok" in inputs_line(app), "the operator's keys listed")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert host.session(sid).running


async def test_exit_toast_of_a_removed_session_says_how_it_ended(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "sleep 60")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: host.session(sid) is None, "the session removed")
        toast = await until(pilot, lambda: next((t for t in toasts(app) if sid in t), None), "the exit toast")
        assert "killed by SIG" in toast and "failed, failed" not in toast, toast


SMALL = (80, 24)


def footer_actions(app: DashboardApp) -> dict[str, FooterKey]:
    return {k.action: k for k in app.query(FooterKey)}


async def test_every_dialog_fits_an_80x24_terminal(app, host):
    async with app.run_test(size=SMALL) as pilot:
        sid = await start(host, "cat", pty=True)
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


async def test_the_main_keys_stay_in_the_footer_at_80_columns_and_help_lists_the_rest(app, host):
    async with app.run_test(size=SMALL) as pilot:
        sid = await start(host, "cat", pty=True)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        needed = {"new_command", "quit", "toggle_help", "type_through", "send_keys", "kill"}
        keys = await until(pilot, lambda: needed <= footer_actions(app).keys() and footer_actions(app), "the keys")
        for action in needed:
            assert keys[action].region.right <= SMALL[0], (action, keys[action].region)
        assert "remove" not in keys  # left out for room; the help lists it
        await pilot.press("question_mark")
        dialog = await until(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen, "the help")
        listed = str(dialog.query_one("#help-keys").render())
        assert all(what in listed for what in ("remove a session", "copy the screen", "clear a finished"))
        await pilot.press("question_mark")
        await until(pilot, lambda: not isinstance(app.screen, HelpDialog), "the help closed")


async def test_a_wide_footer_shows_every_key_and_no_help_key(app, host):
    async with app.run_test(size=(130, 36)) as pilot:  # every key, fit included, needs 126 columns
        sid = await start(host, "cat", pty=True)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        keys = await until(pilot, lambda: "remove" in footer_actions(app) and footer_actions(app), "every key")
        assert "toggle_help" not in keys and "new_command" in keys and "quit" in keys


async def test_the_session_view_keeps_rows_on_a_60x15_terminal(app, host):
    async with app.run_test(size=(60, 15)) as pilot:
        sid = await start(host, "cat", pty=True)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        terminal = app.workspace.view.terminal
        await until(pilot, lambda: terminal.size.height >= 3, "a few rows for the session")
        await until(pilot, lambda: "quit" in footer_actions(app), "quit in the footer")


async def test_host_messages_after_the_widgets_are_gone_do_not_fail_the_exit(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "sleep 60")
        await until(pilot, lambda: app.workspace.select(sid), "the session listed")
    # While the app closes its widgets go first; the host's last messages can still be in its queue.
    app.on_sessions_changed(SessionsChanged())
    app.on_session_output(SessionOutput(sid))
    app.on_session_exited(SessionExited(sid, {"sessionId": sid, "name": "sleep 60", "status": "failed"}, True))


async def test_host_messages_when_only_the_header_is_gone_do_not_fail_either(app, host):
    # the widgets are removed one by one, in no fixed order: the header may go before the workspace
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "sleep 60")
        await until(pilot, lambda: app.workspace.select(sid), "the session listed")
        await app.query_one(SummaryHeader).remove()
        app.on_sessions_changed(SessionsChanged())
        app.on_session_exited(SessionExited(sid, {"sessionId": sid, "name": "sleep 60", "status": "failed"}, True))


async def test_inputs_are_shown_by_their_recorded_preview_never_by_what_was_sent(app, host):
    """The host records input typed at a password prompt with a redacted preview; the UI shows that as is."""
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "stty -echo; echo ready; cat > /dev/null", pty=True)  # as at a password prompt
        await until(pilot, lambda: "ready" in host.session(sid).output.full_text(), "echo off")
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "hunter2\n"}, agent=None)
        assert host.session(sid).inputs[-1].preview == HIDDEN_PREVIEW  # the host redacts what it records
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await until(pilot, lambda: "operator write •••" in inputs_line(app), "the redacted preview listed as is")
        assert "hunter2" not in inputs_line(app)
        await pilot.press("t", "a", "b", "c", "ctrl+right_square_bracket")  # type-through at the same prompt
        await until(pilot, lambda: len(host.session(sid).inputs) == 2 and host.session(sid).inputs[-1].nbytes == 3,
                    "the keys recorded, as one record of the line")
        await until(pilot, lambda: f"operator type {HIDDEN_PREVIEW}   " in inputs_line(app), "the keys listed")
        assert HIDDEN_PREVIEW * 2 not in inputs_line(app)  # one mark for the run: no length given away
        await pilot.press("l")
        pane = app.workspace.view.log_pane
        await until(pilot, lambda: pane.details.get("inputs"), "the transcript")
        listed = str(pane.query_one("#log-inputs").render())
        assert "•••" in listed and "hunter2" not in listed and "hunter2" not in pane.text


NAME_PROMPT = "read -r -p 'Name? ' n; echo hello $n; sleep 60"


def waiting_toasts(app: DashboardApp, sid: str) -> int:
    """How many "waiting for input" toasts about ``sid`` are on screen."""
    return sum(sid in t and "waiting for input" in t for t in toasts(app))


async def test_typing_into_a_prompt_that_still_waits_is_not_announced_again(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "stty -echo; echo ready; cat > /dev/null", pty=True)  # a password-style prompt
        session = host.session(sid)

        await until(pilot, lambda: waiting_toasts(app, sid) == 1, "the waiting toast")
        for key in (b"a", b"b", b"c"):  # typed one by one, as in type-through; the line is not finished
            session.send(key, "operator", "type")
            await until(pilot, lambda: session.waiting_reason == "password-prompt", "still waiting")
            app.announcer.sessions_seen(host.sessions(), None)
        await pilot.pause()
        assert waiting_toasts(app, sid) == 1


async def test_typing_into_a_session_kept_by_the_waiting_filter_keeps_it_and_type_through(app, host):
    # the echo of a typed key makes the session busy for a moment: the "waiting" filter must not drop the
    # session being typed into, or type-through would end and later keys would act as dashboard commands
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, NAME_PROMPT, pty=True)
        session = host.session(sid)
        await until(pilot, lambda: session.waiting_reason is not None, "the prompt waiting")
        await pilot.press("f", "f")  # state filter: waiting
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("t", "a")
        await until(pilot, lambda: app.workspace.type_through and session.inputs, "the key typed through")
        await until(pilot, lambda: session.waiting_reason is None, "the session busy with the echo")
        app._sync()
        await pilot.pause()
        assert app.workspace.type_through and selected(app) == sid
        await pilot.press("b", "enter")
        await until(pilot, lambda: "hello ab" in session.output.full_text(), "the answer")
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not app.workspace.type_through, "type-through left")


async def test_no_waiting_toast_for_the_session_being_typed_into(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, NAME_PROMPT, pty=True)
        session = host.session(sid)

        await until(pilot, lambda: waiting_toasts(app, sid) == 1, "the first waiting toast")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("t")
        for key in ("a", "b"):  # each echo makes it busy, then it waits again: no news while typing into it
            await pilot.press(key)
            await until(pilot, lambda: session.waiting_reason is None, "busy with the echo")
            app._sync()
            await until(pilot, lambda: session.waiting_reason is not None, "waiting again")
            app._sync()
        await pilot.pause()
        assert waiting_toasts(app, sid) == 1


async def test_the_inputs_line_shows_the_newest_lines_first_by_their_end(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "cat", pty=True)
        session = host.session(sid)
        for key in "print(1+2)\r" + "x = 5\r" + "y = 'a long line typed into the program'":
            session.send(key.encode(), "operator", "type")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        app.workspace.view.refresh_info()
        line = inputs_line(app)
        assert line.index("…typed into the program'") < line.index("x = 5⏎") < line.index("print(1+2)⏎")


async def test_closing_the_log_pane_gives_the_arrows_back_to_the_list(app, host):
    async with app.run_test(size=SIZE) as pilot:
        older = await start(host, "sleep 60")
        newer = await start(host, "sleep 60")
        await until(pilot, lambda: app.workspace.select(newer) and selected(app) == newer, "the newest selected")
        await pilot.press("l")
        await until(pilot, lambda: app.workspace.view.log_mode, "the log pane open")
        await pilot.press("l", "down")
        await until(pilot, lambda: selected(app) == older, "the arrow moving the selection")
