"""``openclaw-tui audit`` over a real host's journal: after input, a kill, a remove, a re-exec and a SIGKILL
of the host, every act is listed once, in order, with its actor; read with the host up or down."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from openclaw_tui.core.journal import ACTS
from openclaw_tui.core.procs import MARKER

from ..support.serves import ReexecServe
from ..support.sessions import start_background


def audit(serve: ReexecServe, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui", "audit", *args], env=env or serve.env, text=True,
                          capture_output=True, timeout=60, check=False)


async def until_said(serve: ReexecServe, sid: str, words: str, within: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while words not in (await serve.poll(sid, 1000))["text"]:
        assert asyncio.get_running_loop().time() < deadline, f"{sid} never said {words!r}"


async def test_the_audit_lists_every_act_once_in_order_across_a_reexec_and_a_crash(tmp_path: Path) -> None:
    serve = ReexecServe(tmp_path)
    try:
        await serve.start()
        work = str(serve.workdir)
        typed = await start_background(serve.call, "echo ready; read x; echo got $x; sleep 300", pty=True,
                                       workdir=work)
        await until_said(serve, typed, "ready")
        await serve.call({"tool": "process", "action": "write", "sessionId": typed, "data": "hello\n"})
        await serve.call({"tool": "process", "action": "kill", "sessionId": typed}, agent=None)  # the operator
        await serve.ended(typed)
        gone = await start_background(serve.call, "echo bye; sleep 0.2", workdir=work)
        await serve.ended(gone)
        await serve.call({"tool": "process", "action": "remove", "sessionId": gone})
        running = await start_background(serve.call, "sleep 300", workdir=work)
        await serve.reexeced()
        assert serve.proc is not None
        serve.proc.kill()  # SIGKILL: the running session's record has no end
        await asyncio.to_thread(serve.proc.wait, 30)
        down = audit(serve, "--json")
        assert down.returncode == 0, down.stderr
        await serve.start()  # the next host finds the session ended by its host's death
        await serve.ended(running)
        done = audit(serve, "--json")
        assert done.returncode == 0, done.stderr
        acts: list[dict[str, Any]] = json.loads(done.stdout)
    finally:
        await serve.close()

    assert all(set(a) == {"at", "act", "actor", "sessionId", "node", "detail"} and a["act"] in ACTS for a in acts)
    assert [a["at"] for a in acts] == sorted(a["at"] for a in acts)
    assert len({json.dumps(a, sort_keys=True) for a in acts}) == len(acts), "an act listed twice"
    of = {sid: [(a["act"], a["actor"]) for a in acts if a["sessionId"] == sid] for sid in (typed, gone, running)}
    assert of[typed] == [("started", "main"), ("input", "main"), ("killed", "operator"), ("ended", "host")], of
    assert of[gone] == [("started", "main"), ("ended", "host"), ("removed", "main")], of
    assert of[running] == [("started", "main"), ("host-died", "host")], of
    assert Counter(a["act"] for a in acts)["reexec"] == 1
    reexec = next(a for a in acts if a["act"] == "reexec")
    assert next(a for a in acts if a["sessionId"] == running)["at"] < reexec["at"]
    assert "'hello" in next(a["detail"] for a in acts if a["act"] == "input")
    assert [a for a in json.loads(down.stdout) if a["act"] == "host-died"] == []  # not until a host finds it

    one = json.loads(audit(serve, "--json", "--session", typed).stdout)
    assert {a["sessionId"] for a in one} == {typed} and len(one) == 4
    text = audit(serve, "--since", "1h").stdout
    assert "killed" in text and typed in text and "host-died" in text
    future = audit(serve, "--since", "2999-01-01T00:00:00")
    assert future.returncode == 0 and future.stdout == "" and "no acts" in future.stderr
    inside = audit(serve, env={**serve.env, MARKER: "1"})
    assert inside.returncode == 1 and "inside a session" in inside.stderr
    bad = audit(serve, "--since", "soon")
    assert bad.returncode == 2 and "30s, 10m" in bad.stderr
