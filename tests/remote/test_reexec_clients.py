"""Clients through a re-exec of their host: ``openclaw-tui call`` and an agent's MCP server reconnect by themselves.

A call in flight when the host re-executes is sent again when it only reads (a timed poll comes back with
its answer), and otherwise fails saying the host restarted and to check with list/poll (a foreground exec
in its yield window: its run is kept, backgrounded, for list and poll to find). The MCP server reconnects
without being asked: an exit after the re-exec still reaches the agent as an MCP log message, and no result
claims that sessions were lost.
"""

from __future__ import annotations

import asyncio
import json
import subprocess

import mcp_types as types

from openclaw_tui.core.session import EventKind
from openclaw_tui.remote.mirror.remotehost import RemoteHost

from ..support.mcpclients import call, mcp_session, over_mcp, text
from ..support.serves import cli_call, waiting_for_the_host
from ..support.sessions import start_background
from ..support.waiting import wait_for


async def finished(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = await asyncio.to_thread(proc.communicate, timeout=90)
    return proc.returncode, out, err


async def test_call_sends_a_read_again_after_the_host_re_executed_during_it(serve) -> None:
    sid = await start_background(serve.call, "read x; echo got $x", pty=True, workdir=str(serve.workdir))
    polling = cli_call(serve, {"tool": "process", "action": "poll", "sessionId": sid, "timeout": 20000})
    await wait_for(lambda: waiting_for_the_host(polling.pid), 30, "the poll in flight")
    await serve.reexeced()
    await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "yes\n"})
    status, out, err = await finished(polling)
    assert status == 0, err
    assert json.loads(out)["details"]["sessionId"] == sid


async def test_call_of_a_foreground_exec_says_the_host_restarted_and_the_run_is_kept(serve) -> None:
    running = cli_call(serve, {"tool": "exec", "command": "touch started; sleep 30", "yieldMs": 60000})
    await wait_for(lambda: (serve.workdir / "started").exists() and waiting_for_the_host(running.pid), 30,
                   "the exec in its yield window")
    await serve.reexeced()
    status, out, err = await finished(running)
    assert status == 2 and out == "", (status, out, err)
    assert "restarted" in err and "check with list/poll" in err, err
    listed = (await serve.call({"tool": "process", "action": "list"}))["details"]["sessions"]
    assert [(s["name"], s["status"]) for s in listed] == [("touch started", "running")], listed


async def test_an_mcp_server_reconnects_by_itself_retries_a_read_and_fails_a_run_clearly(serve) -> None:
    logs: list[types.LoggingMessageNotificationParams] = []
    async with mcp_session(serve.sock, agent="main", logs=logs, cwd=serve.workdir) as session:
        quiet = await start_background(over_mcp(session), "read x; echo got $x", pty=True)
        later = await start_background(over_mcp(session), "read y; echo bye $y", pty=True)
        polling = asyncio.ensure_future(call(session, "process", action="poll", sessionId=quiet, timeout=20000))
        running = asyncio.ensure_future(call(session, "exec", command="touch started; sleep 30", yieldMs=60000))
        # the poll went out first on the server's one host connection: once the run started, the host has both
        await wait_for(lambda: (serve.workdir / "started").exists(), 30, "the exec in its yield window")
        await serve.reexeced()
        ran = await running
        assert ran.is_error and ran.structured_content["failureKind"] == "host-restarted", text(ran)
        assert "check with list/poll" in text(ran)
        await serve.call({"tool": "process", "action": "write", "sessionId": quiet, "data": "yes\n"})
        polled = await polling
        assert not polled.is_error and polled.structured_content["sessionId"] == quiet, text(polled)
        # nobody calls through the MCP server now: only a connection it made again by itself can hear this exit
        await serve.call({"tool": "process", "action": "write", "sessionId": later, "data": "now\n"})
        await wait_for(lambda: any(later in str(m.data) for m in logs), 30, "the exit notice as an MCP log message")
        listed = await call(session, "process", action="list")
        assert "gone" not in text(listed) and {quiet, later} <= {s["sessionId"] for s in listed.structured_content["sessions"]}


async def test_an_attached_dashboards_view_reconnects_resyncs_and_takes_input_after(serve) -> None:
    sid = await start_background(serve.call, "read x; echo got $x", pty=True, workdir=str(serve.workdir))
    remote = await RemoteHost.connect(serve.sock)
    heard: list[tuple[str, str]] = []
    remote.subscribe(lambda event: heard.append((event.kind, event.payload.to_json().get("link", ""))))
    try:
        session = remote.session(sid)
        assert session is not None
        seen: list[int] = []
        remove = session.add_raw_listener(lambda: seen.append(session.raw.end))  # a terminal view follows it
        await serve.reexeced()
        await wait_for(lambda: (EventKind.HOST_LINK, "reconnecting") in heard, 30, "the view to hear the link dropped")
        await wait_for(lambda: (EventKind.HOST_LINK, "live") in heard, 30, "the view to reconnect by itself")
        assert EventKind.HOST_GONE not in {kind for kind, _ in heard}
        assert remote.session(sid) is session and session.running  # the same object, resynced in place
        r = await remote.call({"tool": "process", "action": "list"})
        assert [s["sessionId"] for s in r["details"]["sessions"]] == [sid], r
        before = len(seen)
        await remote.send_input(sid, b"yes\r", "operator", "type")  # typing works after
        ended = await serve.ended(sid)
        assert ended["exitCode"] == 0 and "got yes" in await serve.log(sid)
        await wait_for(lambda: len(seen) > before and b"got yes" in session.raw.tail(4096)[1], 30,
                       "the raw stream followed again on the new connection")
        await wait_for(lambda: not session.running, 30, "the exit mirrored")
        remove()
    finally:
        await remote.close()
