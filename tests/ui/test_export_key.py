"""The dashboard's ``e``: the selected session's recording saved where the host keeps its state, the notice
saying where; and the log view listing the session's acts among its inputs."""

from __future__ import annotations

import json
from pathlib import Path

from ..support.pilots import SIZE, run, select, toasts, until
from ..support.sessions import start_background


async def test_e_saves_the_selected_sessions_recording_and_says_where(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "echo recorded-line; sleep 60", pty=True, workdir="/tmp")
        await until(pilot, lambda: "recorded-line" in host.session(sid).output.full_text(), "the output")
        await select(pilot, app, sid)
        await pilot.press("e")
        notice = await until(pilot, lambda: next((t for t in toasts(app) if "recording" in t), None), "the notice")
        path = Path(notice.split(" to ", 1)[1].strip())
        assert path.name.startswith(sid) and path.suffix == ".cast", notice
        header, *events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert header["version"] == 2 and any("recorded-line" in e[2] for e in events)
        pipe = await start_background(host.call, "echo from-a-pipe; sleep 60", workdir="/tmp")
        await until(pilot, lambda: "from-a-pipe" in host.session(pipe).output.full_text(), "the pipe's output")
        await select(pilot, app, pipe)
        await pilot.press("e")
        text = await until(pilot, lambda: next((t for t in toasts(app) if pipe in t and ".txt" in t), None),
                           "the pipe's notice")
        assert Path(text.split(" to ", 1)[1].strip()).read_text(encoding="utf-8").endswith("  from-a-pipe\n")


async def test_the_log_view_lists_the_sessions_acts_among_its_inputs(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "read -r x; sleep 60", pty=True, workdir="/tmp")
        host.session(sid).resize(90, 20, "operator")
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "typed\n"}, agent=None)
        await select(pilot, app, sid)
        await pilot.press("l")
        pane = app.workspace.view.log_pane
        await until(pilot, lambda: "resized" in pane.inputs_text, "the acts")
        listed = pane.inputs_text
        assert listed.index("started") < listed.index("resized") < listed.index("typed"), listed
        assert "90x20" in listed and "operator" in listed
