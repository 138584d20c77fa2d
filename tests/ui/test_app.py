"""The app as a whole: the factory, the demo, the pipe log (the terminal's sizing: test_terminal_view.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.dialogs import ConfirmDialog
from openclaw_tui.ui.sessions.stream_log import StreamLog
from openclaw_tui.ui.settings import load_keymap

from .conftest import SIZE, new_host, start, until


async def test_demo_starts_the_example_sessions_and_quitting_ends_them():
    host = new_host()
    app = make_app(host, demo=True, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(host.sessions()) == 6, "the six demo sessions")
        sessions = host.sessions()
        assert {s.agent for s in sessions} == {"demo"}
        assert sorted(s.pty for s in sessions) == [False, False, True, True, True, True]
        await until(pilot, lambda: any(s.waiting_reason == "password-prompt" or s.waiting_for_input for s in sessions),
                    "a demo prompt waiting")
    assert host.closed and not any(s.running for s in sessions)


async def test_pipe_session_is_a_log_with_stderr_marked(app: DashboardApp, host):
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "echo to-stdout; echo to-stderr >&2; sleep 60")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        log = app.query_one(StreamLog)
        await until(pilot, lambda: ["stdout", "to-stdout"] in list(log._lines) and ["stderr", "to-stderr"]
                    in list(log._lines), "both streams in the log")
        assert app.query_one("#view-body").current == "stream"


async def test_keys_are_remapped_by_binding_id_from_the_config(tmp_path, host):
    config = tmp_path / "config.toml"
    config.write_text('[dashboard.keymap]\nkill = "ctrl+k"\nleave-type-through = "f12"\n')
    keymap = load_keymap(config)
    assert keymap == {"kill": "ctrl+k", "leave-type-through": "f12"}
    app = make_app(host, cursor_blink=False, keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, "cat", pty=True)
        await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is host.session(sid),
                    "the session selected")
        await pilot.press("t")
        await until(pilot, lambda: app.workspace.type_through, "type-through on")
        await pilot.press("ctrl+right_square_bracket", "x", "f12")  # the old leave key is typed through now
        await until(pilot, lambda: not app.workspace.type_through, "f12 to leave type-through")
        assert [r.preview for r in host.session(sid).inputs] == ["\x1dx"]  # keystrokes of one line: one record
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "ctrl+k to ask before killing")
        await pilot.press("escape")


def test_keymap_keys_may_be_written_as_typed(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[dashboard.keymap]\nleave-type-through = "ctrl+]"\nfilter = "ctrl+/, f3"\n')
    assert load_keymap(config) == {"leave-type-through": "ctrl+right_square_bracket", "filter": "ctrl+slash,f3"}


async def test_sigterm_ends_the_sessions_then_the_app(host):
    app = make_app(host, cursor_blink=False, handle_signals=True)
    async with app.run_test(size=SIZE):
        sid = await start(host, "sleep 60")
        session = host.session(sid)
        os.kill(os.getpid(), signal.SIGTERM)
        deadline = time.monotonic() + 20
        while app.is_running and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not app.is_running
    app.disarm_watchdog()
    assert host.closed and not session.running and session.exit.killed_by == "shutdown"


async def test_pipe_log_follows_new_output_unless_scrolled_up(app: DashboardApp, host, tmp_path):
    go = tmp_path / "go"
    async with app.run_test(size=SIZE) as pilot:
        sid = await start(host, f"seq 1 150; while [ ! -e {go} ]; do sleep 0.05; done; echo more; sleep 60")
        await until(pilot, lambda: app.workspace.select(sid), "the session selected")
        log = app.query_one(StreamLog)

        def last_shown() -> str:
            return log.render_line(log.size.height - 1).text.strip()

        await until(pilot, lambda: last_shown() == "150", "the log following to the last line")
        log.scroll_to(y=0, animate=False, immediate=True)  # the operator scrolls up to read
        go.touch()
        await until(pilot, lambda: ["stdout", "more"] in list(log._lines), "the new line in the log")
        await pilot.pause()
        assert log.scroll_offset.y == 0 and last_shown() != "more"
        log.scroll_end(animate=False, immediate=True)  # back at the bottom: following again
        await until(pilot, lambda: last_shown() == "more", "the log at the end again")
        other = await start(host, "seq 1 100; sleep 60")  # another session opens at its end too
        await until(pilot, lambda: app.workspace.select(other), "the other session selected")
        await until(pilot, lambda: last_shown() == "100", "the other log at its end")
