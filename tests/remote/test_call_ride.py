"""``openclaw-tui call`` against a host that drops the call, comes back, or does not: the exact line it says and
its exit status in each case, the connections it makes, and what it sends (the hello, the call, a cancel).

The command is real and so is its socket; the host's side is played by ``tests.support.scriptedhost`` so
that each way a host can fail a client happens on cue (the re-exec tests do the same with a real host re-executing itself).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from ..support.scriptedhost import ScriptedHost, answers, closes, drops, greets, refuses
from ..support.waiting import finished, wait_for

LIST = {"tool": "process", "action": "list"}
EXEC = {"tool": "exec", "command": "true", "workdir": "/"}
LISTED = {"text": "brisk-atlas running", "details": {"status": "completed", "sessions": [{"sessionId": "brisk-atlas"}]}}  # not empty: an empty list in the cli scope asks the host again (for other scopes)
RESTARTED = ("the openclaw-tui host restarted (re-executed itself in place, keeping its sessions) while this call "
             "ran, so its outcome is unknown; check with list/poll before retrying")


def cli(sock: Path, call: dict) -> subprocess.Popen[str]:
    """``openclaw-tui call`` under way, Ctrl-C heard as in a terminal."""
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "call", json.dumps(call)], text=True,
                            env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


async def run(sock: Path, call: dict, *plays) -> tuple[int, str, str, ScriptedHost]:
    async with ScriptedHost(sock, list(plays)) as host:
        status, out, err = await finished(cli(sock, call))
    return status, out, err, host


async def test_a_read_dropped_by_a_re_exec_is_sent_again_and_answered(sock) -> None:
    status, out, err, host = await run(sock, LIST, drops(), greets(), answers(LISTED))
    assert (status, err) == (0, ""), err
    assert json.loads(out) == LISTED
    assert host.connections == 3  # the call, the hello that finds the same host back, the call again
    assert host.methods() == ["hello", "call", "hello", "hello", "call"]
    assert host.heard[1]["params"] == host.heard[4]["params"] == {"call": LIST, "agent": "cli"}


async def test_a_read_dropped_before_the_hello_is_answered_is_sent_again_to_whatever_host_answers(sock) -> None:
    status, out, err, host = await run(sock, LIST, closes, greets("another"), answers(LISTED))
    assert (status, err) == (0, ""), err
    assert host.connections == 3


async def test_a_run_dropped_by_a_re_exec_says_the_host_restarted(sock) -> None:
    status, out, err, host = await run(sock, EXEC, drops(), greets(), answers(LISTED))
    assert (status, out) == (2, "")
    assert err == f"openclaw-tui: {RESTARTED} (host on {sock})\n"
    assert host.connections == 2  # never sent again


async def test_a_read_dropped_by_four_re_execs_in_a_row_gives_up(sock) -> None:
    status, out, err, host = await run(sock, LIST, *[drops(), greets()] * 4, answers(LISTED))
    assert (status, out) == (2, "")
    assert err == f"openclaw-tui: the host on {sock} restarted 4 times while this call ran; it was not answered\n"
    assert host.connections == 8


async def test_a_call_dropped_when_another_host_answers_after_has_an_unknown_outcome(sock) -> None:
    status, _, err, _ = await run(sock, LIST, drops("h1"), greets("h2"), answers(LISTED))
    assert status == 2
    assert err == (f"openclaw-tui: the host on {sock} closed the connection before answering; the call's outcome "
                   "is unknown\n")


async def test_a_call_dropped_when_no_host_answers_after_has_an_unknown_outcome(sock) -> None:
    status, _, err, host = await run(sock, LIST, drops("h1"), closes)
    assert status == 2
    assert err == (f"openclaw-tui: the host on {sock} closed the connection before answering; the call's outcome "
                   "is unknown\n")
    assert host.connections == 2


async def test_a_call_the_host_refuses_is_one_line_naming_its_reason(sock) -> None:
    status, _, err, _ = await run(sock, LIST, refuses("invalid params: 'call' is missing"))
    assert status == 2
    assert err == f"openclaw-tui: the host on {sock} refused the request: invalid params: 'call' is missing\n"


async def test_a_failed_result_is_status_1_and_printed(sock) -> None:
    failed = {"text": "no session s9", "details": {"status": "failed", "failureKind": "unknown-session"}}
    status, out, err, _ = await run(sock, LIST, answers(failed, event_first=False))
    assert (status, json.loads(out), err) == (1, failed, "")


async def test_no_host_is_one_line_saying_how_to_start_one(sock_dir) -> None:
    sock = sock_dir / "nobody" / "host.sock"
    status, out, err = await finished(cli(sock, LIST))
    assert (status, out) == (2, "")
    assert err == f"openclaw-tui: no openclaw-tui host is running on {sock} (start one with `openclaw-tui serve`)\n"


async def test_ctrl_c_sends_the_host_a_cancel_of_the_call_and_is_status_130(sock) -> None:
    async with ScriptedHost(sock, [greets()]) as host:
        proc = cli(sock, LIST)
        await wait_for(lambda: "call" in host.methods(), 30, "the call to reach the host")
        proc.send_signal(signal.SIGINT)
        status, out, err = await finished(proc)
        await wait_for(lambda: "cancel" in host.methods(), 30, "the cancel to reach the host")
    assert (status, out, err) == (130, "", "")
    assert host.heard[-1] == {"jsonrpc": "2.0", "method": "cancel", "params": {"id": 2}}


async def test_a_call_too_large_for_the_wire_is_a_failed_result_and_is_sent_nowhere(sock, monkeypatch,
                                                                                    capsysbinary) -> None:
    from openclaw_tui.commands.call import run_call

    monkeypatch.setattr("openclaw_tui.remote.wire.protocol.MAX_LINE", 1000)
    monkeypatch.setenv("OPENCLAW_TUI_SOCKET", str(sock))
    call = json.dumps({"tool": "exec", "command": "echo " + "x" * 2000, "workdir": "/"})
    async with ScriptedHost(sock, [answers(LISTED)]) as host:
        status = await asyncio.to_thread(run_call, call, "cli")
    res = json.loads(capsysbinary.readouterr().out)
    sent = {"jsonrpc": "2.0", "id": 2, "method": "call", "params": {"call": json.loads(call), "agent": "cli"}}
    size = len(json.dumps(sent, separators=(",", ":")).encode()) + 1
    assert status == 1 and res["details"]["failureKind"] == "call-too-large"
    assert res["text"] == (f"the call is too large: {size} bytes once encoded; the host reads at most 1000 per "
                           "message; send large input in several calls")
    assert host.connections == 0
