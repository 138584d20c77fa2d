"""The socket methods only the operator may call: ``notify.mute`` and ``notify.test``.

A connection from a process inside a session is refused with a failed result (``caller-confined``), as a
``call`` acting as the operator is.
"""

from __future__ import annotations

from typing import Any

from openclaw_tui.core.calls import ToolResult, failure, result
from openclaw_tui.core.host import SessionHost

from . import rpcparams as check
from .callers import Confinement


def refused(confined: Confinement | None) -> ToolResult | None:
    """The failed result for a connection that may not act as the operator, or None when it may."""
    if confined is None:
        return None
    return failure(f"refused: this connection comes from a process inside session {confined.session_id}; "
                   "only the operator may do this, from outside every session", "caller-confined")


async def notify_mute(host: SessionHost, confined: Confinement | None, muted: Any, session_id: Any,
                      agent: Any) -> ToolResult:
    if not isinstance(muted, bool):
        raise check.invalid("muted must be true or false")
    for name, value in (("sessionId", session_id), ("agent", agent)):
        if value is not None:
            check.text(name, value)
    return refused(confined) or await host.mute(muted, session_id, agent)


async def notify_test(host: SessionHost, confined: Confinement | None) -> ToolResult:
    no = refused(confined)
    if no is not None:
        return no
    hooks = host.supervisor.settings.notify.hooks
    if not hooks:
        return failure("no notification hooks are configured: set command, webhook or desktop in the [notify] "
                       "table of the config file", "no-hooks")
    outcomes = await host.notify_test()
    lines = [o.line() for o in outcomes]
    status = "completed" if all(o.ok for o in outcomes) else "failed"
    return result("\n".join(lines), status, outcomes=[o.__dict__ for o in outcomes],
                  **({} if status == "completed" else {"failureKind": "hook-failed"}))
