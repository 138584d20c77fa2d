"""Pilot tests of the approval queue: real requests from real exec calls, answered only by the operator's keys."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Input, Label, Select, Static

from openclaw_tui import ToolHost
from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui import make_app
from openclaw_tui.ui.dialogs import ApprovalQueue, DenyReason, PatternEditor
from openclaw_tui.ui.dialogs.approval_queue import row
from openclaw_tui.ui.sessions.rows import end_label

from ..support.approvals import asking_settings, pending
from ..support.hosts import close_within
from ..support.pilots import SIZE, footer_actions, header, run, toasts, until


def asking_host(approvals_file: Path) -> ToolHost:
    """A host that runs on the gateway and asks the operator for anything not on its allowlist."""
    return ToolHost(settings=asking_settings(approvals_file, ask="on-miss"))


@pytest.fixture
async def asking(tmp_path: Path):
    host = asking_host(tmp_path / "exec-approvals.json")
    host.start()
    yield host
    await close_within(host)


async def open_queue(pilot, app) -> ApprovalQueue:
    await pilot.press("a")
    return await until(pilot, lambda: isinstance(app.screen, ApprovalQueue) and app.screen, "the approval queue")


def queue_text(queue: ApprovalQueue) -> str:
    return str(queue.query_one("#approval-detail", Static).render()) + "\n" + "\n".join(
        str(o.prompt) for o in queue.query_one("#approval-list").options)


async def test_the_header_counts_requests_the_notice_line_announces_them_and_o_allows_once(asking, tmp_path):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: "approvals" in footer_actions(app), "the key in the footer")
        sid = await pending(asking.call, "echo allowed-once OPENAI_API_KEY=sk-secret")
        await until(pilot, lambda: "1 awaiting approval" in header(app), "the header's count")
        await until(pilot, lambda: any("Approval needed: main on local wants to run" in t and "(a opens the queue)" in t
                                       for t in toasts(app)), "the notice")
        assert not any("sk-secret" in t for t in toasts(app))  # the notice shows the masked command
        queue = await open_queue(pilot, app)
        shown = queue_text(queue)
        for part in ("main @ local", "/tmp", "OPENAI_API_KEY=***", "/usr/bin/echo", "is not on the allowlist",
                     "29:5"):
            assert part in shown, (part, shown)
        await pilot.press("enter")  # never a decision
        await until(pilot, lambda: "Enter never approves" in str(queue.query_one("#approval-error", Label).render()),
                    "the word that Enter does not approve")
        assert asking.session(sid).status == "approval-pending"
        await pilot.press("o")
        await until(pilot, lambda: asking.session(sid) is None or not asking.session(sid).running, "the run to end")
        res = await asking.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
        assert res["details"]["status"] == "completed" and "allowed-once" in res["text"]
        decision = asking.approval_history()[-1]["decision"]
        assert decision["state"] == "approved" and decision["via"] == "dashboard" and not decision["always"]
        await until(pilot, lambda: "awaiting approval" not in header(app), "the count to go")
        assert not (tmp_path / "exec-approvals.json").exists()  # allow once adds nothing to the allowlist


async def test_escape_closes_the_queue_without_deciding(asking):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        sid = await pending(asking.call, "echo waits")
        await open_queue(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalQueue), "the queue to close")
        assert asking.session(sid).status == "approval-pending" and len(asking.pending_approvals()) == 1


async def test_d_denies_with_a_reason_that_reaches_the_agent(asking):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        sid = await pending(asking.call, "echo denied")
        await open_queue(pilot, app)
        await pilot.press("d")
        dialog = await until(pilot, lambda: isinstance(app.screen, DenyReason) and app.screen, "the reason prompt")
        dialog.query_one("#deny-reason", Input).value = "not on a Friday"
        await pilot.press("enter")
        await until(pilot, lambda: not asking.session(sid).running, "the session to end")
        res = await asking.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
        assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "approval-denied"
        assert "it never ran" in res["text"] and "not on a Friday" in res["text"]
        assert end_label(asking.session(sid)) == "denied"  # the list's exit column: it never ran


def test_a_row_is_two_lines_cut_to_the_lists_width_however_long_the_command_and_why() -> None:
    request = {"approvalId": "ap-1", "expiresAtMs": 0, "agent": "builder", "cwd": "/tmp",
               "command": "git status && " * 20, "why": "`git status` is not on the allowlist; " * 10}
    lines = row(request, 60).split("\n")
    assert len(lines) == 2 and all(line.cell_len <= 60 for line in lines), lines
    assert lines[0].plain.endswith("…") and lines[1].plain.endswith("…")


async def test_allow_always_opens_the_pattern_editor_and_a_widened_pattern_allows_later_runs(asking, tmp_path):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        sid = await pending(asking.call, "printf %s first-run")
        await open_queue(pilot, app)
        await pilot.press("A")
        editor = await until(pilot, lambda: isinstance(app.screen, PatternEditor) and app.screen, "the pattern editor")
        select = editor.query_one("#keep-0", Select)
        assert select.value == 2  # prefilled: exactly these arguments
        assert "arguments ^%s\\ first\\-run$" in str(editor.query_one("#pattern-0", Label).render())
        select.value = 1  # this program, its first argument as given, then any
        await until(pilot, lambda: "( .*)?$" in str(editor.query_one("#pattern-0", Label).render()), "the preview")
        await pilot.press("enter")  # the editor allows only by ctrl+s or its button
        assert isinstance(app.screen, PatternEditor) or asking.session(sid).status == "approval-pending"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not asking.session(sid).running, "the approved run to end")
        listed = json.loads((tmp_path / "exec-approvals.json").read_text())["agents"]["main"]["allowlist"]
        assert [(e["pattern"].endswith("/printf"), e["argPattern"], e["source"]) for e in listed] == [
            (True, "^%s( .*)?$", "allow-always")]
    res = await asking.call({"tool": "exec", "command": "printf %s later-run", "workdir": "/tmp"}, agent="main")
    assert res["details"]["status"] == "completed" and res["text"].endswith("\n\nlater-run")  # matched: no request
    assert "[exit]" in res["text"] and "first-run" in res["text"]  # the approved run's exit notice came first


async def test_allow_always_is_not_offered_for_inline_code(asking):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        sid = await pending(asking.call, "python3 -c 'print(1)'")
        queue = await open_queue(pilot, app)
        assert "not offered: python -c runs inline code" in queue_text(queue)
        await pilot.press("A")
        await until(pilot, lambda: "Allow always is not offered" in str(queue.query_one("#approval-error").render()),
                    "the refusal")
        assert isinstance(app.screen, ApprovalQueue) and asking.session(sid).status == "approval-pending"


async def test_the_full_command_shows_control_and_bidirectional_characters(asking):
    app = make_app(asking)
    async with run(app, SIZE) as pilot:
        await pending(asking.call, "echo 'safe\u202e\x1b[2Jtxt.exe'")
        queue = await open_queue(pilot, app)
        shown = queue_text(queue)
        assert "\\u202e" in shown and "\\x1b[2J" in shown
        assert "\u202e" not in shown and "\x1b" not in shown


async def test_an_attached_dashboard_decides_on_the_host_which_records_the_dashboard(tmp_path, sock_dir):
    host = asking_host(tmp_path / "exec-approvals.json")
    host.start()
    server = HostServer(host, sock_dir / "host.sock")
    await server.start()
    mirror = await RemoteHost.connect(sock_dir / "host.sock")
    try:
        app = make_app(mirror)
        async with run(app, SIZE) as pilot:
            sid = await pending(host.call, "echo from-afar")
            res = await host.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
            assert res["details"]["operatorAttached"] is True  # the dashboard's mirror subscribed as an approver
            queue = await open_queue(pilot, app)
            await until(pilot, lambda: queue.requests, "the request mirrored")
            await pilot.press("o")
            await until(pilot, lambda: not host.session(sid).running, "the approved run")
        decision = host.approval_history()[-1]["decision"]
        assert decision["client"] == "openclaw-tui dashboard" and decision["pid"] and decision["via"] == "socket"
    finally:
        await mirror.close()
        await server.close()
        await close_within(host)
    await asyncio.sleep(0)


async def test_a_dashboard_up_before_its_mirror_syncs_announces_no_request_that_waited_already(tmp_path, sock_dir):
    """What waits at the first look is counted, not announced: the first look is at the host's requests, not
    at a mirror still connecting (which shows none)."""
    host = asking_host(tmp_path / "exec-approvals.json")
    host.start()
    server = HostServer(host, sock_dir / "host.sock")
    await server.start()
    mirror = RemoteHost(sock_dir / "host.sock")  # not connected yet: the dashboard's first ticks see it connecting
    try:
        await pending(host.call, "echo waited-before")
        app = make_app(mirror)
        async with run(app, SIZE) as pilot:
            mirror.start()
            await until(pilot, lambda: "1 awaiting approval" in header(app), "the header's count")
            await pilot.pause(0.3)
            assert not [t for t in toasts(app) if "Approval needed" in t]
    finally:
        await mirror.close()
        await server.close()
        await close_within(host)
