"""The socket's exec approvals methods: the operator lists, reads the history of and decides requests.

Answered like tool results (``{text, details}``), so ``openclaw-tui approvals`` reads them as ``call``
reads a tool's. A connection from a process inside a session gets ``failureKind: "caller-confined"`` and
nothing else: an agent must never approve its own request, whatever it runs. A decision records where it
came from: this connection's ``hello`` client, its peer pid, and the terminal the client names.
"""

from __future__ import annotations

from typing import Any, Protocol

from openclaw_tui.core.calls import calltext, failure, result
from openclaw_tui.core.host import SessionHost

from . import rpcparams as check
from .callers import Confinement


class Caller(Protocol):
    """What these methods need of a connection (the server's ``_Connection``)."""

    host: SessionHost
    confined: Confinement | None
    client: str
    pid: int | None


def _operator_only(conn: Caller, what: str) -> dict[str, Any] | None:
    if conn.confined is None:
        return None
    return failure(f"refused: this connection comes from a process inside session {conn.confined.session_id}, "
                   f"which may not {what}: only the operator decides exec approvals, from outside every "
                   "session (the dashboard, or openclaw-tui approvals in a terminal of their own)",
                   "caller-confined")


async def approvals_list(conn: Caller) -> dict[str, Any]:
    refused = _operator_only(conn, "list exec approval requests")
    if refused is not None:
        return refused
    listed = conn.host.pending_approvals()
    return result(f"{len(listed)} request{'s' if len(listed) != 1 else ''} waiting for the operator's approval",
                  "completed", approvals=listed)


async def approvals_history(conn: Caller) -> dict[str, Any]:
    refused = _operator_only(conn, "read the exec approvals' history")
    if refused is not None:
        return refused
    past = conn.host.approval_history()
    return result(f"{len(past)} past request{'s' if len(past) != 1 else ''}", "completed", approvals=past)


async def approvals_decide(conn: Caller, approvalId: Any, decision: Any, reason: Any = None, patterns: Any = None,
                           tty: Any = None) -> dict[str, Any]:
    refused = _operator_only(conn, "decide an exec approval")
    if refused is not None:
        return refused
    key, choice = check.text("approvalId", approvalId), check.text("decision", decision)
    reason = check.text("reason", reason) if reason is not None else None
    tty = check.text("tty", tty) if tty is not None else None
    if patterns is not None and not (isinstance(patterns, list) and all(isinstance(x, dict) for x in patterns)):
        raise check.invalid(f"patterns must be a list of {{pattern, argPattern?}} (got {calltext.shown(patterns)})")
    where = {"via": "socket", "client": conn.client or None, "tty": tty, "pid": conn.pid}
    return await conn.host.decide_approval(key, choice, reason, patterns, where)
