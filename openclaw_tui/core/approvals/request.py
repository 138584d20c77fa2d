"""One request for the operator's approval, and its decision: what is shown, journaled and listed.

A request names the run it stands for (its reserved session, agent, node, where it would run, its
directory and command, each segment with its program and whether it matched) and why it asks; until when
it waits; whether "allow always" may be offered, and what it would add. Its decision says what came of it
(approved, denied, expired, withdrawn, void), who decided (the operator, with the client and terminal it
decided from, or ``askFallback``), when, and the operator's reason. It is plain data both ways.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

PENDING, APPROVED, DENIED, EXPIRED, WITHDRAWN, VOID = "pending", "approved", "denied", "expired", "withdrawn", "void"
ALLOW_ONCE, ALLOW_ALWAYS, DENY = "allow-once", "allow-always", "deny"
DECISIONS = (ALLOW_ONCE, ALLOW_ALWAYS, DENY)


_HIDDEN = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x061C, *range(0x202A, 0x202F),
           *range(0x2066, 0x206A)}  # zero-width and bidirectional controls: they change what a reader sees


def visible(text: str) -> str:
    """``text`` with every control and bidirectional character written out (``\\x1b``, ``\\u202e``), so
    what the operator reads is what would run: no escape sequence redraws it, no override reorders it."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 and ch != " " or 0x7F <= code < 0xA0:
            out.append("\\n" if ch == "\n" else "\\t" if ch == "\t" else f"\\x{code:02x}")
        elif code in _HIDDEN:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def terminal_name() -> str | None:
    """The terminal this process runs in (``/dev/pts/3``), for the record of where the operator decided."""
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                return os.ttyname(fd)
        except OSError:
            continue
    return None


def new_approval_id() -> str:
    return "ap-" + secrets.token_hex(4)


def iso_ms(ms: int | None) -> str:
    if ms is None:
        return "?"
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + "Z"


@dataclass
class Decision:
    """What came of a request: ``state``, ``by`` whom (``operator``, ``askFallback``, an agent that
    withdrew it, ``host``), when, from where (``via``, ``client``, ``tty``, ``pid``), and whether it ran."""

    state: str
    by: str
    at_ms: int
    ran: bool = False
    reason: str | None = None
    always: bool = False
    via: str | None = None
    client: str | None = None
    tty: str | None = None
    pid: int | None = None

    def words(self) -> str:
        """``approved by operator (openclaw-tui approvals, /dev/pts/3) at 2026-12-01T10:00:00Z``."""
        where = ", ".join(str(p) for p in (self.client or self.via, self.tty) if p)
        verb = {APPROVED: "approved" + (" for good" if self.always else ""), DENIED: "denied",
                EXPIRED: "not decided in time", WITHDRAWN: "withdrawn", VOID: "void"}.get(self.state, self.state)
        text = f"{verb} by {self.by}" + (f" ({where})" if where else "") + f" at {iso_ms(self.at_ms)}"
        return text + (f": {self.reason}" if self.reason else "")

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "by": self.by, "atMs": self.at_ms, "ran": self.ran, "reason": self.reason,
                "always": self.always, "via": self.via, "client": self.client, "tty": self.tty, "pid": self.pid}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Decision:
        return cls(d["state"], d["by"], d["atMs"], bool(d.get("ran")), d.get("reason"), bool(d.get("always")),
                   d.get("via"), d.get("client"), d.get("tty"), d.get("pid"))


@dataclass
class ApprovalRequest:
    """A run waiting for (or done waiting for) the operator; see the module's docstring."""

    approval_id: str
    session_id: str
    agent: str | None
    placement: str
    cwd: str
    command: str
    masked: str  # the command as everyone may see it (secrets masked)
    why: str
    created_ms: int
    expires_ms: int
    segments: list[dict[str, Any]] = field(default_factory=list)
    elevated: bool = False
    pty: bool = False
    always_refused: str | None = None  # why "allow always" is not offered
    proposed: list[dict[str, Any]] = field(default_factory=list)  # what "allow always" adds
    decision: Decision | None = None
    node: str | None = None

    @property
    def state(self) -> str:
        return PENDING if self.decision is None else self.decision.state

    def summary(self) -> dict[str, Any]:
        """What the session's details say of its request."""
        return {"approvalId": self.approval_id, "state": self.state, "why": self.why, "expiresAtMs": self.expires_ms,
                "decision": self.decision.to_json() if self.decision else None,
                "decided": self.decision.words() if self.decision else None}

    def to_json(self) -> dict[str, Any]:
        """As ``openclaw-tui approvals --json`` lists it (and the journal keeps it)."""
        return {
            "approvalId": self.approval_id, "sessionId": self.session_id, "agent": self.agent, "node": self.node,
            "placement": self.placement, "elevated": self.elevated, "pty": self.pty, "cwd": self.cwd,
            "command": self.command, "maskedCommand": self.masked, "segments": self.segments, "why": self.why,
            "createdAtMs": self.created_ms, "expiresAtMs": self.expires_ms, "state": self.state,
            "allowAlways": self.always_refused is None, "allowAlwaysRefused": self.always_refused,
            "proposed": self.proposed, "decision": self.decision.to_json() if self.decision else None,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ApprovalRequest:
        decision = Decision.from_json(d["decision"]) if d.get("decision") else None
        return cls(d["approvalId"], d["sessionId"], d.get("agent"), d["placement"], d["cwd"], d["command"],
                   d.get("maskedCommand", d["command"]), d["why"], d["createdAtMs"], d["expiresAtMs"],
                   list(d.get("segments") or []), bool(d.get("elevated")), bool(d.get("pty")),
                   d.get("allowAlwaysRefused"), list(d.get("proposed") or []), decision, d.get("node"))
