"""Handing a host over to a new image of itself: a re-exec in place that ends no session and loses no byte.

:func:`capture` writes the host's state down and :func:`restore` builds it again; the socket, the exec and the
new image's start are :mod:`openclaw_tui.remote.server.reexec`'s.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from ..attention import Mutes
from ..config import ExecSettings, NodeSettings, NotifySettings, Settings
from ..containment import Child, SessionRun
from ..journal import HeldRecord
from ..session import Session
from ..tools import BACKOFF

if TYPE_CHECKING:
    from .supervisor import Supervisor

FORMAT = 1
"""The state this code writes. Raise it when a field becomes required; add optional fields freely."""
MIN_FORMAT = 1
"""The oldest state this code still reads."""
DUE_S = 0.001  # a timeout that fell due during the handover fires as soon as the session is supervised again


class CannotResume(Exception):
    """The state cannot be resumed from; the message says why in one line."""


@dataclass
class Handover:
    """A host written down for its next image: the state (JSON-ready) and the fds that must survive the exec."""

    state: dict[str, Any]
    fds: set[int]


def check_format(state: Any) -> dict[str, Any]:
    """``state`` if this code can resume from it; raises CannotResume naming the problem."""
    if not isinstance(state, dict) or not isinstance(state.get("format"), int):
        raise CannotResume("the handover state is not a host's state (no format)")
    if not MIN_FORMAT <= state["format"] <= FORMAT:
        raise CannotResume(f"the handover state has format {state['format']}; this code reads formats "
                           f"{MIN_FORMAT} to {FORMAT}")
    return state


def capture(core: Supervisor) -> Handover:
    """Stop watching every running child and write the whole host down (synchronous: nothing runs between
    the last byte read and the state written). A session still in its exec call's yield window is
    backgrounded first: the call ends with its connection, and ``list``/``poll`` find the session after."""
    running = [s for s in core.registry if s.running and s.child is not None]
    waiting = [s for s in core.registry if s.running and not s.exit.started]  # for the operator's approval
    for session in running + waiting:
        if not session.backgrounded:
            core.background(session)
    for session in running:
        assert session.child is not None
        session.child.detach()
    expiries, polls = core.registry.expiries(), BACKOFF.counts()
    entries, fds = [], set()
    for session in sorted(core.registry, key=lambda s: s.order):
        entry: dict[str, Any] = {"record": session.to_json(), "expires": expiries.get(session.id),
                                 "emptyPolls": polls.get(session.id, 0)}
        if session in running:
            entry["live"] = _live(session)
            assert session.child is not None
            fds |= session.child.fds
        entries.append(entry)
    containment = core.containment.handover()
    if containment["watchdog"] is not None:
        fds.add(containment["watchdog"]["fd"])
    journaled = [s.id for s in core.registry if s.journal is not None] if core.journal.writing else []
    state = {"format": FORMAT, "settings": settings_to_json(core.settings), "issued": sorted(core.registry.issued),
             "sessions": entries, "notices": core.notices.to_json(), "containment": containment,
             "journaled": journaled, "approvals": core.approvals.to_json(), "mutes": core.mutes.to_json()}
    return Handover(state, fds)


def release(core: Supervisor, handover: Handover | None) -> None:
    """The exec did not happen (or :func:`capture` itself failed: ``handover`` is None): watch every child
    again, as if nothing had been handed over."""
    for fd in handover.fds if handover is not None else ():
        os.set_inheritable(fd, False)
    for session in core.registry:
        if session.running and session.child is not None:
            session.child.attach()


def _live(session: Session) -> dict[str, Any]:
    """What a running session needs beyond its record: its child, its timeout and any termination under way."""
    run, now = session.run, time.monotonic()
    assert run is not None
    timeout_left = None
    if run.deadline is not None and not session.exit.timed_out:
        timeout_left = max(DUE_S, run.deadline - now)
    grace_left = None
    if run.ending is not None and not run.ending.done() and run.ending_since is not None:
        grace_left = max(0.0, session.settings.kill_grace_s - (now - run.ending_since))
    return {"child": run.child.handover(), "ptySize": run.pty_size, "programStarted": run.program_started,
            "timeoutLeft": timeout_left, "timeoutAt": run.deadline if timeout_left is not None else None,
            "graceLeft": grace_left, "held": session.capture.held_json(),
            "queryCarry": session.queries.carry.decode("latin-1"),
            "modeCarry": session.tracked_modes.carry.decode("latin-1"), "waitingReason": session.waiting_reason}


def restore(core: Supervisor, state: dict[str, Any]) -> list[Session]:
    """Go on as the host ``state`` describes (on the loop; ``core`` is new and holds no session): every
    session is back under its id, running ones with their children adopted and supervised again."""
    check_format(state)
    core.containment.adopt(state["containment"])
    for session_id in state["issued"]:
        core.registry.issued.add(session_id)
    core.notices.restore(state.get("notices", {}))
    core.mutes = Mutes.from_json(state.get("mutes", {}))
    revived = []
    for entry in state["sessions"]:
        session = core.revived(entry["record"])
        if entry.get("emptyPolls"):
            BACKOFF.restore(session, entry["emptyPolls"])
        live = entry.get("live")
        if live is None:
            core.registry.adopt(session, entry.get("expires"))
        else:
            _adopt(core, session, live)
        revived.append(session)
    core.approvals.restore(state.get("approvals", {}))
    journaled = set(state.get("journaled", ()))
    for session in revived:  # recorded on from where the journal stands, once it is open (Supervisor.restore)
        if session.id in journaled:
            session.record_to(HeldRecord(session.id))
    return revived


def _adopt(core: Supervisor, session: Session, live: dict[str, Any]) -> None:
    enclosure = core.containment.enclosure(session.id)
    if enclosure is None:
        raise CannotResume(f"session {session.id} runs but its container was not handed over")
    session.capture.restore_held(live.get("held", {}))
    session.queries.carry = live.get("queryCarry", "").encode("latin-1")
    session.tracked_modes.carry = live.get("modeCarry", "").encode("latin-1")
    child = Child.adopt(live["child"], session.on_data)
    size = live.get("ptySize")
    session.launched(SessionRun(child, session.placement, enclosure, (size[0], size[1]) if size else None,
                              program_started=live.get("programStarted", False)))
    session.update_waiting(live.get("waitingReason"))
    core.registry.adopt(session, None)
    core.adopt(session, _timeout_left(live), live.get("graceLeft"))


def _timeout_left(live: dict[str, Any]) -> float:
    """What the timeout has left now (0: none): counted to its monotonic deadline, which holds across the
    exec, so the handover's own seconds count too; an image that sent only what was left then is read so."""
    if live.get("timeoutAt") is not None:
        return max(DUE_S, float(live["timeoutAt"]) - time.monotonic())
    return float(live.get("timeoutLeft") or 0.0)


# -- settings ------------------------------------------------------------------------------------------
def settings_to_json(settings: Settings) -> dict[str, Any]:
    """The host's settings as JSON (the next image keeps them: a re-exec changes the code, not the config)."""
    return asdict(settings)


def settings_from_json(d: dict[str, Any]) -> Settings:
    """The settings :func:`settings_to_json` wrote; a field this code does not know is left out, and one it
    knows but the writer did not takes its default."""
    known = _known(Settings, d)
    known["exec"] = _exec(d.get("exec", {}))
    known["agents"] = {name: _exec(s) for name, s in d.get("agents", {}).items()}
    known["nodes"] = {name: NodeSettings(**_known(NodeSettings, n)) for name, n in d.get("nodes", {}).items()}
    if "notify" in d:
        notify: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                  for k, v in _known(NotifySettings, d["notify"]).items()}
        known["notify"] = NotifySettings(**notify)
    return Settings(**known)


def _exec(d: dict[str, Any]) -> ExecSettings:
    return ExecSettings(**_known(ExecSettings, d))


def _known(cls: type, d: dict[str, Any]) -> dict[str, Any]:
    """``d``'s fields that ``cls`` has, lists back as the tuples JSON turned them into."""
    names = {f.name for f in fields(cls)}
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k in names}
