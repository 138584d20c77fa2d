"""A host's sessions across its starts: where its journal lives, and what a new host rebuilds from it."""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..config import HEAD_CHARS, Settings
from ..containment import Swept
from ..session import INPUT_HISTORY, ExitRecord, Session
from ..vt import ModeTracker
from .limits import Caps
from .recover import Recovered
from .replay import RecoveredSession
from .store import Journal

NAME_CHARS = 16  # of the socket path's hash: a directory name, not a secret


def journal_name(socket: str | os.PathLike[str]) -> str:
    """The journal's name for the host serving ``socket`` (the hash of its absolute path)."""
    path = os.path.abspath(os.fspath(socket)).encode("utf-8", "surrogateescape")
    return hashlib.sha256(path).hexdigest()[:NAME_CHARS]


def open_journal(settings: Settings, socket: str | os.PathLike[str]) -> tuple[Journal, Recovered]:
    """The journal of the host serving ``socket``, and what it holds (blocking: run it in a thread).
    Never raises: a directory that cannot be used gives a degraded journal whose ``problem`` says why."""
    journal = Journal.open(settings.state_dir, name=journal_name(socket))
    if journal.directory is not None:
        try:  # for a person looking at the directory: which host's record this is
            fd = os.open(os.path.join(journal.directory, "socket"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "w", encoding="utf-8") as fh:
                fh.write(os.path.abspath(os.fspath(socket)) + "\n")
        except OSError:
            pass  # a full disk says so when the journal writes
    try:
        return journal, journal.load()
    except Exception as exc:  # noqa: BLE001  (a journal this code cannot read must not stop the host)
        journal.degrade(f"journal stopped: reading it back failed ({type(exc).__name__}: {exc}); "
                        "sessions are kept in memory only")
        return journal, Recovered()


def caps_of(session: Session) -> Caps:
    """What a session's record keeps: what the session itself retains."""
    s = session.settings
    return Caps(head_chars=session.output.head_max, tail_chars=s.max_output_chars, raw_bytes=s.raw_ring_bytes,
                inputs=INPUT_HISTORY)


def status(journal: Journal) -> dict[str, Any]:
    """Whether sessions are being saved, and the journal's problem if it has one (as results show it)."""
    return {"saving": journal.writing, "problem": journal.problem}


@dataclass
class Restored:
    """What a start brought back: ``finished`` sessions, ``died`` (running when their host died),
    ``expired`` (past their TTL: forgotten), and a line for each record that could not be rebuilt."""

    finished: int = 0
    died: int = 0
    expired: int = 0
    problems: list[str] = field(default_factory=list)

    def describe(self) -> str | None:
        """One line for the host's log, or None when nothing was there."""
        if not (self.finished or self.died or self.expired or self.problems):
            return None
        parts = [f"{self.finished} finished session{'s' if self.finished != 1 else ''} restored from the journal"]
        if self.died:
            parts.append(f"{self.died} that were running when the previous host died are listed as ended "
                         "(failureKind host-died)")
        if self.expired:
            parts.append(f"{self.expired} past their TTL forgotten")
        return "; ".join(parts + self.problems)


def rebuild(found: RecoveredSession, on_change: Callable[[str, Session], None]) -> Session:
    """The session ``found`` describes, without a child; one with no exit is returned still running (the
    caller marks how it ended). Raises (ValueError, KeyError, TypeError) for a record it cannot use."""
    meta, end = found.meta, found.exit or {}
    settings = meta["settings"]
    out = found.output
    tail = [{"stream": stream, "text": text} for stream, text in out.tail]
    tail_size = sum(len(text) for _, text in out.tail)
    text = {"maxChars": settings["max_output_chars"], "pendingMax": settings["pending_max_chars"],
            "headMax": HEAD_CHARS, "head": out.head, "totalChars": out.total_chars,
            "chunks": tail, "tailDropped": max(0, out.total_chars - tail_size)}
    raw = {"capacity": max(settings["raw_ring_bytes"], len(found.raw), 1), "start": found.raw_start,
           "data": base64.b64encode(found.raw).decode(), "marks": [list(m[:4]) for m in found.sizes], "marksBase": 0,
           "times": [list(t) for t in found.times]}
    record = {
        **meta,
        "durationMs": end.get("durationMs", 0),
        "output": {"text": text, "raw": raw, "lastOutputMs": end.get("lastOutputMs")},
        "inputs": found.inputs,
        "exit": end.get("exit") or ExitRecord().to_json(),
        "modes": ModeTracker().to_json(),
    }
    session = Session.from_json(record, on_change)
    session.told = bool(meta.get("told"))
    _pending_again(session, int(meta.get("polled", 0)))
    return session


def _pending_again(session: Session, polled: int) -> None:
    """Output after the first ``polled`` characters is pending again (what the caps dropped is counted)."""
    out = session.output
    chunks = out.since(polled)
    if chunks is None:  # part of it is no longer retained: the tail, and a count of the rest
        chunks = list(out.tail.chunks)
    for chunk in chunks:
        out.pending.append(chunk.stream, chunk.text)
    out.pending.dropped += max(0, out.total_chars - polled - sum(len(c.text) for c in chunks))


def owed_notice(found: RecoveredSession) -> dict[str, Any] | None:
    """The exit notice queued for a finished session that its agent was never told of (the host died
    before the agent's next call)."""
    if found.exit is None or found.meta.get("told"):
        return None
    notice = found.exit.get("notice")
    return notice if isinstance(notice, dict) else None


def leftover_of(session_id: str, swept: list[Swept]) -> list[int]:
    """Processes of the dead host that ran ``session_id`` which the start-up sweep could not end."""
    for report in swept:
        if session_id in report.sessions:
            return list(report.left)
    return []
