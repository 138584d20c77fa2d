"""What one row of the session list says about a session, and which rows a filter keeps.

Pure functions over a :class:`~openclaw_tui.remote.mirror.viewprotocols.SessionView`, so the list widget only
lays out what these decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text

from openclaw_tui.core.containment import Placement
from openclaw_tui.core.session import APPROVAL_DENIED, APPROVAL_TIMEOUT, APPROVAL_WITHDRAWN, Status
from openclaw_tui.remote.mirror import SessionView

from .. import clock

STATES = ("all", "running", "waiting", "finished", "failed")
ORDERS = ("newest", "waiting", "cpu", "memory", "runtime")
ALL_NODES, LOCAL = "all", "local"
ALL_AGENTS = "all"
HOT = "bold white on red"  # a session over the CPU warning for long enough
UNREACHABLE = "grey50"
WAIT_MARK = "◆"
MUTE_MARK = "⊘"

# Kernel evidence worth a word in the list; a plain blocked read is what "waiting" already says.
REASONS = {"password-prompt": "password"}

STATE_STYLES = {
    Status.RUNNING: "bold green",
    "waiting": "bold black on #ffaf00",
    Status.COMPLETED: "dim",
    Status.FAILED: "bold red",
    "approval": "bold black on #d7afff",
}


def state_of(session: SessionView) -> str:
    """``running``, ``waiting``, ``completed`` or ``failed``: the word the list shows."""
    if session.waiting_for_input:
        return "waiting"
    if session.status == Status.APPROVAL_PENDING:
        return "approval"
    return session.status


def failed(session: SessionView) -> bool:
    """Whether the operator should read ``session`` as a failure: the core's ``failed`` (not found, killed,
    timed out), or an exit with a non-zero code, which agents see as ``completed``."""
    return session.status == Status.FAILED or (not session.running and bool(session.exit.code))


def agent_label(session: SessionView) -> str:
    return session.agent if session.agent is not None else "operator"


def node_label(session: SessionView) -> str:
    return session.node if session.node is not None else LOCAL


NEVER_RAN = {APPROVAL_DENIED: "denied", APPROVAL_TIMEOUT: "expired", APPROVAL_WITHDRAWN: "withdrawn"}


def end_label(session: SessionView) -> str:
    """Exit code or signal of a finished session (``exit 0``, ``SIGKILL``, ``timeout``); empty while running."""
    if session.running:
        return ""
    if session.exit.timed_out:
        return "timeout"
    if session.exit.signal:
        return session.exit.signal
    if session.exit.failure in NEVER_RAN:  # the operator's decision, or none in time: nothing ran
        return NEVER_RAN[session.exit.failure]
    if session.exit.code is None:  # no status could be had: the host that ran it died
        return "died" if session.exit.failure else "ended"  # its host died (the status column: failed)
    return f"exit {session.exit.code}"


@dataclass(frozen=True)
class RowFilter:
    """Text (matched in id, name, command, agent and node), a state from :data:`STATES`, a node (``all``,
    ``local`` or a node's name), an agent (``all``, ``operator`` or an agent's name), and the order rows
    are listed in (:data:`ORDERS`)."""

    text: str = ""
    state: str = "all"
    node: str = ALL_NODES
    agent: str = ALL_AGENTS
    order: str = "newest"

    def keeps(self, session: SessionView) -> bool:
        if self.node != ALL_NODES and node_label(session) != self.node:
            return False
        if self.agent != ALL_AGENTS and agent_label(session) != self.agent:
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


def figures_of(session: SessionView) -> dict[str, object] | None:
    """Its last figures while it runs (a finished session holds nothing)."""
    figures = getattr(session, "resources", None)  # (a frontend's stand-in may have none)
    return figures if figures and session.running and session.status == Status.RUNNING else None


def cpu_of(session: SessionView) -> float:
    figures = figures_of(session)
    value = figures.get("cpuPercent") if figures else None
    return float(value) if isinstance(value, (int, float)) else 0.0


def rss_of(session: SessionView) -> int:
    figures = figures_of(session)
    value = figures.get("rssBytes") if figures else None
    return int(value) if isinstance(value, int) else 0


def cpu_label(session: SessionView) -> str:
    return f"{cpu_of(session):.0f}%" if figures_of(session) else ""


def size_label(count: int) -> str:
    """Bytes as ``512K``, ``38M``, ``1.2G``: at most four characters for anything under 1000 G."""
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if count >= size:
            value = count / size
            return f"{value:.1f}{unit}" if value < 10 and unit == "G" else f"{value:.0f}{unit}"
    return f"{count}B"


def mem_label(session: SessionView) -> str:
    return size_label(rss_of(session)) if figures_of(session) else ""


def ordered(sessions: Iterable[SessionView], order: str) -> list[SessionView]:
    """``sessions`` (given newest first) in ``order``: waiting ones first, or the costliest first (CPU,
    memory), or the longest running first; ties keep the newest first."""
    found = list(sessions)
    if order == "waiting":
        found.sort(key=lambda s: not s.waiting_for_input)
    elif order == "cpu":
        found.sort(key=cpu_of, reverse=True)
    elif order == "memory":
        found.sort(key=rss_of, reverse=True)
    elif order == "runtime":
        found.sort(key=clock.runtime_ms, reverse=True)
    return found


def where_label(session: SessionView) -> Text:
    """Where the command runs: the sandbox, the host, or the host by an elevated (sandbox-escaping) call."""
    if session.elevated:
        return Text("elevated", style="bold red")
    return Text("sandbox" if session.placement == Placement.SANDBOX else "host", style="dim" if not session.running else "")


def row_key(session: SessionView, unreachable: bool = False, hot: bool = False) -> tuple[object, ...]:
    """What :func:`row_cells` depends on, cheaply: equal keys draw equal rows (the list repaints on change)."""
    return (unreachable, hot, cpu_label(session), mem_label(session), session.id, session.name, session.agent, session.running, session.waiting_for_input,
            session.waiting_reason, prompt_of(session), session.muted, session.status, session.exit.code, session.exit.signal, session.exit.timed_out,
            session.pty, session.placement, session.elevated, clock.format_runtime(clock.runtime_ms(session)))


def prompt_of(session: SessionView) -> str | None:
    """What a waiting session asks (its last screen line), or None."""
    return session.prompt if session.waiting_for_input and session.prompt else None


def row_cells(session: SessionView, unreachable: bool = False, hot: bool = False) -> dict[str, Text]:
    """The cells of ``session``'s row, keyed by column key; waiting rows are marked and coloured, the rows of a
    node that does not answer (``unreachable``) greyed, and the CPU of a session over the warning for long
    enough (``hot``) in red."""
    if unreachable:
        return _greyed(session)
    state = state_of(session)
    reason = session.waiting_reason
    style = STATE_STYLES[Status.FAILED] if failed(session) else STATE_STYLES.get(state, "")
    row_style = "bold #ffaf00" if state == "waiting" else ("dim" if not session.running else "")
    label = f"waiting ({REASONS[reason]})" if state == "waiting" and reason in REASONS else state
    return {
        "mark": Text(WAIT_MARK if state == "waiting" else " ", style="bold #ffaf00"),
        "mute": Text(MUTE_MARK if session.muted else " ", style="dim"),
        "prompt": Text(prompt_of(session) or "", style="italic #ffaf00", overflow="ellipsis", no_wrap=True),
        "node": Text(node_label(session), style=row_style),
        "id": Text(session.id, style=row_style),
        "name": Text(session.name, style=row_style, overflow="ellipsis", no_wrap=True),
        "agent": Text(agent_label(session), style=row_style),
        "state": Text(label, style=style),
        "cpu": Text(cpu_label(session), style=HOT if hot else row_style, justify="right"),
        "mem": Text(mem_label(session), style=row_style, justify="right"),
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


class CpuWarning:
    """Which sessions have used more than ``limit`` % CPU for ``after_s`` seconds in a row, as the list sees
    their figures come (a reading under the limit starts the count again)."""

    def __init__(self, limit: float = 90.0, after_s: float = 10.0) -> None:
        self.limit, self.after_s = limit, after_s
        self._over_since: dict[str, float] = {}

    def hot(self, sessions: Iterable[SessionView], now: float) -> set[str]:
        over = {s.id for s in sessions if cpu_of(s) > self.limit}
        self._over_since = {sid: self._over_since.get(sid, now) for sid in over}
        return {sid for sid, since in self._over_since.items() if now - since >= self.after_s}


def counts(sessions: Iterable[SessionView]) -> dict[str, int]:
    """How many sessions are running, waiting, finished and failed (waiting ones count as running too)."""
    out = {"running": 0, "waiting": 0, "finished": 0, "failed": 0}
    for s in sessions:
        if s.status == Status.APPROVAL_PENDING:
            continue
        if s.running:
            out["running"] += 1
            out["waiting"] += s.waiting_for_input
        elif failed(s):
            out["failed"] += 1
        else:
            out["finished"] += 1
    return out

