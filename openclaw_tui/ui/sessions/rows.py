"""What one row of the session list says about a session, and which rows a filter keeps.

Pure functions over a :class:`~openclaw_tui.remote.mirror.viewprotocols.SessionView`, so the list widget only
lays out what these decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text

from openclaw_tui.core.containment import Placement
from openclaw_tui.core.session import Status
from openclaw_tui.remote.mirror import SessionView

from .. import clock

STATES = ("all", "running", "waiting", "finished", "failed")
ALL_NODES, LOCAL = "all", "local"
UNREACHABLE = "grey50"
WAIT_MARK = "◆"

# Kernel evidence worth a word in the list; a plain blocked read is what "waiting" already says.
REASONS = {"password-prompt": "password"}

STATE_STYLES = {
    Status.RUNNING: "bold green",
    "waiting": "bold black on #ffaf00",
    Status.COMPLETED: "dim",
    Status.FAILED: "bold red",
}


def state_of(session: SessionView) -> str:
    """``running``, ``waiting``, ``completed`` or ``failed``: the word the list shows."""
    if session.waiting_for_input:
        return "waiting"
    return session.status


def failed(session: SessionView) -> bool:
    """Whether the operator should read ``session`` as a failure: the core's ``failed`` (not found, killed,
    timed out), or an exit with a non-zero code, which agents see as ``completed``."""
    return session.status == Status.FAILED or (not session.running and bool(session.exit.code))


def agent_label(session: SessionView) -> str:
    return session.agent if session.agent is not None else "operator"


def node_label(session: SessionView) -> str:
    return session.node if session.node is not None else LOCAL


def end_label(session: SessionView) -> str:
    """Exit code or signal of a finished session (``exit 0``, ``SIGKILL``, ``timeout``); empty while running."""
    if session.running:
        return ""
    if session.exit.timed_out:
        return "timeout"
    if session.exit.signal:
        return session.exit.signal
    if session.exit.code is None:  # no status could be had: the host that ran it died
        return "died" if session.exit.failure else "ended"  # its host died (the status column: failed)
    return f"exit {session.exit.code}"


@dataclass(frozen=True)
class RowFilter:
    """Text (matched in id, name, command, agent and node), a state from :data:`STATES` and a node (``all``,
    ``local`` or a node's name)."""

    text: str = ""
    state: str = "all"
    node: str = ALL_NODES

    def keeps(self, session: SessionView) -> bool:
        if self.node != ALL_NODES and node_label(session) != self.node:
            return False
        if self.state == "running" and not session.running:
            return False
        if self.state == "waiting" and not session.waiting_for_input:
            return False
        if self.state == "finished" and (session.status != Status.COMPLETED or failed(session)):
            return False
        if self.state == "failed" and not failed(session):
            return False
        needle = self.text.strip().lower()
        if not needle:
            return True
        hay = " ".join((session.id, session.name, session.command, agent_label(session), node_label(session))).lower()
        return all(word in hay for word in needle.split())


def where_label(session: SessionView) -> Text:
    """Where the command runs: the sandbox, the host, or the host by an elevated (sandbox-escaping) call."""
    if session.elevated:
        return Text("elevated", style="bold red")
    return Text("sandbox" if session.placement == Placement.SANDBOX else "host", style="dim" if not session.running else "")


def row_key(session: SessionView, unreachable: bool = False) -> tuple[object, ...]:
    """What :func:`row_cells` depends on, cheaply: equal keys draw equal rows (the list repaints on change)."""
    return (unreachable, session.id, session.name, session.agent, session.running, session.waiting_for_input,
            session.waiting_reason, session.status, session.exit.code, session.exit.signal, session.exit.timed_out,
            session.pty, session.placement, session.elevated, clock.format_runtime(clock.runtime_ms(session)))


def row_cells(session: SessionView, unreachable: bool = False) -> dict[str, Text]:
    """The cells of ``session``'s row, keyed by column key; waiting rows are marked and coloured, the rows of a
    node that does not answer (``unreachable``) greyed."""
    if unreachable:
        return _greyed(session)
    state = state_of(session)
    reason = session.waiting_reason
    style = STATE_STYLES[Status.FAILED] if failed(session) else STATE_STYLES.get(state, "")
    row_style = "bold #ffaf00" if state == "waiting" else ("dim" if not session.running else "")
    label = f"waiting ({REASONS[reason]})" if state == "waiting" and reason in REASONS else state
    return {
        "mark": Text(WAIT_MARK if state == "waiting" else " ", style="bold #ffaf00"),
        "node": Text(node_label(session), style=row_style),
        "id": Text(session.id, style=row_style),
        "name": Text(session.name, style=row_style, overflow="ellipsis", no_wrap=True),
        "agent": Text(agent_label(session), style=row_style),
        "state": Text(label, style=style),
        "runtime": Text(clock.format_runtime(clock.runtime_ms(session)), justify="right"),
        "end": Text(end_label(session), style="bold red" if failed(session) else row_style),
        "io": Text("pty" if session.pty else "pipe", style=row_style),
        "where": where_label(session),
    }


def _greyed(session: SessionView) -> dict[str, Text]:
    """A row as last seen on a node that does not answer now: what it was, all in grey, and that its node is
    unreachable where its state would be (nobody knows its state now)."""
    cells = {key: Text(cell.plain, style=UNREACHABLE) for key, cell in row_cells(session).items()}
    cells["mark"] = Text("?", style=UNREACHABLE)
    cells["state"] = Text("node unreachable", style=UNREACHABLE + " italic")
    return cells


def counts(sessions: Iterable[SessionView]) -> dict[str, int]:
    """How many sessions are running, waiting, finished and failed (waiting ones count as running too)."""
    out = {"running": 0, "waiting": 0, "finished": 0, "failed": 0}
    for s in sessions:
        if s.running:
            out["running"] += 1
            out["waiting"] += s.waiting_for_input
        elif failed(s):
            out["failed"] += 1
        else:
            out["finished"] += 1
    return out

