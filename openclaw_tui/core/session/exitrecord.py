"""How a session ended: its exit code or signal, who asked it to end, and whether its cleanup was proven."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .status import Status

HOST_DIED = "host-died"  # ``failure``: the host that ran it died, and the next host found it ended
APPROVAL_DENIED = "approval-denied"  # ``failure``: the operator denied it; it never ran
APPROVAL_TIMEOUT = "approval-timeout"  # ``failure``: nobody decided in time and askFallback denied it
APPROVAL_WITHDRAWN = "approval-withdrawn"  # ``failure``: killed or cancelled before anyone decided
HOST_CLOSED = "host-closed"  # ``failure``: the host shut down before anyone decided

FAILURE_WORDS = {
    APPROVAL_DENIED: "denied by the operator; it never ran",
    APPROVAL_TIMEOUT: "not approved in time; it never ran",
    APPROVAL_WITHDRAWN: "withdrawn before the operator decided; it never ran",
    HOST_CLOSED: "the host shut down before the operator decided; it never ran",
}


def now_ms() -> int:
    return int(time.time() * 1000)


def end_words(timed_out: bool, exit_signal: str | None, exit_code: int | None, failure: str | None = None,
              started: bool = True, reason: str | None = None) -> str:
    """``timed out``, ``killed by SIGTERM``, ``exit code 0``, ``the host that ran it died`` or ``denied by the
    operator; it never ran`` (with the operator's ``reason``): also for a session known only by its details."""
    if failure == HOST_DIED:
        return "the host that ran it died" + ("" if started else " before the operator decided; it never ran")
    if failure is not None and not started:
        words = FAILURE_WORDS.get(failure) or f"{failure}; it never ran"
        return words + (f" (reason: {reason})" if reason else "")
    if timed_out:
        return "timed out"
    if exit_signal:
        return f"killed by {exit_signal}"
    return f"exit code {exit_code}"


@dataclass
class ExitRecord:
    """The end of one session, as far as it is known (all None and ``pending`` while it runs)."""

    ended_ms: int | None = None
    code: int | None = None
    signal: str | None = None
    timed_out: bool = False
    killed_by: str | None = None  # who asked it to end first: an agent, operator, timeout or shutdown
    cleanup: str = "pending"  # confirmed once the OS shows none of its processes left, else uncertain
    leftover: list[int] = field(default_factory=list)  # pids still there when cleanup is uncertain
    failure: str | None = None  # why it ended when no exit status could be had (``host-died``)
    started: bool = True  # False while it waits for the operator's approval, and for good if it never ran
    reason: str | None = None  # the operator's words, when it was denied
    asked_ms: int | None = None  # when it was asked to end (the audit's kill)

    @property
    def status(self) -> Status:
        if self.ended_ms is None:
            return Status.RUNNING if self.started else Status.APPROVAL_PENDING
        if self.failure is not None or self.timed_out or self.signal is not None or self.code in (126, 127):
            return Status.FAILED
        return Status.COMPLETED

    def words(self) -> str:
        """How it ended, for a sentence: ``exit code 2``, ``killed by SIGINT``, ``timed out``."""
        return end_words(self.timed_out, self.signal, self.code, self.failure, self.started, self.reason)

    # -- what the enders learn ------------------------------------------------------------------
    def asked(self, reason: str | None) -> None:
        """Someone asked it to end (None: its own leftovers are being ended); the first asker is kept."""
        if reason is not None and self.killed_by is None:
            self.killed_by = reason
            self.asked_ms = now_ms()

    def time_out(self) -> None:
        self.timed_out = True

    def cleaned(self, leftover: list[int]) -> None:
        """Its processes were ended: confirmed if none is left, else uncertain, naming those left."""
        self.leftover = leftover
        self.cleanup = "uncertain" if leftover else "confirmed"

    def clean_on_its_own(self) -> None:
        """It ended with nothing left behind and nobody had to end anything."""
        if self.cleanup == "pending":
            self.cleanup = "confirmed"

    def escaped(self, pids: list[int], gone: bool) -> None:
        """Processes outside its container held its output; ``gone`` when they let it go."""
        self.leftover = sorted(set(self.leftover) | set(pids))
        if not gone:
            self.cleanup = "uncertain"

    def exited(self, wait_status: int) -> None:
        """The leader's wait status, once nothing of the run survives."""
        code = os.waitstatus_to_exitcode(wait_status)
        if code < 0:
            self.signal = signal.Signals(-code).name
        else:
            self.code = code
        self.ended_ms = now_ms()

    def host_died(self, found_ms: int, leftover: list[int]) -> None:
        """Its host died while it ran, and the next host, starting at ``found_ms``, found it ended: no exit
        status exists. ``leftover``: its processes that host could not end (the cleanup is then uncertain)."""
        self.failure = HOST_DIED
        self.ended_ms = found_ms
        self.cleaned(leftover)

    def never_ran(self, failure: str, reason: str | None = None) -> None:
        """It ended before it started (denied, not answered in time, withdrawn, refused at launch): nothing
        of it ever ran, so nothing is left of it either."""
        self.started = False
        self.failure = failure
        self.reason = reason
        self.ended_ms = now_ms()
        self.cleanup = "confirmed"

    # -- as data --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ExitRecord:
        return cls(**{**d, "leftover": list(d.get("leftover", []))})

    @classmethod
    def from_details(cls, d: dict[str, Any], ended_ms: int | None) -> ExitRecord:
        """The record as a session's details tell it (a mirror of a host elsewhere)."""
        started = d.get("status") != Status.APPROVAL_PENDING and not d.get("neverRan")
        return cls(ended_ms, d.get("exitCode"), d.get("exitSignal"), d.get("timedOut", False), d.get("killedBy"),
                   d.get("cleanup") or "pending", list(d.get("leftoverPids") or []), d.get("failureKind"), started,
                   ((d.get("approval") or {}).get("decision") or {}).get("reason"))
