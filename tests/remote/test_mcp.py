"""``openclaw-tui mcp`` end to end: the SDK's own stdio client against the real command and a real host.

Each test runs ``python -m openclaw_tui mcp`` as a subprocess (the MCP client owns it), pointed at a private
socket through ``$OPENCLAW_TUI_SOCKET``, with a host served in-process by the test, or started by the MCP
server itself when none runs. Waits are on conditions with deadlines; timed polls do the waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from typing import Any

import jsonschema
import mcp_types as types
import psutil
import pytest
from mcp import ClientSession, stdio_client
from mcp.client.client import Client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from openclaw_tui import ToolHost
from openclaw_tui.core.tools.models import ACTIONS, ExecParams, ProcessParams
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.remote.wire.client import HostClient

from ..support.hosts import hosting
from ..support.mcpclients import DEADLINE_S, call, mcp_session, over_mcp, poll_until, server_params, text
from ..support.sessions import start_background
from ..support.waiting import wait_for


def ended(_: str, r: types.CallToolResult) -> bool:
    return r.structured_content["status"] != "running"


def running_programs(pid: int) -> set[str]:
    root = psutil.Process(pid)
    return {p.name() for p in (root, *root.children(recursive=True))}


# -- the protocol surface ---------------------------------------------------------------------------
async def test_initialize_lists_both_tools_with_schemas_from_the_models(served) -> None:
    _, sock = served
    async with (
        stdio_client(server_params(sock, "alice")) as (read, write),
        ClientSession(read, write) as session,
    ):
        init = await session.initialize()
        assert init.server_info.name == "openclaw-tui"
        assert init.capabilities.tools is not None and init.capabilities.logging is not None
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == {"exec", "process"}
    for name, model in (("exec", ExecParams), ("process", ProcessParams)):
        schema = tools[name].input_schema
        assert schema["type"] == "object"
        for field in model.model_fields:
            assert schema["properties"][field]["description"], f"{name}.{field} has no description"
        assert tools[name].output_schema["required"] == ["status"]
    assert tools["exec"].input_schema["required"] == ["command"]
    assert tools["process"].input_schema["properties"]["action"]["enum"] == list(ACTIONS)
    exec_doc, process_doc = tools["exec"].description, tools["process"].description
    for word in ("yieldMs", "background", "poll", "sleep", "pty"):
        assert word in exec_doc
    for action in ACTIONS:
        assert action in process_doc
    assert "timeout" in process_doc and "sleep" in process_doc


async def test_exec_schema_accepts_timeout_seconds_and_poll_waits_say_their_bound(served) -> None:
    """A client that checks arguments against the schema lets the spec's alias through, as the host does."""
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        exec_schema, process_schema = tools["exec"].input_schema, tools["process"].input_schema
        alias = exec_schema["properties"]["timeoutSeconds"]
        assert alias["type"] == exec_schema["properties"]["timeout"]["type"] == "number"
        assert "timeout" in alias["description"]
        jsonschema.validate({"command": "sleep 30", "timeoutSeconds": 1}, exec_schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"action": "poll", "sessionId": "x", "timeout": 30_001}, process_schema)
        jsonschema.validate({"action": "poll", "sessionId": "x", "timeout": 30_000}, process_schema)
        r = await call(s, "exec", command="sleep 30", timeoutSeconds=1)
        assert r.is_error and r.structured_content["failureKind"] == "timeout", text(r)


# -- the seeds' examples ----------------------------------------------------------------------------
async def test_exec_yields_then_poll_follows_it_to_completion(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        r = await call(s, "exec", command="sleep 1 && echo done", yieldMs=200)
        assert r.structured_content["status"] == "running" and not r.is_error
        assert "process" in text(r)
        out, last = await poll_until(s, r.structured_content["sessionId"], ended)
    assert "done" in out
    assert last.structured_content["status"] == "completed" and last.structured_content["exitCode"] == 0
    assert not last.is_error


async def test_background_build_reports_every_step(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), "for i in 1 2 3; do echo step $i; sleep 0.2; done")
        out, last = await poll_until(s, sid, ended)
    assert [line for line in out.splitlines() if line.startswith("step")] == ["step 1", "step 2", "step 3"]
    assert last.structured_content["exitCode"] == 0


async def test_write_answers_a_prompt_in_a_pty(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), 'read -p "Continue? [y/N] " a; echo got $a', pty=True)
        await poll_until(s, sid, lambda out, _: "Continue?" in out)
        r = await call(s, "process", action="write", sessionId=sid, data="y\n")
        assert not r.is_error, text(r)
        out, last = await poll_until(s, sid, ended)
    assert "got y" in out and last.structured_content["exitCode"] == 0


async def test_send_keys_ctrl_c_interrupts_a_pty_sleep(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        r = await call(s, "exec", command="sleep 60", pty=True, background=True)
        sid, pid = r.structured_content["sessionId"], r.structured_content["pid"]
        # As an agent would, press C-c at a running program, not at its launcher still starting up.
        await wait_for(lambda: "sleep" in running_programs(pid), what="sleep to be running")
        r = await call(s, "process", action="send-keys", sessionId=sid, keys=["C-c"])
        assert not r.is_error, text(r)
        _, last = await poll_until(s, sid, ended)
    assert last.structured_content["exitSignal"] == "SIGINT"
    assert last.structured_content["status"] == "failed" and last.is_error


async def test_submit_presses_enter_for_a_typed_answer(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), 'read -p "Name? " n; echo hello $n', pty=True)
        await poll_until(s, sid, lambda out, _: "Name?" in out)
        await call(s, "process", action="write", sessionId=sid, data="ada")
        r = await call(s, "process", action="submit", sessionId=sid)
        assert not r.is_error, text(r)
        out, _ = await poll_until(s, sid, ended)
    assert "hello ada" in out


async def test_paste_reaches_a_pty_cat(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), "cat", pty=True)
        r = await call(s, "process", action="paste", sessionId=sid, text="line1\nline2\n")
        assert not r.is_error, text(r)
        # The terminal echoes each line and cat prints it again.
        out, _ = await poll_until(s, sid, lambda out, _: out.count("line2") >= 2)
        assert out.count("line1") >= 2
        r = await call(s, "process", action="kill", sessionId=sid)
        assert not r.is_error, text(r)


# -- scope, bad input, notifications ---------------------------------------------------------------
async def test_agents_cannot_reach_each_others_sessions(served) -> None:
    host, sock = served
    async with mcp_session(sock, "alice") as alice, mcp_session(sock, "bob") as bob:
        sid = await start_background(over_mcp(alice), "cat", pty=True)
        listed = await call(bob, "process", action="list")
        assert sid not in text(listed) and not listed.structured_content.get("sessions")
        for action, extra in (("poll", {}), ("log", {}), ("write", {"data": "x"}), ("kill", {})):
            r = await call(bob, "process", action=action, sessionId=sid, **extra)
            assert r.is_error and r.structured_content["failureKind"] == "unknown-session", (action, text(r))
        mine = await call(alice, "process", action="list")
        assert sid in text(mine)
        assert (await call(alice, "process", action="poll", sessionId=sid)).structured_content[
            "status"
        ] == "running"
    # Without --agent the scope is the client's name from initialize.
    async with mcp_session(sock, name="carol") as carol:
        sid = await start_background(over_mcp(carol), "sleep 30")
    assert host.session(sid).agent == "carol"


async def test_malformed_calls_are_error_results_and_the_server_keeps_serving(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        r = await call(s, "process", action="nope")
        assert r.is_error and "unknown action 'nope'" in text(r) and "send-keys" in text(r)
        r = await call(s, "exec")
        assert r.is_error and "missing required parameter 'command'" in text(r)
        r = await call(s, "exec", command="true", yieldMs="soon")
        assert r.is_error and "yieldMs" in text(r)
        r = await s.call_tool("shell", {"command": "ls"})
        assert r.is_error and "unknown tool 'shell'" in text(r) and "exec, process" in text(r)
        r = await call(s, "exec", command="echo still here")
        assert not r.is_error and r.structured_content["status"] == "completed"
        assert "still here" in text(r)


async def test_junk_on_the_wire_is_a_protocol_error_not_a_crash(served) -> None:
    _, sock = served
    proc = await asyncio.create_subprocess_exec(
        *[server_params(sock, "alice").command, *server_params(sock, "alice").args],
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env=dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock)),
    )
    assert proc.stdin is not None and proc.stdout is not None
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    }
    lines: list[Any] = [
        "this is not json",
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "exec", "arguments": "ls"}},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "exec", "arguments": {"command": "echo ok"}},
        },
    ]
    for line in lines:
        proc.stdin.write((line if isinstance(line, str) else json.dumps(line)).encode() + b"\n")
    await proc.stdin.drain()
    replies = {}
    while len(replies) < 3:
        msg = json.loads(await asyncio.wait_for(proc.stdout.readline(), DEADLINE_S))
        replies[msg.get("id")] = msg
    proc.stdin.close()
    assert await asyncio.wait_for(proc.wait(), DEADLINE_S) == 0
    assert replies[1]["result"]["serverInfo"]["name"] == "openclaw-tui"
    assert replies[2]["error"]["code"] == -32602  # arguments must be an object: invalid params
    assert replies[3]["result"]["structuredContent"]["status"] == "completed"
    assert "ok" in replies[3]["result"]["content"][0]["text"]


async def test_exit_notification_reaches_only_its_agent_as_a_log_message(served) -> None:
    _, sock = served
    alice_logs: list[Any] = []
    bob_logs: list[Any] = []
    async with (
        mcp_session(sock, "alice", logs=alice_logs) as alice,
        mcp_session(sock, "bob", logs=bob_logs) as bob,
    ):
        ok = await start_background(over_mcp(alice), "sleep 0.2; echo finished")
        bad = await start_background(over_mcp(alice), "sleep 0.3; no-such-command-xyz")
        await wait_for(lambda: len(alice_logs) >= 2, what="two exit notifications")
        by_session = {sid: log for log in alice_logs for sid in (ok, bad) if sid in log.data}
        assert by_session[ok].level == "info" and "finished" in by_session[ok].data
        assert by_session[bad].level == "warning" and "failed" in by_session[bad].data
        assert all(log.logger == "openclaw-tui" for log in alice_logs)
        await call(bob, "process", action="list")  # a round trip on bob's side after the events went out
        assert bob_logs == []
        # The host also puts the queued notices at the top of the next result: once, not twice.
        r = await call(alice, "process", action="list")
        assert text(r).count(f"[exit] {ok} ") == 1


async def test_exit_notification_rides_an_open_call_on_a_2026_connection(served) -> None:
    _, sock = served
    logs: list[Any] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    client = Client(server_params(sock, "alice"), mode="auto", log_level="info", logging_callback=on_log)
    async with client:
        assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
        sid = await start_background(over_mcp(client.session), "sleep 0.5; echo bye")
        # A foreground call is still open when the background job ends: the notice rides its stream.
        r = await client.call_tool("exec", {"command": "sleep 2; echo fg", "yieldMs": 10000})
        assert "fg" in text(r)
        assert any(sid in log.data for log in logs), logs


# -- the host's lifetime ------------------------------------------------------------------------------
async def test_a_vanished_host_gives_failed_results_and_a_returning_one_is_reconnected(sock) -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        async with mcp_session(sock, "alice") as s:
            waiting = asyncio.ensure_future(call(s, "exec", command="sleep 30", yieldMs=20000))
            await wait_for(lambda: host.sessions("alice"), what="the foreground exec to start on the host")
            await server.close()
            r = await waiting
            assert r.is_error and "went away while this call was running" in text(r)
            r = await call(s, "exec", command="echo two")
            assert r.is_error and "went away" in text(r)
            assert r.structured_content["status"] == "failed"
            server = HostServer(host, sock)
            await server.start()
            r = await call(s, "exec", command="echo three")
            assert not r.is_error and "three" in text(r) and "reconnected" in text(r)
            await server.close()


async def test_with_no_host_running_the_server_starts_a_detached_serve(sock) -> None:
    async with mcp_session(sock, "alice") as s:
        r = await call(s, "exec", command="echo auto")
        assert not r.is_error and "auto" in text(r)
        sid = await start_background(over_mcp(s), "sleep 30")
    # The MCP server is gone; the host it started is not, and neither is the agent's job.
    async with await HostClient.connect(sock) as client:
        pid = client.hello["pid"]
        r = await client.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="alice")
        assert r["details"]["status"] == "running"
    serve = psutil.Process(pid)
    try:
        assert os.getsid(pid) == pid  # its own session: the client's kill of the MCP server missed it
        assert serve.cmdline()[-1] == "serve"
        assert (sock.parent / "serve.log").exists()
    finally:
        serve.send_signal(signal.SIGTERM)
        await asyncio.to_thread(serve.wait, DEADLINE_S)


async def test_a_host_that_cannot_start_is_a_failed_result_naming_why(sock, tmp_path) -> None:
    missing = tmp_path / "missing.toml"  # passed through to serve, which refuses to start without it
    async with mcp_session(sock, "alice", config=str(missing)) as s:
        r = await call(s, "exec", command="echo never")
        assert r.is_error and r.structured_content["failureKind"] == "no-host"
        assert "config file not found" in text(r) and "serve.log" in text(r)
        again = await call(s, "process", action="list")  # tries again, still failing the same way
        assert again.is_error and again.structured_content["failureKind"] == "no-host"


async def test_a_client_that_gives_up_on_a_foreground_exec_ends_its_run(served) -> None:
    host, sock = served
    async with mcp_session(sock, agent="impatient") as session:
        task = asyncio.ensure_future(call(session, "exec", command="sleep 60", yieldMs=60_000))
        deadline = time.monotonic() + DEADLINE_S
        while not host.sessions():
            assert time.monotonic() < deadline, "the run never started"
            await asyncio.sleep(0.02)
        task.cancel()  # the SDK client tells the server it cancelled the request
        with contextlib.suppress(asyncio.CancelledError):
            await task
        run = host.sessions()[0]
        await asyncio.wait_for(run.done.wait(), DEADLINE_S)
        assert run.exit.killed_by == "cancelled"


async def test_exec_without_workdir_runs_in_the_agents_directory_not_the_hosts(served, tmp_path) -> None:
    _, sock = served
    project = tmp_path / "project"
    project.mkdir()
    async with mcp_session(sock, cwd=project) as session:
        r = await call(session, "exec", command="pwd")
        assert text(r).strip() == str(project)
        r = await call(session, "exec", command="pwd", workdir=str(tmp_path))
        assert text(r).strip() == str(tmp_path)


async def test_an_agent_reads_a_full_screen_program_through_screen(served) -> None:
    _, sock = served
    draw = r"printf '\033[?1049h\033[2J\033[5;3HMenu\033[7;3H> Install'; echo; sleep 60"
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), draw, pty=True)
        await poll_until(s, sid, lambda out, _: "Install" in out)
        r = await call(s, "process", action="screen", sessionId=sid)
        rows = text(r).splitlines()
        assert not r.is_error and rows[4] == "  Menu" and rows[6] == "  > Install"
        assert "alternate screen" in text(r)
        await call(s, "process", action="kill", sessionId=sid)
