"""A real ``openclaw-tui serve`` SIGKILLed, then a new one on the same socket and state directory.

What the journal kept comes back: finished sessions with their output and exit codes, sessions that were
running listed as ended by the host's death with their output up to it, their processes gone, the agent
told on its next call, and no id issued twice. On the gateway and in the sandbox. A full disk under a
real host: it says so on stderr and in ``list``, and its sessions go on.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.core.containment import sandbox
from openclaw_tui.core.journal.restore import journal_name
from openclaw_tui.remote.wire.client import HostClient

from ..support import serves
from ..support.orphans import new_mark, survivors
from ..support.sessions import start_background
from ..support.smalldisk import small_disk
from ..support.waiting import wait_for

SANDBOX = sandbox.availability()


class Serve(serves.Serve):
    """``openclaw-tui serve`` processes, one after the other, on one socket, config and state directory; what
    they say on stderr (a journal's problem) is read too."""

    stderr = subprocess.PIPE

    def __init__(self, tmp_path: Path, where: str, state: Path | None = None) -> None:
        super().__init__(tmp_path, where, state)
        self.journal = self.state / "openclaw-tui" / "journal" / journal_name(self.sock)


async def process(client: HostClient, action: str, sid: str | None = None, **kw: Any) -> dict[str, Any]:
    return await client.call({"tool": "process", "action": action, "sessionId": sid, **kw}, agent="main")


async def until_ended(client: HostClient, sid: str) -> dict[str, Any]:
    """Poll (timed) until the session ended; returns that poll, which tells the agent how it ended."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = await process(client, "poll", sid, timeout=1000)
        if r["details"]["status"] != "running":
            return r
    raise AssertionError(f"{sid} never ended")


@pytest.mark.parametrize("where", ["gateway", pytest.param("sandbox", marks=pytest.mark.skipif(
    not SANDBOX.usable, reason=f"no sandbox here: {SANDBOX.reason}"))])
async def test_after_a_sigkill_the_next_serve_brings_back_every_record(tmp_path, where: str) -> None:
    serve, mark = Serve(tmp_path, where), new_mark()
    try:
        first = await serve.start()
        async with await HostClient.connect(serve.sock) as client:
            done = await start_background(client.call, "echo finished fine; exit 4", agent="main")
            told = await until_ended(client, done)  # the agent knows how this one ended: no notice later
            assert told["details"]["exitCode"] == 4
            piped = await start_background(client.call,
                                           f"export {mark}=1; for i in 1 2 3; do echo piped $i; done; sleep 300",
                                           agent="main")
            typed = await start_background(client.call,
                                           f"export {mark}=1; printf 'name? '; read x; echo hi $x; sleep 300",
                                           pty=True, agent="main")
            await wait_for(lambda: "name?" in client_text(serve, typed), 30, "the prompt journaled")
            await process(client, "write", typed, data="ann\n")
            await wait_for(lambda: "hi ann" in client_text(serve, typed) and "piped 3" in client_text(serve, piped),
                           30, "the output journaled")
            issued = {done, piped, typed}
        first.kill()  # SIGKILL: nothing of the host's own shutdown runs
        first.wait()
        second = await serve.start()
        report = await serve.line(second)
        while "restored from the journal" not in report:  # the sweep's lines come first
            report = await serve.line(second)
        assert report == ("openclaw-tui: 1 finished session restored from the journal; 2 that were running when the "
                          "previous host died are listed as ended (failureKind host-died)\n")
        await wait_for(lambda: not survivors(mark), 10, "the dead host's processes to be gone")
        async with await HostClient.connect(serve.sock) as client:
            listed = await process(client, "list")
            notices = listed["details"]["notifications"]
            assert sorted(n["sessionId"] for n in notices) == sorted([piped, typed])
            assert all(n["failureKind"] == "host-died" and n["status"] == "failed" for n in notices)
            assert "the host that ran it died" in listed["text"].split("\n\n")[0]
            by_id = {d["sessionId"]: d for d in listed["details"]["sessions"]}
            assert set(by_id) == issued and by_id[done]["exitCode"] == 4 and by_id[done]["status"] == "completed"
            for sid in (piped, typed):
                assert by_id[sid]["status"] == "failed" and by_id[sid]["failureKind"] == "host-died"
                assert by_id[sid]["cleanup"] == "confirmed" and by_id[sid]["host"] == where
            poll = await process(client, "poll", piped)
            assert poll["details"]["failureKind"] == "host-died" and poll["details"]["status"] == "failed"
            assert "piped 3" in poll["text"] and "None of its processes is left" in poll["text"]
            log = await process(client, "log", typed)
            assert "hi ann" in log["text"] and log["details"]["inputs"][0]["preview"] == "ann\n"
            assert "notifications" not in (await process(client, "list"))["details"], "told once"
            fresh = {await start_background(client.call, "true", agent="main") for _ in range(10)}
            assert not fresh & issued
    finally:
        await serve.close()
        for entry in survivors(mark):
            os.kill(int(entry.split()[0]), 9)


def client_text(serve: Serve, sid: str) -> str:
    """What the session's journal file holds so far, as text (the records keep output as UTF-8)."""
    try:
        return (serve.journal / "sessions" / f"{sid}.jnl").read_bytes().decode(errors="replace")
    except FileNotFoundError:
        return ""


@pytest.fixture(name="small_disk")
def small_disk_fixture(tmp_path: Path) -> Iterator[Path]:
    """A 512 KB tmpfs of our own."""
    with small_disk(tmp_path, "512k") as mount:
        yield mount


async def test_a_full_disk_stops_the_journal_and_the_host_says_so_and_goes_on(tmp_path, small_disk) -> None:
    serve = Serve(tmp_path, "gateway", state=small_disk)
    try:
        proc = await serve.start()
        async with await HostClient.connect(serve.sock) as client:
            flood = await start_background(client.call, "seq -f line-%.0f 400000; echo all-done",
                                           agent="main")
            problem = await serve.line(proc, "stderr")
            while "not being saved" not in problem:  # the record of live sessions may complain first
                problem = await serve.line(proc, "stderr")
            assert problem.startswith("openclaw-tui: sessions are not being saved to disk: journal stopped: "
                                      "No space left on device"), problem
            r = await until_ended(client, flood)
            assert r["details"]["exitCode"] == 0
            log = await process(client, "log", flood, limit=1)
            assert "all-done" in log["text"], "the session itself lost nothing"
            listed = await process(client, "list")
            note = listed["text"].splitlines()[-1]
            assert note == f"note: sessions are not being saved to disk: {problem.split(': ', 2)[2].strip()}"
            assert listed["details"]["journal"]["saving"] is False
            after = await start_background(client.call, "echo still works", agent="main")
            assert "still works" in (await until_ended(client, after))["text"]
    finally:
        await serve.close()
