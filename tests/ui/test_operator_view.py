"""Pilot tests for the dashboard as operators found it (issue 9, item 6): what the screen says, and where.

Each test reads what is drawn (a widget's rendered lines) or what the app posted, not private state.
"""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label
from textual.widgets._footer import FooterKey

from openclaw_tui.remote.mirror import RemoteHost
from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.dialogs import ConfirmDialog, NewCommandDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.help import HelpDialog
from openclaw_tui.ui.notices import NoticeLine
from openclaw_tui.ui.sessions.list import SessionList

from .conftest import SIZE, new_host, start, toasts, until

SMALL = (80, 24)
ROOT = Path(__file__).resolve().parents[2]
PROMPT = "read -r -p 'Name? ' n; echo hello $n; sleep 60"


def drawn(widget: Widget) -> list[str]:
    """The lines ``widget`` draws now (border included), as text."""
    return [strip.text for strip in widget.render_lines(widget.region.reset_offset)]


def selected(app: DashboardApp) -> str | None:
    return app.workspace.selected.id if app.workspace.selected else None


def header(app: DashboardApp) -> str:
    return "".join(drawn(app.query_one(SummaryHeader)))


async def test_the_quit_question_wraps_every_id_inside_the_dialog(app, host):
    async with app.run_test(size=SMALL) as pilot:
        ids = [await start(host, "sleep 60") for _ in range(6)]
        await until(pilot, lambda: set(app.query_one(SessionList).ids) == set(ids), "the sessions listed")
        await pilot.press("q")
        dialog = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen, "the question")
        question = dialog.query_one("#confirm-question", Label)
        box = dialog.query_one(".dialog-box")
        await until(pilot, lambda: question.size.height > 2, "the question laid out on several lines")
        assert box.region.contains_region(question.region)
        text = " ".join(drawn(question))
        assert all(sid in text for sid in ids), text
        assert "Quitting ends them all" in text
        await pilot.press("n")


async def test_a_long_refusal_wraps_inside_the_new_command_dialog(app, host, tmp_path):
    async with app.run_test(size=SMALL) as pilot:
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
        assert "does not exist" in " ".join(drawn(error)).replace("  ", " ")
        await pilot.press("escape")


async def test_notices_take_their_own_line_and_merge_sessions_that_start_waiting(app, host):
    async with app.run_test(size=SIZE) as pilot:
        ids = [await start(host, PROMPT, pty=True) for _ in range(3)]
        line = app.query_one(NoticeLine)
        await until(pilot, lambda: line.current is not None and all(sid in line.current.text for sid in ids),
                    "one notice naming the three waiting sessions")
        assert "3 sessions wait for input" in line.current.text
        assert not app.query("Toast") and not app.query("ToastRack Toast")
        others = [app.query_one(SummaryHeader), app.query_one(SessionList), app.query_one("#view-title")]
        assert not any(line.region.overlaps(w.region) for w in others)
        await pilot.press("x")  # a dialog opens; a notice that arrives now is not drawn over it
        dialog = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen, "the question")
        app.notify("a notice while the dialog is open")
        await pilot.pause()
        assert not line.region.overlaps(dialog.query_one(".dialog-box").region)
        await pilot.press("n")


async def test_the_demo_starts_without_a_burst_of_notices():
    host = new_host()
    app = make_app(host, demo=True, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(host.sessions()) == 6, "the demo's sessions")
        await until(pilot, lambda: "◆ 3 waiting" in header(app), "its three prompts counted in the header", 30)
        await pilot.pause(0.3)
        assert not [t for t in toasts(app) if "wait" in t], toasts(app)


async def test_an_attach_to_waiting_sessions_announces_none_and_says_it_is_attached(served):
    host, sock = served
    for _ in range(2):
        await start(host, PROMPT, pty=True)
    await wait_until_waiting(host, 2)
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, cursor_blink=False, attached=True, socket=sock)
    async with app.run_test(size=(200, 40)) as pilot:
        await until(pilot, lambda: "◆ 2 waiting" in header(app), "the waiting sessions counted")
        await pilot.pause(0.3)
        assert not [t for t in toasts(app) if "wait" in t]
        assert f"attached to {sock} · q detaches" in header(app)
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: header(app).rstrip().endswith("attached"), "the short form at 80 columns")
        keys = {k.action: k for k in app.query(FooterKey)}
        assert keys["quit"].description == "Detach"
        await pilot.press("q")  # detaches at once: no question, nothing ended
        await until(pilot, lambda: not app.is_running, "the dashboard gone")
    assert all(s.running for s in host.sessions())


async def wait_until_waiting(host, count: int) -> None:
    from ..waiting import wait_for

    await wait_for(lambda: sum(bool(s.waiting_reason or s.waiting_for_input) for s in host.sessions()) == count, 20,
                   "the prompts waiting")


async def test_an_embedded_dashboard_says_how_many_sessions_quitting_ends(app, host):
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await start(host, "sleep 60")
        await until(pilot, lambda: "q ends 2 sessions" in header(app), "the header saying what quitting ends")
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: "q ends 2" in header(app), "the short form at 80 columns")


async def test_the_header_reads_apart_and_mutes_zero_counts(app, host):
    async with app.run_test(size=SIZE) as pilot:
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


async def test_at_80_columns_the_exit_code_stays_and_name_and_agent_get_shorter(app, host):
    async with app.run_test(size=SMALL) as pilot:
        sid = await start(host, "sh -c 'echo a-rather-long-command-line; exit 3'", agent="an-agent-with-a-long-name")
        await until(pilot, lambda: not host.session(sid).running, "the session ended")
        table = app.query_one(SessionList)
        row = await until(pilot, lambda: next((r for r in drawn(table) if sid in r and "exit 3" in r), None),
                          "the row with its exit code")
        assert "…" in row  # the name or agent was shortened to make room
        assert len(row) <= SMALL[0]


async def test_a_non_zero_exit_reads_as_a_failure_to_the_operator_only(app, host):
    async with app.run_test(size=SIZE) as pilot:
        bad = await start(host, "sh -c 'exit 3'", agent="main")
        good = await start(host, "true", agent="main")
        await until(pilot, lambda: not host.session(bad).running and not host.session(good).running, "both ended")
        table = app.query_one(SessionList)
        await until(pilot, lambda: bad in table.ids, "listed")
        strip = next(table.render_line(y) for y in range(1, 3) if bad in table.render_line(y).text)
        exit_style = next(seg.style for seg in strip if seg.text.strip() == "exit 3")
        assert isinstance(exit_style, Style) and exit_style.color is not None and exit_style.color.name == "red"
        await until(pilot, lambda: "1 finished · 1 failed" in header(app), "counted as failed")
        await pilot.press("f", "f", "f", "f")  # failed
        await until(pilot, lambda: table.ids == [bad], "the failed filter keeps it")
        await pilot.press("f", "f", "f", "f")  # finished
        await until(pilot, lambda: table.ids == [good], "the finished filter does not")
        res = await host.call({"tool": "process", "action": "poll", "sessionId": bad}, agent="main")
        assert res["details"]["status"] == "completed"  # the contract's word for agents is unchanged


async def test_checkboxes_show_their_state_in_text(app, host):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
        box = dialog.query_one("#background", Checkbox)
        assert "x" in "".join(drawn(box))
        box.value = False
        await pilot.pause()
        assert "x" not in "".join(drawn(box)).replace("background", "")
        await pilot.press("escape")


async def test_the_inputs_line_names_keys(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "stty raw -echo; echo ready; cat > /dev/null", pty=True)
        await until(pilot, lambda: "ready" in host.session(sid).output.full_text(), "raw mode")
        await host.call({"tool": "process", "action": "send-keys", "sessionId": sid, "keys": ["Up", "C-c", "F10"]},
                        agent=None)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        line = await until(pilot, lambda: "send-keys" in (t := "".join(drawn(app.query_one("#view-inputs")))) and t,
                           "the input listed")
        assert "send-keys ↑^C F10" in line and "\\x1b" not in line, line


async def test_home_and_end_select_the_first_and_last_session(app, host):
    async with app.run_test(size=SIZE) as pilot:
        ids = [await start(host, "sleep 60") for _ in range(4)]  # listed newest first
        table = app.query_one(SessionList)
        await until(pilot, lambda: len(table.ids) == 4, "the sessions listed")
        await pilot.press("end")
        await until(pilot, lambda: selected(app) == ids[0], "the last (oldest) selected")
        await pilot.press("home")
        await until(pilot, lambda: selected(app) == ids[-1], "the first (newest) selected")


async def run_in_the_foreground(pilot, app: DashboardApp, command: str, pty: bool) -> None:
    """Start ``command`` from the new-command dialog with "background" unchecked."""
    await pilot.press("n")
    dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
    dialog.query_one("#command", Input).value = command
    dialog.query_one("#workdir", Input).value = "/tmp"
    dialog.query_one("#pty", Checkbox).value = pty
    dialog.query_one("#background", Checkbox).value = False
    await pilot.press("enter")


async def test_a_foreground_command_stays_listed_with_its_output_after_it_ends(app, host):
    async with app.run_test(size=SIZE) as pilot:
        await run_in_the_foreground(pilot, app, "echo fg-output-here", pty=False)
        session = await until(pilot, lambda: host.sessions() and host.sessions()[0], "the run")
        await until(pilot, lambda: not session.running, "the run ended")
        await until(pilot, lambda: selected(app) == session.id, "the run selected")
        await pilot.pause(0.3)
        assert host.session(session.id) is session and session.id in app.query_one(SessionList).ids
        assert "fg-output-here" in app.workspace.view.stream.text()


async def test_a_foreground_pty_command_takes_the_keys_at_once(app, host):
    async with app.run_test(size=SIZE) as pilot:
        await run_in_the_foreground(pilot, app, "cat", pty=True)
        await until(pilot, lambda: app.workspace.type_through, "type-through into the new run")
        await pilot.press("h", "i", "enter")
        session = host.sessions()[0]
        await until(pilot, lambda: "hi" in session.output.full_text(), "the keys reaching it")
        await pilot.press("ctrl+right_square_bracket")


async def test_help_lists_the_dashboards_keys_first_by_purpose(host):
    app = make_app(host, cursor_blink=False, keymap={"kill": "ctrl+k"})
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("question_mark")
        dialog = await until(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen, "the help")
        text = str(dialog.query_one("#help-keys").render())
        groups = [line for line in text.splitlines() if line and not line.startswith(" ")]
        assert groups[:5] == ["Sessions", "Input to the selected session", "Looking", "Finding", "Dashboard"]
        for keys, what in (("ctrl+]", "leave type-through"), ("ctrl+s", "send the paste"), ("[", "older lines"),
                           ("]", "newer lines"), ("ctrl+k", "kill"), ("home", "first session")):
            assert any(line.split()[:1] == [keys] and what in line for line in text.splitlines()), (keys, text)
        assert text.index("Dashboard") < text.index("move the focus")  # Textual's own keys come last
        await pilot.press("escape")


async def test_the_log_view_footer_and_the_readme_name_the_same_paging_keys(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "seq 1 5; sleep 60")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("l")
        keys = await until(pilot, lambda: {k.action: k for k in app.query(FooterKey) if k.action.startswith("page")}
                           or None, "the paging keys in the footer")
        shown = sorted((str(k.key_display), str(k.description)) for k in keys.values())
        assert shown == [("[", "Older"), ("]", "Newer")], shown
    readme = (ROOT / "README.md").read_text()
    assert "`[` older" in readme and "`]` newer" in readme


async def test_escape_clears_the_filter_and_an_empty_list_says_why(app, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "sleep 60")
        table = app.query_one(SessionList)
        await until(pilot, lambda: table.ids == [sid], "listed")
        await pilot.press("slash", "z", "z", "z")
        await until(pilot, lambda: table.ids == [], "nothing matches")
        text = "\n".join(drawn(table))
        assert "No session matches the filter (text 'zzz')" in text and "Escape" in text
        await pilot.press("escape")
        await until(pilot, lambda: table.ids == [sid], "the filter cleared")
        assert app.query_one("#filter-text", Input).value == "" and table.has_focus


async def test_copy_outside_tmux_says_it_was_sent_to_the_terminal_and_saves_a_file(app, host, private_runtime_dir):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "echo copy-me-please; sleep 60", pty=True)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await until(pilot, lambda: "copy-me-please" in app.workspace.view.terminal.screen_text(), "the output")
        await pilot.press("y")
        notice = await until(pilot, lambda: next((t for t in toasts(app) if t.startswith("Copy")), None), "the notice")
        saved = list((private_runtime_dir / "openclaw-tui" / "copies").glob(f"{sid}-screen-*.txt"))
        assert len(saved) == 1 and "copy-me-please" in saved[0].read_text()
        assert "Sent the screen" in notice and "OSC 52" in notice and str(saved[0]) in notice, notice
        assert "copy-me-please" in app.clipboard
        assert oct(saved[0].stat().st_mode & 0o777) == "0o600"
