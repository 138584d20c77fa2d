"""The sessions' figures in the dashboard: the cpu and mem columns and their red warning, the info dialog,
the sort and agent filter keys, and re-running a session from the new-command dialog."""

from __future__ import annotations

from textual.widgets import Input, TextArea

from openclaw_tui.ui.dialogs import NewCommandDialog, SessionInfo
from openclaw_tui.ui.dialogs.session_info import info_text
from openclaw_tui.ui.sessions.list import SessionList
from openclaw_tui.ui.sessions.rows import CpuWarning, ordered

from ..support.pilots import SIZE, SMALL, drawn, header, run, select, until
from ..support.sessions import start_background

BUSY = "python3 -c 'while True: pass'"


def row_of(app, sid: str) -> str:
    return next((line for line in drawn(app.query_one(SessionList)) if sid in line), "")


async def test_the_cpu_and_mem_columns_show_a_busy_session_and_go_first_when_narrow(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, BUSY, agent="a", workdir="/tmp")
        listed = app.query_one(SessionList)
        await until(pilot, lambda: sid in listed.ids, "listed")
        head = drawn(listed)[0]
        assert "cpu" in head and "mem" in head
        await until(pilot, lambda: (cells := row_of(app, sid).split()) and any(
            c.endswith("%") and c[:-1].isdigit() and int(c[:-1]) >= 30 for c in cells), "its CPU in the row", 40)
        assert any(c[-1] in "KMG" and c[:-1].replace(".", "").isdigit() for c in row_of(app, sid).split())
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: "cpu" not in drawn(listed)[0], "no cpu column at 80 columns")
        assert "runtime" in drawn(listed)[0] and "mem" not in drawn(listed)[0]


async def test_a_session_over_the_cpu_warning_long_enough_shows_in_red(app, host):
    async with run(app, SIZE) as pilot:
        listed = app.query_one(SessionList)
        listed.cpu_warning = CpuWarning(20, after_s=1)  # the dashboard's is cpuWarn for 10 s
        sid = await start_background(host.call, BUSY, workdir="/tmp")
        await until(pilot, lambda: sid in listed._hot, "the session hot", 40)
        line = listed.render_line(1 + listed.ids.index(sid))
        assert any(seg.style is not None and seg.style.bgcolor is not None and seg.style.bgcolor.name == "red"
                   and seg.text.strip().endswith("%") for seg in line), list(line)


def test_the_warning_counts_ten_seconds_over_the_limit_in_a_row() -> None:
    class Seen:
        def __init__(self, cpu: float) -> None:
            self.id, self.running, self.status = "s", True, "running"
            self.resources = {"cpuPercent": cpu}

    warning = CpuWarning(90)
    assert warning.hot([Seen(95)], 0) == set() and warning.hot([Seen(99)], 9.9) == set()
    assert warning.hot([Seen(99)], 10) == {"s"}
    assert warning.hot([Seen(50)], 11) == set() and warning.hot([Seen(99)], 20) == set()  # a dip starts it again
    assert warning.hot([Seen(99)], 30) == {"s"}


async def test_info_shows_the_process_tree_ports_and_environment(app, host):
    async with run(app, SIZE) as pilot:
        listen = ("python3 -c 'import socket, time; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(); "
                  "print(\"port\", s.getsockname()[1], flush=True); time.sleep(300)'")
        sid = await start_background(host.call, f"sh -c 'sleep 300' & {listen}", workdir="/tmp",
                                     env={"SERVICE_TOKEN": "hunter2", "MODE": "dev"})
        await until(pilot, lambda: "port " in host.session(sid).output.full_text(), "the port printed")
        port = host.session(sid).output.full_text().split("port ")[1].split()[0]
        await select(pilot, app, sid)
        await until(pilot, lambda: host.session(sid).resources and any(
            str(p["port"]) == port for p in host.session(sid).resources["listening"]), "the port read", 40)
        await pilot.press("i")
        dialog = await until(pilot, lambda: isinstance(app.screen, SessionInfo) and app.screen, "the info dialog")
        body = str(dialog.query_one("#info-body").render())
        assert f"tcp {port}" in body and "sleep 300" in body and "python3 -c" in body
        assert "SERVICE_TOKEN=***" in body and "MODE=dev" in body and "hunter2" not in body
        assert "/tmp" in body and "containment" in body and "timeout" in body and "left" in body
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SessionInfo), "closed")


def test_the_info_trees_command_lines_are_cut_to_the_dialogs_width() -> None:
    """At 80x24 the dialog has 72 cells: a sandbox launcher's long command line stays on its own row."""
    launcher = "/usr/bin/bwrap " + "--ro-bind /dev/null /root/.netrc " * 20 + "-- bash -c 'top -d 2'"
    tree = [{"pid": 10 + depth, "ppid": 9 + depth, "command": launcher if depth < 2 else "top -d 2",
             "cpuPercent": 0.0, "rssBytes": 1 << 21, "state": "S"} for depth in range(3)]
    details = {"sessionId": "calm-fox", "resources": {"processes": 3, "tree": tree, "listening": []}}
    for width in (72, 96):
        rows = [line for line in info_text(details, width=width).plain.splitlines() if " 2M " in line]
        assert len(rows) == 3 and all(len(line) <= width for line in rows), rows
        assert rows[0].endswith("top -d 2'") and "bwrap" in rows[1] and rows[2].endswith("    top -d 2")


async def test_sort_cycles_the_order_and_the_agent_filter_counts_that_agents_sessions(app, host):
    async with run(app, SIZE) as pilot:
        busy = await start_background(host.call, BUSY, agent="a", workdir="/tmp")
        quiet = await start_background(host.call, "sleep 300", agent="b", workdir="/tmp")
        listed = app.query_one(SessionList)
        await until(pilot, lambda: listed.ids == [quiet, busy], "newest first")
        await pilot.press("S", "S")  # waiting first, then CPU
        await until(pilot, lambda: "sort: cpu" in str(app.query_one("#filter-order").render()), "the order shown")
        await until(pilot, lambda: listed.ids == [busy, quiet], "the busy one first", 40)
        assert ordered(app.sessions(), "runtime")[0].id == busy
        await pilot.press("S", "S", "S")  # memory, runtime, newest again
        await until(pilot, lambda: listed.ids == [quiet, busy], "newest first again")
        await pilot.press("at")
        await until(pilot, lambda: listed.ids == [busy], "agent a's only")
        await pilot.pause()
        assert "a: 1 running" in header(app), header(app)  # at once, not at the next tick (2 s)
        await until(pilot, lambda: "a: 1 running" in header(app), "the header counts agent a's")
        assert "end 2" in header(app), header(app)  # what quitting keeps or ends: every agent's sessions
        await pilot.press("at", "at")  # b, then all
        await until(pilot, lambda: listed.ids == [quiet, busy], "all agents")
        await until(pilot, lambda: "a:" not in header(app) and "2 running" in header(app), "every agent counted")


async def test_rerun_opens_the_dialog_filled_and_starts_a_new_session_for_the_operator(app, host):
    async with run(app, SIZE) as pilot:
        old = await start_background(host.call, "echo run $GREETING $API_TOKEN; sleep 300", agent="a",
                                     workdir="/tmp", pty=True, env={"GREETING": "hi", "API_TOKEN": "s3cret"})
        await select(pilot, app, old)
        await pilot.press("R")
        dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
        assert dialog.query_one("#command", Input).value.startswith("echo run")
        assert dialog.query_one("#workdir", Input).value == "/tmp" and dialog.query_one("#pty").value
        env = dialog.query_one("#env", TextArea)
        assert env.text.splitlines() == ["GREETING=hi", "API_TOKEN=***"]
        env.text = "GREETING=hello\nAPI_TOKEN=***"
        dialog.query_one("#command", Input).focus()
        await pilot.press("enter")
        new = await until(pilot, lambda: next((s.id for s in host.sessions() if s.rerun_of == old), None),
                          "the re-run")
        await until(pilot, lambda: "run hello s3cret" in host.session(new).output.full_text(), "its output")
        assert host.session(new).agent is None and host.session(old).running
