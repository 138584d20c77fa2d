"""The exec approvals' gate on ``exec``: run, refuse (``exec-denied``), or reserve a session and ask.

:func:`admit` takes the run's policy (:mod:`..approvals.policy`) and, where what the command runs
matters, judges it against the allowlist on the PATH the run will have. :func:`ask` reserves the
session (listed and polled as ``approval-pending`` from the moment the exec returns) and opens the
request; :func:`pending_result` is what the agent reads then: that the command has not started, that the
operator decides and until when, and not to run it again.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from typing import Any

from ..approvals import (
    ASK,
    DENY,
    Analysis,
    ApprovalRequest,
    Launch,
    Pending,
    Policy,
    Verdict,
    moved,
    new_approval_id,
    verdict,
)
from ..calls import EXEC_FIELDS, ToolResult, result
from ..config import ExecSettings
from ..launch import run_path
from ..session import Session, Status, masked, now_ms
from .models import ExecParams
from .toolcore import ToolCore


@dataclass(frozen=True)
class Gate:
    """What the policy says of one run, the command judged (when that mattered) and the PATH it was on."""

    verdict: Verdict
    analysis: Analysis | None
    path: str
    cwd: str

    @property
    def script(self) -> str | None:
        """The command line to run instead of the command as written: the judged argv, when it matched."""
        if self.analysis is None or not self.analysis.matched:
            return None
        return self.analysis.script()

    def moved(self) -> str | None:
        """Why the matched command may not start after all: a program resolves differently just before the
        spawn than when it was matched."""
        if self.script is None or self.analysis is None:
            return None
        return moved(self.analysis.programs(), self.path, self.cwd)


async def admit(core: ToolCore, policy: Policy, params: ExecParams, agent: str | None, cwd: str, where: str,
                env: dict[str, str], run: ExecSettings) -> Gate:
    """The verdict on this run (see the module's docstring)."""
    path = run_path(env, run, os.environ)
    sandboxed = where == "sandbox"
    analysis = None
    if policy.needs_analysis(sandboxed):
        analysis = await core.approvals.judge(params.command, cwd, path, params.pty, agent)
    return Gate(verdict(policy, sandboxed, analysis), analysis, path, cwd)


def denied(gate: Gate) -> bool:
    return gate.verdict.action == DENY


def asks(gate: Gate) -> bool:
    return gate.verdict.action == ASK


def ask(core: ToolCore, gate: Gate, policy: Policy, params: ExecParams, agent: str | None, where: str,
        env: dict[str, str], timeout_s: float, run: ExecSettings) -> tuple[Session, Pending]:
    """Reserve the run's session and open its request: it starts only once the operator approves."""
    analysis = gate.analysis
    now = now_ms()
    session = core.reserve(params.command, agent, gate.cwd, params.pty, run)
    request = ApprovalRequest(
        new_approval_id(), session.id, agent, where, gate.cwd, params.command, masked(params.command),
        gate.verdict.why, now, now + policy.timeout_ms,
        segments=[c.to_json() for c in analysis.segments] if analysis else [],
        elevated=params.elevated, pty=params.pty,
        always_refused=_always_refused(analysis, agent),
        proposed=[e.to_json() for e in analysis.proposed(agent or "*")] if analysis else [],
    )
    launch = Launch(env, timeout_s, gate.path, analysis.script() if analysis else None, policy,
                    analysis.programs() if analysis else [])
    session.reserve(request.summary())
    return session, core.approvals.open(request, launch)


def _always_refused(analysis: Analysis | None, agent: str | None) -> str | None:
    if analysis is None:
        return "the command was not judged"
    refused = analysis.always_refused()
    if refused is None and not analysis.proposed(agent or "*"):
        return "every segment is on the allowlist already"
    return refused


def pending_result(core: ToolCore, session: Session, pending: Pending) -> ToolResult:
    """The exec's answer while the operator has not decided (``approval-pending``: not an error)."""
    request, policy = pending.request, pending.launch.policy
    attached = core.approvals.approvers > 0
    left_min = max(1, math.ceil((request.expires_ms - now_ms()) / 60000))
    who = ("An operator is watching and has been asked." if attached else
           "No operator is watching right now (no dashboard is attached); the request waits for one until then.")
    text = (f"Command NOT started: it needs the operator's approval ({request.why}).\n"
            f"The operator decides, you cannot: approval {request.approval_id} waits until "
            f"{_clock(request.expires_ms)} UTC (about {left_min} min), then askFallback = {policy.fallback!r} "
            f"decides. {who}\n"
            f"Do not re-run it: poll {session.id} (with a timeout) or wait for the notice; you will be told how it "
            "ends, approved or not.")
    details: dict[str, Any] = {k: session.details()[k] for k in EXEC_FIELDS}
    details.update(tail="", failureKind=None, approvalId=request.approval_id, expiresAtMs=request.expires_ms,
                   operatorAttached=attached, why=request.why, approval=session.approval)
    return result(text, Status.APPROVAL_PENDING, **details)


def waiting_notice(session: Session, request: ApprovalRequest) -> dict[str, Any]:
    """The one notice an agent gets while its run still waits for the operator."""
    text = (f"[approval] {session.id} ({session.name}) still waits for the operator's approval (approval "
            f"{request.approval_id}, until {_clock(request.expires_ms)} UTC); it has not started. Do not re-run it.")
    return {"sessionId": session.id, "name": session.name, "agent": session.agent, "status": Status.APPROVAL_PENDING,
            "kind": "approval-waiting", "approvalId": request.approval_id, "expiresAtMs": request.expires_ms,
            "text": text}


def _clock(ms: int) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(ms / 1000))
