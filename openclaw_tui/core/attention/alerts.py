"""What a notification says: one :class:`Alert` per event, and the :class:`AlertBatch` a merge window makes.

Every hook words a batch from these alone, so a command, a webhook and the desktop all say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LISTED = 4  # sessions a merged text names; the rest are counted

WAITING, FAILED, APPROVAL, HOST_DIED, EXITED, NODE_UNREACHABLE = (
    "waiting", "failed", "approval", "host-died", "exited", "node-unreachable")
TEST = "test"  # ``openclaw-tui notify --test``


@dataclass(frozen=True)
class Alert:
    """One event as the operator hears of it (the fields every hook gets)."""

    event: str
    session_id: str | None
    agent: str | None
    node: str | None
    name: str
    status: str | None
    exit_code: int | None
    at: str
    prompt: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "sessionId": self.session_id, "agent": self.agent, "node": self.node,
                "name": self.name, "status": self.status, "exitCode": self.exit_code, "at": self.at,
                "prompt": self.prompt}

    @property
    def who(self) -> str:
        """The session in a few words: ``brisk-atlas (npm init, main)``."""
        if self.session_id is None:
            return f"node {self.node}"
        return f"{self.session_id} ({self.name}, {self.agent or 'operator'})"

    def words(self) -> str:
        """What happened, in one line."""
        if self.event == TEST:
            return self.prompt or "a test notification"
        if self.event == WAITING:
            return f"{self.who} waits for input" + (f": {self.prompt}" if self.prompt else "")
        if self.event == APPROVAL:
            return f"{self.who} needs approval" + (f": {self.prompt}" if self.prompt else "")
        if self.event == HOST_DIED:
            return f"{self.who} ended when its host died"
        if self.event == NODE_UNREACHABLE:
            return f"{self.who} does not answer" + (f": {self.prompt}" if self.prompt else "")
        how = f"exit code {self.exit_code}" if self.exit_code is not None else self.status or "ended"
        return f"{self.who} {'failed' if self.event == FAILED else 'exited'} ({how})"


_MANY = {WAITING: "wait for input", APPROVAL: "need approval", FAILED: "failed", EXITED: "exited",
         HOST_DIED: "ended when their host died", NODE_UNREACHABLE: "do not answer", TEST: "are tests"}


@dataclass(frozen=True)
class AlertBatch:
    """The alerts of one kind that came within one merge window, oldest first (never empty)."""

    alerts: tuple[Alert, ...]

    @property
    def event(self) -> str:
        return self.alerts[0].event

    @property
    def text(self) -> str:
        """The batch in one line: the alert's own words, or how many and which."""
        if len(self.alerts) == 1:
            return self.alerts[0].words()
        named = "; ".join(a.words() for a in self.alerts[:LISTED])
        more = f"; and {len(self.alerts) - LISTED} more" if len(self.alerts) > LISTED else ""
        noun = "nodes" if self.event == NODE_UNREACHABLE else "sessions"
        return f"{len(self.alerts)} {noun} {_MANY[self.event]}: {named}{more}"

    def to_json(self) -> dict[str, Any]:
        """The first alert's fields, the batch's ``text`` and ``count``, and every alert (``merged``) when
        there are several."""
        out = {**self.alerts[0].to_json(), "text": self.text, "count": len(self.alerts)}
        if len(self.alerts) > 1:
            out["merged"] = [a.to_json() for a in self.alerts]
        return out

    def fields(self) -> dict[str, str]:
        """The fields as text, for a command's placeholders and environment (a missing value is empty)."""
        out = {k: "" if v is None else str(v) for k, v in self.alerts[0].to_json().items()}
        out.update(text=self.text, count=str(len(self.alerts)),
                   sessions=" ".join(a.session_id or a.node or "" for a in self.alerts))
        return out
