"""A session's record: ``Session.to_json`` in one JSON shape, and ``from_json`` rebuilding it without its child.

The record is what a host will save and read back across a restart, so each test writes a real session
out as JSON text, reads it back, and compares what agents and dashboards would see of both.
"""

from __future__ import annotations

import asyncio
import json

from openclaw_tui import ToolHost
from openclaw_tui.core.containment import ContainmentKind, Placement
from openclaw_tui.core.session import Status
from openclaw_tui.core.session.buffers import Chunk, Output
from openclaw_tui.core.session.session import Session

from ...support.hosts import make_host
from ...support.sessions import poll_until, start_background


def P(action: str, sid: str, **kw):
    return {"tool": "process", "action": action, "sessionId": sid, **kw}


def _reread(session: Session) -> Session:
    changes: list[str] = []
    return Session.from_json(json.loads(json.dumps(session.to_json())), lambda kind, s: changes.append(kind))


def _seen(d: dict) -> dict:
    """Details as a reader compares them: times that run on are left out."""
    return {k: v for k, v in d.items() if k not in ("durationMs", "idleMs", "waitingForInput", "stdinWritable")}


async def test_a_finished_pty_session_reads_back_as_it_ended(host: ToolHost) -> None:
    sid = await start_background(host.call,
                                 "printf '\\033[?2004h'; read -r a; echo got $a; printf 'done\\n' >&2; exit 3",
                                 pty=True, agent="main")
    await host.call(P("write", sid, data="hello\n"), agent="main")
    await poll_until(host, sid, "main", lambda o: "got hello" in o)
    session = host.session(sid)
    session.resize(100, 40)
    await asyncio.wait_for(session.done.wait(), 20)

    back = _reread(session)
    assert _seen(back.details()) == _seen(session.details())
    assert abs(back.details()["durationMs"] - session.details()["durationMs"]) < 1000
    assert not back.running and back.status == "completed" and back.exit.code == 3
    assert back.output.full_text() == session.output.full_text() and "got hello" in back.output.full_text()
    assert back.raw.read(back.raw.start) == session.raw.read(session.raw.start)
    assert back.raw.marks_from(0) == session.raw.marks_from(0) and back.pty_size == (100, 40)
    assert [r.to_json() for r in back.inputs] == [r.to_json() for r in session.inputs] != []
    assert back.tracked_modes.bracketed_paste and back.order == session.order
    assert back.placement == session.placement and back.containment == session.containment
    assert back.backgrounded and back.done.is_set()


async def test_where_a_session_ran_is_written_in_plain_words_and_read_back_as_its_vocabulary(host: ToolHost) -> None:
    sid = await start_background(host.call, "exit 0", agent="main")
    session = host.session(sid)
    await asyncio.wait_for(session.done.wait(), 20)
    text = json.dumps(session.to_json())
    assert f'"placement": "{session.placement}"' in text and f'"containment": "{session.containment}"' in text
    back = _reread(session)
    assert type(back.placement) is Placement and type(back.containment) is ContainmentKind
    assert back.status is Status.COMPLETED and back.details()["host"] == session.details()["host"]


async def test_a_running_session_reads_back_running_without_a_child(host: ToolHost) -> None:
    sid = await start_background(host.call, "echo started; sleep 30", agent="main")
    await poll_until(host, sid, "main", lambda o: "started" in o)
    session = host.session(sid)
    back = _reread(session)
    assert back.running and back.status == "running" and back.child is None and not back.stdin_writable
    assert back.pid == session.pid and back.runtime_ms() >= 0 and not back.done.is_set()
    assert back.output.full_text() == session.output.full_text()
    await host.call(P("kill", sid), agent="main")


async def test_dropped_and_pending_output_read_back_with_their_counts() -> None:
    async with make_host(max_output_chars=5_000, pending_max_chars=1_000) as host:
        sid = await start_background(host.call, "seq 1 20000", agent="main")
        session = host.session(sid)
        await asyncio.wait_for(session.done.wait(), 20)
        back = _reread(session)
        out, again = session.output, back.output
        assert again.truncated and again.gap() == out.gap() and again.total_chars == out.total_chars
        assert again.head == out.head and again.tail_text(5_000) == out.tail_text(5_000)
        assert again.pending.take() == out.pending.take()  # text and the count dropped at the cap


def test_output_since_gives_what_a_reader_has_not_seen() -> None:
    out = Output(max_chars=10, pending_max=100, head_max=0)
    out.append("stdout", "abcdef")
    out.append("stderr", "gh")
    assert out.since(4) == [Chunk("stdout", "ef"), Chunk("stderr", "gh")]
    assert out.since(8) == []
    out.append("stdout", "ijklm")  # "abc" is no longer retained
    assert out.since(2) is None and out.since(3) is not None
    copy = Output.from_json(json.loads(json.dumps(out.to_json(pending=False))))
    assert copy.full_text() == out.full_text() and copy.since(11) == out.since(11) and not copy.pending
