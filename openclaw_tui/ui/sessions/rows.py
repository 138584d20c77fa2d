"""What one row of the session list says about a session, and which rows a filter keeps.

Pure functions over :class:`~openclaw_tui.core.session.Session` so the list widget only lays out what
these decide. A session is *waiting* when the host's idle rule says so (``waitingForInput``) or when the
kernel already reported why it is blocked (``waitingReason``, faster than the 15 s idle rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from ...core.session import COMPLETED, FAILED, Session
from .. import clock

STATES = ("all", "running", "waiting", "finished", "failed")
WAIT_MARK = "◆"

# Kernel evidence worth a word in the list; a plain blocked read is what "waiting" already says.
REASONS = {"password-prompt": "password"}

STATE_STYLES = {
    "running": "bold green",
    "waiting": "bold black on #ffaf00",
    "completed": "dim",
    "failed": "bold red",
}


def is_waiting(session: Session) -> bool:
    return session.running and (session.waiting_for_input or session.waiting_reason is not None)


def state_of(session: Session) -> str:
    """``running``, ``waiting``, ``completed`` or ``failed``: the word the list shows."""
    if is_waiting(session):
        return "waiting"
    return session.status


def agent_label(session: Session) -> str:
    return session.agent if session.agent is not None else "operator"


def end_label(session: Session) -> str:
    """Exit code or signal of a finished session (``exit 0``, ``SIGKILL``, ``timeout``); empty while running."""
    if session.running:
        return ""
    if session.exit.timed_out:
        return "timeout"
    if session.exit.signal:
        return session.exit.signal
    return f"exit {session.exit.code}"


@dataclass(frozen=True)
class RowFilter:
    """Text (matched in id, name, command and agent) and a state from :data:`STATES`."""

    text: str = ""
    state: str = "all"

    def keeps(self, session: Session) -> bool:
        if self.state == "running" and not session.running:
            return False
        if self.state == "waiting" and not is_waiting(session):
            return False
        if self.state == "finished" and session.status != COMPLETED:
            return False
        if self.state == "failed" and session.status != FAILED:
            return False
        needle = self.text.strip().lower()
        if not needle:
            return True
        hay = " ".join((session.id, session.name, session.command, agent_label(session))).lower()
        return all(word in hay for word in needle.split())


COLUMNS = (("mark", " "), ("id", "id"), ("name", "name"), ("agent", "agent"), ("state", "status"),
           ("runtime", "runtime"), ("end", "exit"), ("io", "io"), ("where", "runs in"))


def where_label(session: Session) -> Text:
    """Where the command runs: the sandbox, the host, or the host by an elevated (sandbox-escaping) call."""
    if session.elevated:
        return Text("elevated", style="bold red")
    return Text("sandbox" if session.placement == "sandbox" else "host", style="dim" if not session.running else "")


def row_cells(session: Session) -> dict[str, Text]:
    """The cells of ``session``'s row, keyed by column key; waiting rows are marked and coloured."""
    state = state_of(session)
    reason = session.waiting_reason
    style = STATE_STYLES.get(state, "")
    row_style = "bold #ffaf00" if state == "waiting" else ("dim" if not session.running else "")
    label = f"waiting ({REASONS[reason]})" if state == "waiting" and reason in REASONS else state
    return {
        "mark": Text(WAIT_MARK if state == "waiting" else " ", style="bold #ffaf00"),
        "id": Text(session.id, style=row_style),
        "name": Text(session.name, style=row_style, overflow="ellipsis", no_wrap=True),
        "agent": Text(agent_label(session), style=row_style),
        "state": Text(label, style=style),
        "runtime": Text(clock.format_runtime(clock.runtime_ms(session)), justify="right"),
        "end": Text(end_label(session), style="bold red" if session.status == FAILED else row_style),
        "io": Text("pty" if session.pty else "pipe", style=row_style),
        "where": where_label(session),
    }


def input_preview(text: str) -> str:
    """An input's recorded preview for one line of the screen: control characters escaped, the rest as given.

    The preview is shown as the host recorded it and never derived again from what was sent: the host
    redacts input typed at a password prompt (its preview is then ``•••``), so non-ASCII text must stay
    as it is. Enter, Tab and Backspace show as the keys they are (⏎ ⇥ ⌫); other characters a terminal
    would act on (``\\x1b``) and the backslash itself are escaped.
    """
    return "".join(_KEY_SIGNS.get(ch) or (ch if ch.isprintable() and ch != "\\" else
                                           ch.encode("unicode_escape").decode("ascii")) for ch in text)


_KEY_SIGNS = {"\r": "⏎", "\n": "⏎", "\t": "⇥", "\x7f": "⌫"}


def counts(sessions: list[Session]) -> dict[str, int]:
    """How many sessions are running, waiting, finished and failed (waiting ones count as running too)."""
    out = {"running": 0, "waiting": 0, "finished": 0, "failed": 0}
    for s in sessions:
        if s.running:
            out["running"] += 1
            out["waiting"] += is_waiting(s)
        elif s.status == FAILED:
            out["failed"] += 1
        else:
            out["finished"] += 1
    return out

