"""The audit: every act the journal holds, across its sessions, with when, who and on which session.

Read-only, with or without a host: it never takes the journal's lock, repairs nothing and writes nothing, so
it reads a running host's record (up to the last ``flush_interval``) as well as a dead one's. Each kind of act
comes from the record that holds it (:data:`ACTS`); a later record joins by adding its reader here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..session import HOST_DIED, ExitRecord, iso, masked
from . import records as rec
from .disk import SUFFIX
from .replay import RecoveredSession, replay

ACTS = ("started", "input", "resized", "approval-requested", "approved", "denied", "killed", "removed", "ended",
        "host-died", "reexec")
HOST, OPERATOR = "host", "operator"
# Acts within one millisecond, in the order they cause each other: a decision before the start it allows, an
# end before the removal of what ended.
_CAUSAL = ("approval-requested", "approved", "denied", "started", "input", "resized", "killed", "ended",
           "host-died", "removed", "reexec")
assert sorted(_CAUSAL) == sorted(ACTS)
_DECIDED = {"approved": "approved", "denied": "denied", "expired": "denied", "withdrawn": "denied", "void": "denied"}


@dataclass(frozen=True)
class AuditAct:
    """One act: ``at`` (ms since the epoch), which act (one of :data:`ACTS`), who (an agent's name,
    ``operator`` or ``host``), on which session (and node: None for this machine), and what, in words."""

    at: int
    act: str
    actor: str
    session_id: str | None
    node: str | None
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"at": iso(self.at), "act": self.act, "actor": self.actor, "sessionId": self.session_id,
                "node": self.node, "detail": self.detail}


def read(root: str) -> tuple[list[RecoveredSession], list[dict[str, Any]]]:
    """The sessions of the journal directory ``root`` and the records of its approvals file (read only)."""
    sessions: list[RecoveredSession] = []
    folder = os.path.join(root, "sessions")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(SUFFIX):
            found = _scan(os.path.join(folder, name))
            session, _ = replay(found)
            if session is not None:
                sessions.append(session)
    events: list[dict[str, Any]] = []
    for kind, payload, _ in _scan(os.path.join(root, "approvals.jnl")):
        if kind == rec.APPROVAL:
            try:
                value = rec.read_json(payload)
            except ValueError:
                continue
            if isinstance(value, dict):
                events.append(value)
    return sessions, events


def _scan(path: str) -> list[tuple[bytes, bytes, int]]:
    try:
        with open(path, "rb") as fh:
            return rec.scan(fh.read()).records
    except OSError:
        return []  # gone meanwhile (forgotten, compacted and renamed): the next read has it


def session_acts(s: RecoveredSession) -> list[AuditAct]:
    """What one session's file tells: its start, its inputs, resizes by someone, its kill and its end."""
    return acts_of(s.session_id, s.meta, s.inputs, s.sizes, (s.exit or {}).get("exit"),
                   int((s.ended_at or 0) * 1000))


def acts_of(sid: str, meta: dict[str, Any], inputs: Iterable[dict[str, Any]],
            sizes: Iterable[tuple[int, int, int, int, str | None]], end: Any, ended_ms: int,
            decisions: bool = False) -> list[AuditAct]:
    """One session's acts from its parts as the journal keeps them (a live session's too). The decisions
    noted among its inputs are left to the approvals file, unless ``decisions``."""
    node, out = meta.get("node"), []
    if meta.get("started", True) and meta.get("startedMs"):
        where = f"{meta.get('placement') or 'gateway'}{', pty' if meta.get('pty') else ''}"
        out.append(AuditAct(int(meta["startedMs"]), "started", meta.get("agent") or OPERATOR, sid, node,
                       f"{masked(str(meta.get('command', '')))} ({where})"))
    for record in inputs:
        action, at, by = str(record.get("action", "")), int(float(record["at"]) * 1000), record.get("source")
        if action in _DECIDED:  # a decision noted among the inputs
            if decisions:
                out.append(AuditAct(at, _DECIDED[action], str(by or OPERATOR), sid, node, str(record.get("preview"))))
            continue
        out.append(AuditAct(at, "input", str(by or OPERATOR), sid, node, f"{action} {record.get('preview', '')!r}"))
    for _, cols, rows, at, who in sizes:
        if at and who:  # not the PTY's size as it opened (nobody's), nor a size from before times were kept
            out.append(AuditAct(at, "resized", who, sid, node, f"{cols}x{rows}"))
    if isinstance(end, dict):
        out += _end_acts(end, sid, node, ended_ms)
    return out


def _end_acts(end: dict[str, Any], sid: str, node: str | None, journaled_ms: int) -> list[AuditAct]:
    record = ExitRecord.from_json(end)
    at = record.ended_ms or journaled_ms
    out: list[AuditAct] = []
    by = record.killed_by
    if by and by not in ("timeout", "shutdown"):
        out.append(AuditAct(record.asked_ms or at, "killed", by, sid, node, "kill"))
    if record.failure == HOST_DIED:
        out.append(AuditAct(at, "host-died", HOST, sid, node, "it was running when its host died"))
    elif record.started:
        out.append(AuditAct(at, "ended", by if by in ("timeout", "shutdown") else HOST, sid, node,
                       f"{record.status}, {record.words()}"))
    return out


def host_acts(events: Iterable[dict[str, Any]]) -> list[AuditAct]:
    """What the approvals file tells: each request and decision, and the host's own acts."""
    out: list[AuditAct] = []
    for e in events:
        sid, node = e.get("sessionId"), e.get("node")
        if e.get("event") == rec.ACT_EVENT:
            if e.get("act") in ACTS:
                out.append(AuditAct(int(e.get("atMs") or 0), str(e["act"]), str(e.get("by") or HOST), sid, node,
                               str(e.get("detail") or "")))
            for a in e.get("acts") or ():  # a removed session's own acts: its file went with it
                if isinstance(a, dict) and a.get("act") in ACTS:
                    out.append(AuditAct(int(a["atMs"]), str(a["act"]), str(a["actor"]), a.get("sessionId"),
                                   a.get("node"), str(a.get("detail") or "")))
            continue
        decision = e.get("decision")
        if isinstance(decision, dict):
            state = str(decision.get("state"))
            out.append(AuditAct(int(decision.get("atMs") or 0), _DECIDED.get(state, "denied"),
                           str(decision.get("by") or OPERATOR), sid, node,
                           state + (f": {decision['reason']}" if decision.get("reason") else "")))
        else:
            out.append(AuditAct(int(e.get("createdAtMs") or 0), "approval-requested", str(e.get("agent") or OPERATOR),
                           sid, node, f"{e.get('maskedCommand', '')} ({e.get('why', '')})"))
    return out


def read_acts(root: str, since: int | None = None, agent: str | None = None,
             session: str | None = None) -> list[AuditAct]:
    """Every act the journal directory ``root`` holds, oldest first, each once; ``agent`` keeps the acts
    on that agent's sessions, ``session`` those of one session."""
    sessions, events = read(root)
    acts = [a for s in sessions for a in session_acts(s)] + host_acts(events)
    owners = {s.session_id: s.meta.get("agent") or OPERATOR for s in sessions}
    owners.update({str(e.get("sessionId")): e.get("agent") or OPERATOR for e in events if "agent" in e})
    unique = sorted(set(acts), key=lambda a: (a.at, _CAUSAL.index(a.act)))
    return [a for a in unique if (since is None or a.at >= since) and (session is None or a.session_id == session)
            and (agent is None or owners.get(a.session_id or "") == agent or a.actor == agent)]
