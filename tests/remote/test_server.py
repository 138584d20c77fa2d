"""The host socket: private, single-owner, JSON-RPC calls, events and raw output, serve and call."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import stat
import subprocess
import sys

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.procs.termination import members
from openclaw_tui.core.session import Event, EventKind
from openclaw_tui.remote.server.hostserver import AlreadyServing, HostServer
from openclaw_tui.remote.wire.client import HostClient

from ..support.hosts import hosting
from ..support.rawsources import ASKER


async def test_socket_and_directory_are_private(served) -> None:
    _, sock = served
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600


async def test_a_second_host_on_the_same_socket_is_refused(served) -> None:
    _, sock = served
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as other:
        with pytest.raises(AlreadyServing, match="already serving"):
            await HostServer(other, sock).start()


async def test_a_stale_socket_is_detected_and_replaced(sock) -> None:
    sock.parent.mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(sock))
    dead.close()  # the file stays, nobody listens: what a crashed host leaves
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        async with await HostClient.connect(sock) as client:
            assert client.hello["protocol"] == 1
        await server.close()
    assert not sock.exists()


async def test_calls_are_scoped_like_the_python_api(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        r = await client.call({"tool": "exec", "command": "sleep 30", "background": True}, agent="alice")
        sid = r["details"]["sessionId"]
        r = await client.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="bob")
        assert r["details"]["failureKind"] == "unknown-session"
        r = await client.call({"tool": "process", "action": "list"}, agent=None)
        assert [s["agent"] for s in r["details"]["sessions"]] == ["alice"]
        r = await client.call("{broken", agent="alice")
        assert r["details"]["status"] == "failed"


async def test_malformed_messages_get_protocol_errors_and_the_host_keeps_serving(served) -> None:
    _, sock = served
    reader, writer = await asyncio.open_unix_connection(str(sock))
    writer.write(b"this is not json\n")
    writer.write(b'{"jsonrpc":"2.0","id":1,"method":"nope"}\n')
    writer.write(b'{"jsonrpc":"2.0","id":2,"method":"call","params":{"wrong":1}}\n')
    writer.write(b'{"jsonrpc":"2.0","id":3,"method":"hello","params":{}}\n')
    replies = [json.loads(await reader.readline()) for _ in range(4)]
    codes = sorted(r["error"]["code"] for r in replies if "error" in r)
    assert codes == [-32700, -32602, -32601]
    assert any(r.get("result", {}).get("protocol") == 1 for r in replies)
    writer.close()


async def test_notifications_are_never_answered_but_a_null_id_is_a_request(served) -> None:
    _, sock = served
    reader, writer = await asyncio.open_unix_connection(str(sock))
    writer.write(b'{"jsonrpc":"2.0","method":"nope","params":{}}\n')  # a notification, even a bad one: silence
    writer.write(b'{"jsonrpc":"2.0","id":null,"method":"hello","params":{}}\n')
    writer.write(b'{"jsonrpc":"2.0","id":6,"method":"hello","params":{}}\n')
    replies = []
    while not {None, 6} <= {r.get("id") for r in replies if "result" in r}:
        replies.append(json.loads(await asyncio.wait_for(reader.readline(), 20)))
    assert all("result" in r for r in replies), replies  # no error reply to the notification in between
    writer.close()


async def test_events_start_with_a_snapshot_and_follow_sessions(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        stream = client.events()
        first = await anext(stream)
        assert first["kind"] == "snapshot"
        r = await client.call({"tool": "exec", "command": "echo hi; exit 4", "background": True}, agent="a")
        sid = r["details"]["sessionId"]
        kinds = []
        async for event in stream:
            if event["sessionId"] == sid:
                kinds.append(event["kind"])
            if event["kind"] == "exit-notification":
                assert event["data"]["exitCode"] == 4 and event["data"]["agent"] == "a"
                break
        await stream.aclose()
        assert "session-added" in kinds and "session-exited" in kinds


async def test_the_events_a_frontend_reads_off_the_socket_are_the_events_the_host_published(served) -> None:
    host, sock = served
    published: list[Event] = []
    unsubscribe = host.subscribe(published.append)
    async with await HostClient.connect(sock) as client:
        stream = client.events()
        await anext(stream)  # the snapshot
        r = await client.call({"tool": "exec", "command": "echo hi; exit 4", "background": True}, agent="a")
        sid = r["details"]["sessionId"]
        received = []
        async for params in stream:
            received.append(Event.from_json(params))
            if params["kind"] == "exit-notification":
                break
        await stream.aclose()
    unsubscribe()

    def about_it(events: list) -> list:  # output events are coalesced on the socket: compared apart
        return [e for e in events if e.session_id == sid and e.kind != EventKind.OUTPUT]

    told = about_it(published)
    assert about_it(received) == told
    assert {EventKind.ADDED, EventKind.BACKGROUNDED, EventKind.EXITED, EventKind.NOTIFICATION} <= {e.kind for e in told}


async def test_raw_output_streams_from_an_offset_and_input_is_recorded(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        r = await client.call({"tool": "exec", "command": "printf '\\033[1mbold\\033[0m\\n'; read x; echo got $x",
                               "pty": True, "background": True}, agent="a")
        sid = r["details"]["sessionId"]
        got = bytearray()
        arrived = asyncio.Event()

        def on(method, params):
            if method == "raw" and params["sessionId"] == sid:
                got.extend(base64.b64decode(params["data"]))
                if b"got yes" in got:
                    arrived.set()

        client.listen(on)
        await client.request("raw.subscribe", {"sessionId": sid, "offset": 0})
        await client.request("session.input", {"sessionId": sid, "data": base64.b64encode(b"yes\r").decode()})
        await asyncio.wait_for(arrived.wait(), 20)
        assert b"\x1b[1mbold" in got
        assert host.session(sid).inputs[-1].source == "operator"
        out = await client.request("session.output", {"sessionId": sid})
        assert "bold" in "".join(c["text"] for c in out["chunks"])


def _cli(args, env, **kw):
    return subprocess.run([sys.executable, "-m", "openclaw_tui", *args], env=env, capture_output=True,
                          text=True, timeout=60, **kw)


async def test_call_cli_prints_json_and_exit_status(served) -> None:
    _, sock = served
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    ok = await asyncio.to_thread(_cli, ["call", '{"tool": "exec", "command": "echo hello"}'], env)
    assert ok.returncode == 0 and json.loads(ok.stdout)["text"] == "hello"
    bad = await asyncio.to_thread(_cli, ["call", '{"tool": "exec"}'], env)
    assert bad.returncode == 1 and json.loads(bad.stdout)["details"]["status"] == "failed"


def test_call_cli_without_a_host_says_so(sock_dir) -> None:
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock_dir / "none.sock")}
    proc = _cli(["call", '{"tool": "process", "action": "list"}'], env)
    assert proc.returncode == 2 and "serve" in proc.stderr


async def test_serve_ends_its_sessions_on_sigterm(sock) -> None:
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    proc = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = await asyncio.to_thread(proc.stdout.readline)
        assert "serving" in line
        async with await HostClient.connect(sock) as client:
            r = await client.call({"tool": "exec", "command": "sh -c 'sleep 300 & sleep 300'", "background": True}, agent="a")
            pgid = r["details"]["pid"]
            asked = await client.call({"tool": "exec", "command": f"{sys.executable} -c '{ASKER}'", "pty": True,
                                       "yieldMs": 20_000}, agent="a")
            assert "ESC[1;4R ESC[?62;22c ESC[0n" in asked["text"]  # the headless host answers terminal queries
        second = await asyncio.to_thread(_cli, ["serve"], env)
        assert second.returncode == 1 and "already serving" in second.stderr
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 30) == 0
        assert members(pgid) == [] and not sock.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_bad_config_is_one_clear_line_not_a_traceback(tmp_path) -> None:
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(tmp_path / "h.sock")}
    missing = _cli(["--config", str(tmp_path / "missing.toml"), "serve"], env)
    assert missing.returncode == 2 and "config file not found" in missing.stderr
    assert "Traceback" not in missing.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("[tools\n")
    broken = _cli(["--config", str(bad), "serve"], env)
    assert broken.returncode == 2 and broken.stderr.startswith("openclaw-tui: config:")


async def test_a_cancelled_call_ends_its_foreground_run_on_the_host(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        task = asyncio.ensure_future(client.call({"tool": "exec", "command": "sleep 60", "yieldMs": 60_000}, agent="a"))
        deadline = asyncio.get_running_loop().time() + 20
        while not host.sessions():
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.02)
        session = host.sessions()[0]
        task.cancel()
        await asyncio.wait_for(session.done.wait(), 20)
        assert session.exit.killed_by == "cancelled"
        r = await client.call({"tool": "process", "action": "list"}, agent="a")  # the connection still works
        assert r["details"]["status"] == "completed"


async def test_a_call_too_large_for_the_wire_is_a_failed_result_and_the_connection_lives(served, monkeypatch) -> None:
    _, sock = served
    async with await HostClient.connect(sock) as client:
        monkeypatch.setattr("openclaw_tui.remote.wire.protocol.MAX_LINE", 1000)
        r = await client.call({"tool": "exec", "command": "echo " + "x" * 2000}, agent="a")
        assert r["details"]["failureKind"] == "call-too-large" and "at most 1000" in r["text"]
        monkeypatch.undo()
        r = await client.call({"tool": "process", "action": "list"}, agent="a")
        assert r["details"]["status"] == "completed"
