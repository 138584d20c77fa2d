"""``openclaw-tui serve --reexec`` with real sessions: the same host, on new code, loses nothing.

Each test runs a real ``serve``, starts real sessions (pipes and PTYs, floods of numbered lines, a prompt
waiting for its answer, escapees), re-executes the host with the real command while they run, and checks
what the contract promises: every session keeps its id and runs on, no line of output is lost or repeated
(in the text agents read and in the raw ring terminals draw from), exits are still collected, timeouts and
kills still work, and nothing is left behind. Under each containment: cgroup, subreaper and the sandbox.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from openclaw_tui.remote.wire.client import HostClient
from openclaw_tui.remote.wire.protocol import REFUSED, RemoteError

from ..support.orphans import containments, escape_command, new_mark, survivors
from ..support.serves import (
    EXPECTED,
    FLOOD,
    LINES,
    ReexecServe,
    cli_call,
    numbered,
    release_floods,
    waiting_for_the_host,
)
from ..support.sessions import start_background, whole_ring
from ..support.waiting import wait_for


async def raw_text(client: HostClient, sid: str) -> str:
    """Every byte of the session's raw ring, as its subscribers get it."""
    start, data = await whole_ring(client, sid, 30)
    assert start == 0, "the whole flood must still be in the ring"
    return data.decode()


@pytest.mark.parametrize("serve", containments(), indirect=True)
async def test_a_reexec_during_floods_loses_and_repeats_no_line_and_a_waiting_prompt_is_answered_after(serve) -> None:
    pipe = await start_background(serve.call, FLOOD, workdir=str(serve.workdir))
    pty = await start_background(serve.call, FLOOD, pty=True, workdir=str(serve.workdir))
    prompt = await start_background(serve.call, 'read -p "Name? " n; echo "hello $n"', pty=True,
                                    workdir=str(serve.workdir))
    for sid in (pipe, pty):  # both floods are under way, far from done, when the host re-executes
        before = numbered((await serve.poll(sid, 5000))["text"])
        assert before and len(before) < LINES // 2, before[-1:]

    said = await serve.reexeced()
    assert "3 sessions kept, 3 running" in said, said
    release_floods(serve.workdir)

    listed = {s["sessionId"]: s for s in (await serve.call({"tool": "process", "action": "list"}))["details"]["sessions"]}
    assert set(listed) == {pipe, pty, prompt}
    for sid in (pipe, pty):
        end = await serve.ended(sid)
        assert (end["status"], end["exitCode"]) == ("completed", 0), end
        assert numbered(await serve.log(sid)) == EXPECTED, f"{sid}: the text lost or repeated lines"
        async with await serve.client() as client:
            assert numbered(await raw_text(client, sid)) == EXPECTED, f"{sid}: the raw ring lost or repeated lines"

    async def waiting() -> bool:
        return (await serve.poll(prompt))["details"]["waitingForInput"]

    await _until(waiting, "the prompt waiting for input after the re-exec")
    await serve.call({"tool": "process", "action": "write", "sessionId": prompt, "data": "bob\n"})
    end = await serve.ended(prompt)
    assert (end["status"], end["exitCode"]) == ("completed", 0), end
    assert "hello bob" in await serve.log(prompt)


async def _until(check, what: str, within: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_two_reexecs_in_a_row_keep_every_session_and_collect_their_exits(serve) -> None:
    quick = await start_background(serve.call, "sleep 2; echo done; exit 3", workdir=str(serve.workdir))
    slow = await start_background(serve.call, "read x; echo got $x; exit 4", pty=True,  # silent: each poll finds nothing
                                  workdir=str(serve.workdir))
    hints = [(await serve.poll(slow))["details"]["retryInMs"] for _ in range(2)]
    first = await serve.reexeced()
    second = await serve.reexeced()
    assert "after re-exec 1" in first and "after re-exec 2" in second, (first, second)
    hints.append((await serve.poll(slow))["details"]["retryInMs"])
    assert hints == [5000, 10000, 30000], "the poll back-off goes on where it was"
    end = await serve.ended(quick)
    assert (end["exitCode"], end["cleanup"]) == (3, "confirmed"), end
    await serve.call({"tool": "process", "action": "write", "sessionId": slow, "data": "yes\n"})
    end = await serve.ended(slow)
    assert end["exitCode"] == 4 and "got yes" in await serve.log(slow), end
    async with await serve.client() as client:
        assert (client.hello["generation"], client.hello["pid"]) == (2, serve.proc.pid)


TIMED_S = 10  # long enough that a re-exec on a loaded machine (5.6 s seen) ends well inside it


@pytest.mark.parametrize("serve", containments(), indirect=True)
async def test_a_timeout_runs_on_from_where_it_was_and_a_kill_still_ends_everything(serve) -> None:
    loop = asyncio.get_running_loop()
    timed = await start_background(serve.call, "sleep 60", timeout=TIMED_S, workdir=str(serve.workdir))
    begun = loop.time()
    mark = new_mark()
    escapes = await start_background(serve.call, escape_command(mark), workdir=str(serve.workdir))
    await _until(lambda: _said(serve, escapes, "ready"), "the escapees in place")
    await asyncio.sleep(max(0.0, begun + 1.5 - loop.time()))  # a head start the timeout must not lose
    before = loop.time() - begun
    await serve.reexeced()
    assert loop.time() - begun < TIMED_S - 0.5, "the re-exec took too long for this test to tell"
    end = await serve.ended(timed)
    # the timeout counts from the start, not from the re-exec (it would last the head start longer then)
    assert end["timedOut"] and TIMED_S * 1000 <= end["durationMs"] < (TIMED_S + before) * 1000, (before, end)
    killed = await serve.call({"tool": "process", "action": "kill", "sessionId": escapes})
    assert killed["details"]["cleanup"] == "confirmed", killed
    assert survivors(mark) == []


async def _said(serve: ReexecServe, sid: str, word: str) -> bool:
    return word in (await serve.log(sid))


async def test_a_child_that_exits_during_the_handover_is_reaped_with_its_exit_code_and_output(serve) -> None:
    # It watches its parent, the host, and leaves the moment the host's new image starts (before it adopts).
    sid = await start_background(serve.call,
                                 "until grep -qa -- --resume /proc/$PPID/cmdline; do sleep 0.005; done; echo bye; exit 7",
                                 workdir=str(serve.workdir))
    await serve.reexeced()
    end = await serve.ended(sid)
    assert (end["status"], end["exitCode"], end["cleanup"]) == ("completed", 7, "confirmed"), end
    assert "bye" in await serve.log(sid)
    assert not _zombies(serve.proc.pid)


def _zombies(pid: int) -> list[int]:
    found = []
    with open(f"/proc/{pid}/task/{pid}/children") as fh:
        children = fh.read().split()
    for child in children:
        with open(f"/proc/{child}/stat") as fh:
            if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                found.append(int(child))
    return found


async def test_input_still_queued_for_a_program_that_was_not_reading_reaches_it_after(serve) -> None:
    # The terminal takes 4 KB; the rest waits in the host's queue for the program, across the re-exec.
    sid = await start_background(serve.call, "stty raw -echo; echo ready; sleep 3; head -c 300000 | wc -c",
                                 pty=True, workdir=str(serve.workdir))
    await _until(lambda: _said(serve, sid, "ready"), "the program to start")
    sent = await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "x" * 300000})
    assert sent["details"]["bytesQueued"] > 250000, sent
    await serve.reexeced()
    end = await serve.ended(sid)
    assert end["exitCode"] == 0 and "300000" in await serve.log(sid), end


async def test_sigusr2_re_executes_the_host_as_the_command_does(serve) -> None:
    sid = await start_background(serve.call, "read x; echo got $x", pty=True, workdir=str(serve.workdir))
    serve.proc.send_signal(signal.SIGUSR2)
    said = await serve.said("resumed", "cannot resume")
    assert "after re-exec 1" in said and "1 sessions kept, 1 running" in said, said
    await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "it\n"})
    assert (await serve.ended(sid))["exitCode"] == 0


async def test_a_host_that_exits_normally_after_a_reexec_leaves_nothing(serve) -> None:
    mark = new_mark()
    sid = await start_background(serve.call, escape_command(mark), pty=True, workdir=str(serve.workdir))
    await _until(lambda: _said(serve, sid, "ready"), "the escapees in place")
    await serve.reexeced()
    serve.proc.send_signal(signal.SIGTERM)
    assert await asyncio.to_thread(serve.proc.wait, 60) == 0
    assert survivors(mark) == []
    assert not list((serve.state / "openclaw-tui" / "live").glob("*.json")), "the live record outlived the host"
    assert os.path.exists(serve.sock) is False


async def test_a_process_inside_a_session_cannot_re_execute_the_host(serve) -> None:
    sid = await start_background(serve.call,
                                 f"{sys.executable} -m openclaw_tui serve --reexec; echo status=$?",
                                 workdir=str(serve.workdir))
    await serve.ended(sid)
    said = await serve.log(sid)
    assert "a process inside a session cannot restart the host" in said and "status=1" in said, said
    async with await serve.client() as client:
        assert client.hello["generation"] == 0


async def test_a_host_that_is_not_serve_refuses_to_re_execute(served) -> None:
    _, sock = served  # a host served in-process, as a dashboard's is
    async with await HostClient.connect(sock) as client:
        with pytest.raises(RemoteError, match="cannot re-execute itself: it runs inside another program") as refused:
            await client.request("host.reexec")
    assert refused.value.code == REFUSED


QUERY = ("python3 -c 'import os, sys, termios, tty\n"
         "sys.stdin.readline()\n"
         "tty.setraw(0)\n"
         "os.write(1, b\"\\033[6n\")\n"
         "reply = b\"\"\n"
         "while not reply.endswith(b\"R\"): reply += os.read(0, 1)\n"
         "termios.tcsetattr(0, termios.TCSANOW, termios.tcgetattr(0))\n"
         "print(\"\\r\\nreply\", reply[1:].decode(), end=\"\\r\\n\")'")


async def test_terminal_queries_are_still_answered_after_a_reexec(serve) -> None:
    sid = await start_background(serve.call, f"printf 'abc'; {QUERY}", pty=True, workdir=str(serve.workdir))
    await serve.reexeced()
    await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "go\n"})
    end = await serve.ended(sid)
    assert end["exitCode"] == 0 and "reply [2;1R" in await serve.log(sid), await serve.log(sid)


async def test_a_kill_under_way_during_the_handover_is_finished_by_the_new_image(tmp_path) -> None:
    serve = ReexecServe(tmp_path)
    with serve.config.open("a") as fh:  # this agent's kills take long enough to span a re-exec
        fh.write("\n[agents.patient.tools.exec]\nkillGraceMs = 4000\n")
    try:
        await serve.start()
        r = await serve.call({"tool": "exec", "background": True, "workdir": str(serve.workdir), "command": (
            "python3 -c 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(\"ready\", "
            "flush=True); time.sleep(300)'")}, agent="patient")
        sid = r["details"]["sessionId"]
        async def ready() -> bool:
            r = await serve.call({"tool": "process", "action": "log", "sessionId": sid}, agent="patient")
            return "ready" in r["text"]

        await _until(ready, "the SIGTERM-proof program running")
        killing = cli_call(serve, {"tool": "process", "action": "kill", "sessionId": sid}, "patient")
        await wait_for(lambda: waiting_for_the_host(killing.pid), 30, "the kill in flight")
        await serve.reexeced()
        _, err = await asyncio.to_thread(killing.communicate, timeout=60)
        assert killing.returncode == 2 and "restarted" in err, err
        end = await serve.ended(sid, agent="patient")
        assert (end["status"], end["killedBy"], end["cleanup"]) == ("failed", "patient", "confirmed"), end
    finally:
        await serve.close()


async def test_a_sigterm_during_the_handover_ends_the_host_gracefully_once_it_resumed(serve) -> None:
    mark = new_mark()
    sid = await start_background(serve.call, escape_command(mark), workdir=str(serve.workdir))
    await _until(lambda: _said(serve, sid, "ready"), "the escapees in place")
    reexecing = asyncio.ensure_future(serve.reexec())
    cmdline = Path(f"/proc/{serve.proc.pid}/cmdline")
    await wait_for(lambda: b"--resume" in cmdline.read_bytes(), 60, "the new image starting")
    serve.proc.send_signal(signal.SIGTERM)  # the new image cannot handle it yet: it waits for it
    assert await asyncio.to_thread(serve.proc.wait, 60) == 0, "the host must end as SIGTERM ends it, gracefully"
    await reexecing
    assert survivors(mark) == []


async def test_the_new_image_runs_with_the_interpreter_options_the_host_was_started_with(tmp_path) -> None:
    serve = ReexecServe(tmp_path)
    try:
        await serve.start("-B", "-X", "utf8")
        await serve.reexeced()
        argv = Path(f"/proc/{serve.proc.pid}/cmdline").read_bytes().split(b"\0")
        assert argv[1:5] == [b"-B", b"-X", b"utf8", b"-m"] and b"--resume" in argv, argv
    finally:
        await serve.close()
