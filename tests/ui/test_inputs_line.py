"""The inputs line under a session: who sent what, newest first, keys by their names, never a password's
text."""

from __future__ import annotations

from openclaw_tui.core.session.inputlog import HIDDEN_PREVIEW

from ..support.pilots import SIZE, drawn, inputs_line, run, selected, until
from ..support.sessions import start_background


async def test_inputs_are_shown_by_their_recorded_preview_never_by_what_was_sent(app, host):
    """The host records input typed at a password prompt with a redacted preview; the UI shows that as is."""
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "stty -echo; echo ready; cat > /dev/null", pty=True,
                                     workdir="/tmp")  # as at a password prompt
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
        listed = pane.inputs_text
        assert "•••" in listed and "hunter2" not in listed and "hunter2" not in pane.text


async def test_the_inputs_line_shows_the_newest_lines_first_by_their_end(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        for key in "print(1+2)\r" + "x = 5\r" + "y = 'a long line typed into the program'":
            await host.send_input(sid, key.encode(), "operator", "type")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        line = await until(pilot, lambda: "program'" in (shown := inputs_line(app)) and shown, "the inputs listed")
        assert line.index("…typed into the program'") < line.index("x = 5⏎") < line.index("print(1+2)⏎")


async def test_the_inputs_line_names_keys(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "stty raw -echo; echo ready; cat > /dev/null", pty=True,
                                     workdir="/tmp")
        await until(pilot, lambda: "ready" in host.session(sid).output.full_text(), "raw mode")
        await host.call({"tool": "process", "action": "send-keys", "sessionId": sid, "keys": ["Up", "C-c", "F10"]},
                        agent=None)
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        line = await until(pilot, lambda: "send-keys" in (t := "".join(drawn(app.query_one("#view-inputs")))) and t,
                           "the input listed")
        assert "send-keys ↑^C F10" in line and "\\x1b" not in line, line
