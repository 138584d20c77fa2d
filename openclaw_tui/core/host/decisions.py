"""What the host does with the operator's decisions: start the approved run, or end its session never run.

The exec approvals (:mod:`..approvals.pending`) decide; the host acts (:class:`~.supervisor.Supervisor`
wires these in). An approved run is looked up again first and does not start if a program resolves
differently from what was judged; either way its session's inputs record the decision ("approved by
operator (openclaw-tui approvals, /dev/pts/3) at …"). Every request and decision goes to operator
frontends as an event and to the journal, fsynced. After a crash, a request the journal holds undecided is void: its session,
if it was journaled, comes back as ``host-died``, never run.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from ..approvals import (
    APPROVED,
    DECIDED,
    DENIED,
    EXPIRED,
    REQUESTED,
    VOID,
    WITHDRAWN,
    ApprovalRequest,
    Approvals,
    Decision,
    Pending,
    moved,
)
from ..containment import Containment
from ..journal import Journal
from ..launch import LaunchError, start
from ..session import (
    APPROVAL_DENIED,
    APPROVAL_TIMEOUT,
    APPROVAL_WITHDRAWN,
    HOST_CLOSED,
    ApprovalState,
    Event,
    EventBus,
    EventKind,
    ExitNotice,
    Registry,
    Session,
    now_ms,
)
from ..tools import Notices, waiting_notice


class Host(Protocol):
    """What acting on a decision takes of the host (:class:`~.supervisor.Supervisor` is it)."""

    registry: Registry
    containment: Containment
    bus: EventBus
    journal: Journal
    notices: Notices
    approvals: Approvals

    def publish(self, kind: EventKind, session: Session) -> None: ...

    def supervise(self, session: Session, timeout_s: float) -> None: ...

    def finish(self, session: Session) -> None: ...


FAILURES = {DENIED: APPROVAL_DENIED, EXPIRED: APPROVAL_TIMEOUT, WITHDRAWN: APPROVAL_WITHDRAWN, VOID: HOST_CLOSED}


def settled(core: Host, pending: Pending) -> bool:
    """Act on ``pending``'s decision; True when the run started."""
    request, launch = pending.request, pending.launch
    session = core.registry.get(request.session_id, None)
    decision = request.decision
    if session is None or decision is None or not session.running or session.exit.started:
        return False
    session.approval = request.summary()
    session.inputs.note(decision.by, decision.state, decision.words())
    if decision.state == APPROVED or (decision.state == EXPIRED and decision.ran):
        problem = moved(launch.programs, launch.path, request.cwd) if launch.script else None
        if problem is not None:
            ended(core, session, "exec-denied", f"{problem}; nothing was run")
            return False
        session.begin()
        try:
            session.launched(start(session, launch.env, os.environ, core.containment, launch.script))
        except LaunchError as exc:
            ended(core, session, exc.kind, str(exc))
            return False
        session.record_meta()
        core.publish(EventKind.STARTED, session)
        core.supervise(session, launch.timeout_s)
        return True
    if decision.state == WITHDRAWN:
        session.exit.asked(decision.by)  # the agent (or the operator) ended it: no exit notice
    ended(core, session, FAILURES.get(decision.state, APPROVAL_DENIED), decision.reason)
    return False


def ended(core: Host, session: Session, failure: str, reason: str | None) -> None:
    """A reserved session ends without having run: listed as ``failed``, its agent told as of any end."""
    session.mark_never_ran(failure, reason)
    core.finish(session)


def changed(core: Host, kind: str, request: ApprovalRequest) -> None:
    """A request was made or decided: operator frontends hear of it, the journal keeps it."""
    data = request.to_json()
    core.bus.publish(Event(EventKind.APPROVAL_REQUESTED if kind == REQUESTED else EventKind.APPROVAL_DECIDED,
                           request.session_id, ApprovalState(data)))
    core.journal.approval({"event": kind, **data})
    session = core.registry.get(request.session_id, None)
    if session is not None and session.running and not session.exit.started:
        session.approval = request.summary()


def notice(core: Host, request: ApprovalRequest) -> None:
    """The one "still waiting" notice, queued for the agent and sent as its exit notices are."""
    session = core.registry.get(request.session_id, None)
    if session is not None and session.agent is not None:
        told = waiting_notice(session, request)
        core.notices.add(told)
        core.bus.publish(Event(EventKind.NOTIFICATION, session.id, ExitNotice.from_json(told)))


def recovered(core: Host, records: list[dict[str, Any]]) -> None:
    """The history the journal holds; a request it holds undecided (its host died) is void now, and that
    is journaled too."""
    last: dict[str, dict[str, Any]] = {}
    for record in records:
        if isinstance(record.get("approvalId"), str):
            last[record["approvalId"]] = record
    past = []
    for approval_id, record in last.items():
        try:
            request = ApprovalRequest.from_json(record)
        except (KeyError, TypeError, ValueError):
            continue
        if record.get("event") == REQUESTED and core.approvals.find(approval_id) is None:
            request.decision = Decision(VOID, "host", now_ms(), reason="the host died before anyone decided")
            core.journal.approval({"event": DECIDED, **request.to_json()})
        past.append(request)
    core.approvals.remember(r for r in past if core.approvals.find(r.approval_id) is None)
