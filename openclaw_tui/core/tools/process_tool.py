"""The ``process`` tool: the twelve actions an agent uses to supervise its background sessions.

Each action is a small function, mapped by the table at the bottom (the four that send input live in
:mod:`.process_input`, ``export`` in :mod:`.recordings`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from typing import Any
from weakref import WeakKeyDictionary

from ..calls import MORE_TIME, ToolResult, dropped_note, failure, result, waiting_hint
from ..config import POLL_WAIT_MAX_MS
from ..journal import acts_of, status
from ..launch import end_session
from ..procs import kernel_evidence_available
from ..session import HOST_DIED, ExitRecord, Session, Status, iso, masked, now_ms
from .models import ACTIONS, ProcessParams, misplaced
from .nodecalls import merged_listing, process_on_node, split_id
from .process_input import paste, send_keys, submit, write
from .recordings import export
from .toolcore import ToolCore

RETRY_STEPS_MS = (5000, 10000, 30000, 60000)
LOG_DEFAULT_LINES = 200

Handler = Callable[[ToolCore, ProcessParams, Session, str | None], Awaitable[ToolResult]]


async def run_process(core: ToolCore, params: ProcessParams, agent: str | None) -> ToolResult:
    node, _ = split_id(params.sessionId)
    if node is not None and params.action != "list":  # a node's session: the node words every problem
        return await process_on_node(core.nodes, node, params, agent)
    wrong = misplaced(params)
    if wrong:
        return failure(f"invalid process call: {wrong}", "invalid-params")
    if params.action == "list":
        return await list_sessions(core, agent)
    if not params.sessionId:
        return failure(f"action {params.action!r} needs a sessionId (use action 'list' to see your sessions)", "missing-session-id")
    session = core.registry.get(params.sessionId, agent)
    if session is None:
        return failure(
            f"no session {params.sessionId!r} in your scope (it may have expired or been cleared; "
            "use action 'list' to see your sessions)",
            "unknown-session",
        )
    if not session.backgrounded and agent is not None:
        return failure(
            f"session {session.id} is still in its exec yield window; wait for the exec call to return",
            "in-yield-window",
        )
    if awaiting_approval(session) and params.action not in ("poll", "log", "kill", "remove"):
        return failure(f"session {session.id} has not started: {_status_line(session)}", "approval-pending",
                       sessionId=session.id)
    return await _HANDLERS[params.action](core, params, session, agent)


def awaiting_approval(session: Session) -> bool:
    return session.status == Status.APPROVAL_PENDING


def list_line(d: dict[str, Any]) -> str:
    """One session's line in ``list``, from its details alone (a node's sessions have nothing else); a
    session of a node that does not answer says so instead of a state it may no longer have."""
    if d.get("nodeReachable") is False:
        return f"{d['sessionId']}  node unreachable (last seen {d['status']})  {d['name']}"
    mark = " [input-wait]" if d["waitingForInput"] else ""
    if d["status"] == Status.APPROVAL_PENDING:
        mark = " (not started: waits for the operator's approval)"
    words = ExitRecord.from_details(d, None).words()
    end = "" if d["status"] in (Status.RUNNING, Status.APPROVAL_PENDING) else f" ({words})"
    return f"{d['sessionId']}  {d['status']}{end}  {d['durationMs'] / 1000:.0f}s  {d['name']}{mark}"


async def list_sessions(core: ToolCore, agent: str | None) -> ToolResult:
    """The caller's sessions, newest first; with nodes, theirs too, and a note for each that did not answer;
    a note when sessions are not being saved to disk though they should be (``details.journal``)."""
    listed = core.registry.listed(agent)
    await core.look(listed)
    sessions = [s.details() for s in listed]
    journal = status(core.journal)
    notes = [f"note: sessions are not being saved to disk: {journal['problem']}"] if (
        journal["problem"] and not journal["saving"]) else []
    more: dict[str, Any] = {}
    if core.nodes is not None:
        sessions, node_notes, more["nodes"] = await merged_listing(core.nodes, sessions, agent)
        notes = node_notes + notes
    text = "\n".join([*map(list_line, sessions)] or ["No background sessions."])
    if notes:
        text += "\n" + "\n".join(notes)
    return result(text, Status.COMPLETED, sessions=sessions, journal=journal, **more)


def _status_line(session: Session) -> str:
    if awaiting_approval(session):
        approval = session.approval or {}
        until = iso(approval.get("expiresAtMs"))
        return (f"Not started: it waits for the operator's approval (approval {approval.get('approvalId')}, until "
                f"{until}); the operator decides, not you. Do not re-run it: poll again (with a timeout) or wait "
                "for the notice.")
    if session.running:
        return f"Still running ({session.runtime_ms() / 1000:.1f}s)."
    more = f" {MORE_TIME}." if session.exit.timed_out else ""
    if session.exit.failure == HOST_DIED:
        more = " " + host_died_words(session)
    return f"Process ended: {session.status}, {session.exit.words()}.{more}"


def host_died_words(session: Session) -> str:
    """What became of a session whose host died while it ran, as far as the next host could tell."""
    end = session.exit
    if end.cleanup == "uncertain":
        gone = (f"Not all of its processes could be ended: still there: pid "
                f"{', '.join(map(str, end.leftover)) or 'unknown'}.")
    else:
        gone = "None of its processes is left."
    return (f"{gone} No exit code exists; the output up to then is kept (log reads it). Found ended by the next "
            f"host at {iso(end.ended_ms)}; run it again if it must finish.")


class Backoff:
    """How long an agent should wait before it polls a quiet session again: longer after each poll that
    found nothing (``RETRY_STEPS_MS``), back to the first step as soon as one finds output. Kept per
    session, and let go with it."""

    def __init__(self) -> None:
        self._empty_polls: WeakKeyDictionary[Session, int] = WeakKeyDictionary()

    def after_poll(self, session: Session, found_output: bool) -> int:
        """The retry hint (ms) after a poll of ``session``."""
        empty = 0 if found_output else self._empty_polls.get(session, 0) + 1
        self._empty_polls[session] = empty
        return RETRY_STEPS_MS[min(max(empty - 1, 0), len(RETRY_STEPS_MS) - 1)]

    def counts(self) -> dict[str, int]:
        """Empty polls in a row, by session id (what a host re-executing in place carries over)."""
        return {session.id: n for session, n in self._empty_polls.items()}

    def restore(self, session: Session, empty_polls: int) -> None:
        self._empty_polls[session] = empty_polls


BACKOFF = Backoff()


async def poll(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    wait_ms = min(p.timeout or 0, POLL_WAIT_MAX_MS)
    if awaiting_approval(s):
        wait_ms = await _until_decided(core, s, agent, wait_ms)
        if awaiting_approval(s):
            return _pending_poll(core, s, p)
    if wait_ms and s.running and not s.output.pending:
        s.capture.arrived.clear()
        waiters = [asyncio.ensure_future(s.capture.arrived.wait()), asyncio.ensure_future(s.done.wait())]
        # its own agent's poll: an exit now reaches the agent through this poll, with no notice besides
        watching = core.notices.awaiting(s.id) if agent == s.agent else nullcontext()
        try:
            with watching:
                await asyncio.wait(waiters, timeout=wait_ms / 1000, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
    await core.look([s])
    text, dropped = s.output.pending.take()
    s.capture.arrived.clear()
    if text or dropped:
        s.record_meta()  # how far the agent has read: a restarted host gives it only what came after
    details = s.details()
    parts = []
    if dropped:
        parts.append(f"[{dropped} chars of unpolled output were dropped at the pending cap; use log for the retained text]")
    parts.append(text.rstrip("\n") if text else "(no new output)")
    if s.running:
        retry = BACKOFF.after_poll(s, bool(text))
        details["retryInMs"] = retry
        if details["waitingReason"] is None:  # blocked reading its terminal: waiting for the agent, not time
            parts.append(f"{_status_line(s)} Poll again in about {retry // 1000}s (or wait for the exit notification).")
        else:
            parts.append(_status_line(s))
        if (p.timeout or 0) > POLL_WAIT_MAX_MS:
            parts.append(f"(waited at most {POLL_WAIT_MAX_MS} ms, the longest a poll waits)")
        hint = input_hint(s, details)
        if hint:
            parts.append(hint)
    else:
        _told_if_own(core, s, agent)
        parts.append(_status_line(s))
    return result("\n".join(parts), s.status, newOutputChars=len(text), droppedChars=dropped, **_without_status(details))


async def _until_decided(core: ToolCore, s: Session, agent: str | None, wait_ms: int) -> int:
    """Wait up to ``wait_ms`` for the operator's decision on ``s``; the time left of the wait."""
    pending = core.approvals.find(s.id)
    if not wait_ms or pending is None:
        return 0
    loop = asyncio.get_running_loop()
    began = loop.time()
    waiter = asyncio.ensure_future(pending.settled.wait())
    watching = core.notices.awaiting(s.id) if agent == s.agent else nullcontext()
    try:
        with watching:  # an end decided meanwhile reaches the agent through this poll
            await asyncio.wait([waiter], timeout=wait_ms / 1000)
    finally:
        waiter.cancel()
    return max(0, wait_ms - round((loop.time() - began) * 1000))


def _pending_poll(core: ToolCore, s: Session, p: ProcessParams) -> ToolResult:
    details = s.details()
    retry = BACKOFF.after_poll(s, False)
    approval = s.approval or {}
    parts = ["(not started)", _status_line(s)]
    if (p.timeout or 0) > POLL_WAIT_MAX_MS:
        parts.append(f"(waited at most {POLL_WAIT_MAX_MS} ms, the longest a poll waits)")
    details.update(retryInMs=retry, expiresAtMs=approval.get("expiresAtMs"),
                   operatorAttached=core.approvals.approvers > 0)
    return result("\n".join(parts), Status.APPROVAL_PENDING, newOutputChars=0, droppedChars=0, **_without_status(details))
def _told_if_own(core: ToolCore, s: Session, agent: str | None) -> None:
    """The session's own agent has just read how it ended: its exit notice is spent. The operator's look
    (or anyone else's) leaves the notice to its agent."""
    if agent is not None and agent == s.agent and not s.running:
        core.notices.reported(s.id)


def _without_status(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("status", "droppedChars")}


async def log(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    await core.look([s])
    lines = s.output.full_text().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    if p.offset is None and p.limit is None:
        start, end = max(0, total - LOG_DEFAULT_LINES), total
    elif p.offset is None:
        assert p.limit is not None
        start, end = max(0, total - p.limit), total
    elif p.limit is None:
        start, end = min(p.offset, total), total
    else:
        start, end = min(p.offset, total), min(total, p.offset + p.limit)
    body = "\n".join(lines[start:end])
    parts = [dropped_note(s.output) + (body if body else "(no output in this range)")]
    hint = f"[lines {start}-{max(start, end - 1)} of {total}"
    if start > 0:
        hint += f"; earlier lines: offset={max(0, start - LOG_DEFAULT_LINES)} limit={min(start, LOG_DEFAULT_LINES)}"
    parts.append(hint + "]")
    stdin = "stdin open" if s.stdin_writable else "stdin closed"
    parts.append(f"{_status_line(s)} ({stdin})")
    decided = (s.approval or {}).get("decided")
    if decided:
        parts.append(f"Approval: {decided}.")
    details = s.details()
    waiting = input_hint(s, details)
    if waiting:
        parts.append(waiting)
    _told_if_own(core, s, agent)
    details.update(
        offset=start,
        lines=end - start,
        totalLines=total,
        inputs=s.inputs.to_json(),
        acts=live_acts(s),
    )
    return result("\n".join(parts), s.status, **_without_status(details))


async def screen(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    """What a PTY session's terminal shows now: a full-screen program (an editor, a pager, a menu) read as
    the operator sees it, where its output as text would be a jumble of redraws."""
    if not s.pty:
        return failure(f"session {s.id} runs on pipes: it has no screen; read its output with log", "not-a-pty",
                       sessionId=s.id)
    if core.terminal is None:
        return failure("this host has no terminal engine to draw screens; read the output with log",
                       "no-screen", sessionId=s.id)
    details = s.details()
    parts = [core.terminal.screen(s), _status_line(s)]
    waiting = input_hint(s, details)
    if waiting:
        parts.append(waiting)
    return result("\n".join(parts), s.status, **_without_status(details))


def live_acts(s: Session, decisions: bool = True) -> list[dict[str, Any]]:
    """The session's acts as the audit lists them (with ``atMs``), from what it holds now; ``decisions``:
    with the approvals noted among its inputs (the approvals file has them too)."""
    meta = {"agent": s.agent, "command": s.command, "placement": s.placement, "pty": s.pty, "node": s.node,
            "startedMs": s.started_ms, "started": s.exit.started}
    end = None if s.running else s.exit.to_json()
    acts = acts_of(s.id, meta, s.inputs.to_json(), s.capture.resized, end, s.exit.ended_ms or 0, decisions)
    return [{**a.to_json(), "atMs": a.at} for a in sorted(acts, key=lambda a: a.at)]


def input_hint(s: Session, details: dict[str, Any]) -> str | None:
    """The waiting hint for ``s``, if the kernel shows it reading its terminal or the idle rule says it waits."""
    if details["waitingReason"] is None and not details["waitingForInput"]:
        return None
    return waiting_hint(s.id, details["waitingReason"], kernel_checked=s.pty and kernel_evidence_available())


async def _end(s: Session, agent: str | None) -> None:
    """Kill on behalf of ``agent`` (or the operator) and wait until the session is marked ended."""
    await end_session(s, agent or "operator")
    await s.done.wait()


async def _withdraw(core: ToolCore, s: Session, agent: str | None) -> str:
    """Take back the request of a run that has not started (it never will)."""
    approval_id = (s.approval or {}).get("approvalId")
    core.approvals.withdraw(s.id, agent or "operator")
    core.notices.reported(s.id)
    return f"Withdrew the approval request {approval_id} of session {s.id}: it never ran."


async def kill(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    if awaiting_approval(s):
        text = await _withdraw(core, s, agent)
        return result(text, Status.COMPLETED, sessionStatus=s.status, **_without_status(s.details()))
    if not s.running:
        return failure(f"session {s.id} already ended ({s.exit.words()}); use clear to drop it", "not-running", sessionId=s.id)
    await _end(s, agent)
    _told_if_own(core, s, agent)
    text = f"Killed session {s.id} ({s.exit.words()})."
    if s.exit.cleanup == "uncertain":
        text += (" Warning: could not confirm that every process of the session is gone (cleanup: uncertain); "
                 f"still there: pid {', '.join(map(str, s.exit.leftover)) or 'unknown'}.")
    return result(text, Status.COMPLETED, sessionStatus=s.status, **_without_status(s.details()))


async def clear(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    if s.running:
        return failure(f"session {s.id} is still running; use kill to stop it or remove to stop and drop it", "still-running", sessionId=s.id)
    _forget(core, s, agent, "cleared")
    return result(f"Cleared session {s.id}.", Status.COMPLETED, sessionId=s.id)


async def remove(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    if awaiting_approval(s):
        await _withdraw(core, s, agent)
    elif s.running:
        await _end(s, agent)
    _forget(core, s, agent, "removed")
    return result(f"Removed session {s.id} ({s.exit.words()}).", Status.COMPLETED, sessionId=s.id, cleanup=s.exit.cleanup)


def _forget(core: ToolCore, s: Session, agent: str | None, how: str) -> None:
    """Drop ``s``, its record with it; the audit keeps its acts, and this one (who, when, what it was)."""
    core.registry.drop(s.id)
    if s.journal is not None:
        core.journal.act({"act": "removed", "by": agent or "operator", "atMs": now_ms(), "sessionId": s.id,
                          "node": s.node, "detail": f"{how}: {masked(s.command)} ({s.exit.words()})",
                          "acts": live_acts(s, decisions=False)})


_HANDLERS: dict[str, Handler] = {
    "poll": poll, "log": log, "screen": screen, "write": write, "send-keys": send_keys, "submit": submit, "paste": paste,
    "kill": kill, "clear": clear, "remove": remove, "export": export,
}
assert set(_HANDLERS) | {"list"} == set(ACTIONS)
