"""The requests waiting for the operator, their clocks, their decisions, and the history of past ones.

Each request waits until the operator decides or its time is up (then ``askFallback`` decides), and its
agent gets one "still waiting" notice a while after it was told the run is pending. Deciding is the
operator's alone: nothing here asks who is calling, the host's surfaces do (a process inside a session,
and MCP, have no way to reach :meth:`Approvals.decide`). What a decision sets in motion (starting the run,
or ending its session as never run) is the host's: ``on_settled``; ``on_change`` tells watchers and the
journal, ``on_notice`` queues the notice. A host re-executing in place hands the requests over with their
deadlines (:meth:`to_json`, :meth:`restore`); a host that closes voids them.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..calls import shown
from ..config import ExecSettings
from .allowlist import Allowlist, AllowlistEntry, AllowlistError, glob_regex
from .analysis import Analysis, Program, analyze
from .policy import Policy, fallback, policy_for
from .request import (
    ALLOW_ALWAYS,
    APPROVED,
    DECISIONS,
    DENIED,
    EXPIRED,
    PENDING,
    VOID,
    WITHDRAWN,
    ApprovalRequest,
    Decision,
)
from .resolve import Resolved

HISTORY = 200  # past decisions kept in memory (the journal keeps its own)
LONG_COMMAND = 2048  # characters from which a command is read off the loop
REQUESTED, DECIDED = "requested", "decided"


class Refused(Exception):
    """A decision that cannot be taken; ``kind`` becomes ``failureKind``, the message says why."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Launch:
    """What starting the run takes once approved (kept by the host, never shown): its environment
    overrides, timeout, the PATH and programs it was judged with, the command line to run and its policy."""

    env: dict[str, str]
    timeout_s: float
    path: str
    script: str | None
    policy: Policy
    programs: list[Program] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        p = self.policy
        return {"env": self.env, "timeoutS": self.timeout_s, "path": self.path, "script": self.script,
                "programs": [list(x) for x in self.programs],
                "policy": [p.security, p.ask, p.fallback, p.timeout_ms, p.notice_ms]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Launch:
        security, ask, fallback_, timeout_ms, notice_ms = d["policy"]
        return cls(dict(d["env"]), d["timeoutS"], d["path"], d.get("script"),
                   Policy(security, ask, fallback_, timeout_ms, notice_ms),
                   [(a, b, c) for a, b, c in d.get("programs", [])])


@dataclass
class Pending:
    """A request still waiting: ``settled`` is set when it is decided (or expires, or goes)."""

    request: ApprovalRequest
    launch: Launch
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    expiry: asyncio.TimerHandle | None = None
    notice: asyncio.TimerHandle | None = None
    noticed: bool = False  # the "still waiting" notice went out

    def cancel(self) -> None:
        for timer in (self.expiry, self.notice):
            if timer is not None:
                timer.cancel()


class Approvals:
    """The host's requests (see the module's docstring); ``allowlist`` is the file they are matched with."""

    def __init__(self, allowlist_path: str) -> None:
        self.allowlist = Allowlist(allowlist_path)
        self.history: deque[ApprovalRequest] = deque(maxlen=HISTORY)
        self.approvers = 0  # operator frontends watching for requests now (the dashboard)
        self.on_settled: Callable[[Pending], bool] = lambda pending: False
        self.on_change: Callable[[str, ApprovalRequest], None] = lambda kind, request: None
        self.on_notice: Callable[[ApprovalRequest], None] = lambda request: None
        self._pending: dict[str, Pending] = {}
        self._tasks: set[asyncio.Future[Any]] = set()

    # -- judging a command ------------------------------------------------------------------------
    async def policy(self, settings: ExecSettings, call_ask: str | None, agent: str | None) -> Policy | str:
        """The policy a run by ``agent`` is admitted under (the file read again if it changed), or why the
        call's ``ask`` is refused."""
        if self.allowlist.stale():
            await asyncio.to_thread(self.allowlist.load)
        return policy_for(settings, call_ask, agent, self.allowlist.policy(agent))

    async def judge(self, command: str, cwd: str, path: str, pty: bool, agent: str | None) -> Analysis:
        """``command`` read and matched against the allowlist as it is on disk now; a long command (or a
        file that changed) is read off the loop."""
        if self.allowlist.stale():
            await asyncio.to_thread(self.allowlist.load)
        if len(command) >= LONG_COMMAND:
            return await asyncio.to_thread(analyze, command, cwd, path, pty, self.allowlist, agent)
        return analyze(command, cwd, path, pty, self.allowlist, agent)

    def used(self, analysis: Analysis) -> None:
        """The run ``analysis`` allowed starts: its entries were used now (``lastUsedAt``, written later)."""
        first = [self.allowlist.touch(c.entry) for c in analysis.segments if c.entry is not None]
        if any(first):
            self._spawn(self._write_touches())

    async def _write_touches(self) -> None:
        await asyncio.sleep(1.0)  # runs that follow are written together
        await asyncio.to_thread(self.allowlist.write_touches)

    # -- requests -------------------------------------------------------------------------------
    def open(self, request: ApprovalRequest, launch: Launch) -> Pending:
        """Start waiting on ``request`` until it is decided or expires."""
        pending = Pending(request, launch)
        loop = asyncio.get_running_loop()
        pending.expiry = loop.call_later(max(0.0, (request.expires_ms - now_ms()) / 1000), self._expire, pending)
        self._pending[request.approval_id] = pending
        self.on_change(REQUESTED, request)
        return pending

    def told(self, pending: Pending) -> None:
        """Its agent was told the run waits (the exec returned): one notice follows if it still does later."""
        ms = pending.launch.policy.notice_ms
        if ms > 0 and pending.notice is None and pending.request.state == PENDING:
            pending.notice = asyncio.get_running_loop().call_later(ms / 1000, self._notice, pending)

    def _notice(self, pending: Pending) -> None:
        if pending.request.state == PENDING and not pending.noticed:
            pending.noticed = True
            self.on_notice(pending.request)

    def find(self, key: str) -> Pending | None:
        """The pending request with this approval id or reserved session id."""
        found = self._pending.get(key)
        return found or next((p for p in self._pending.values() if p.request.session_id == key), None)

    def pending(self) -> list[ApprovalRequest]:
        """Every request waiting now, oldest first."""
        return sorted((p.request for p in self._pending.values()), key=lambda r: r.created_ms)

    def past(self, key: str) -> ApprovalRequest | None:
        return next((r for r in reversed(self.history) if key in (r.approval_id, r.session_id)), None)

    # -- decisions ------------------------------------------------------------------------------
    async def decide(self, key: str, decision: str, where: dict[str, Any], reason: str | None = None,
                     patterns: list[dict[str, Any]] | None = None) -> ApprovalRequest:
        """The operator's decision (``allow-once``, ``allow-always``, ``deny``) on the request ``key`` names;
        raises :class:`Refused` when it cannot be taken (the request then waits on, untouched)."""
        if decision not in DECISIONS:
            raise Refused(f"unknown decision {shown(decision)}; valid decisions: {', '.join(DECISIONS)}",
                          "invalid-params")
        pending = self._waiting(key)
        if decision == ALLOW_ALWAYS:
            request = pending.request
            if request.always_refused:
                raise Refused(f"allow-always is not offered for {request.approval_id}: {request.always_refused}; "
                              "approve it once, or deny it", "always-refused")
            entries = self._entries(request, patterns)
            try:
                await asyncio.to_thread(self.allowlist.add, entries)
            except AllowlistError as exc:
                raise Refused(f"{exc}; {request.approval_id} still waits", "allowlist-unwritable") from None
            pending = self._waiting(key)  # it may have expired meanwhile
        state = DENIED if decision == "deny" else APPROVED
        self._settle(pending, Decision(state, "operator", now_ms(), reason=reason or None,
                                       always=decision == ALLOW_ALWAYS, **where))
        return pending.request

    def _waiting(self, key: str) -> Pending:
        pending = self.find(key)
        if pending is not None:
            return pending
        past = self.past(key)
        if past is not None and past.decision is not None:
            raise Refused(f"{past.approval_id} ({past.session_id}) was already {past.decision.words()}",
                          "already-decided")
        raise Refused(f"no pending approval {shown(key)} (give an approvalId or the reserved sessionId; "
                      "`openclaw-tui approvals` lists them)", "unknown-approval")

    def _entries(self, request: ApprovalRequest, patterns: list[dict[str, Any]] | None) -> list[AllowlistEntry]:
        """What allow-always adds: the request's exact proposal, or the operator's own (widened) patterns,
        which must still allow every segment that missed."""
        agent = request.agent or "*"
        if patterns is None:
            return [AllowlistEntry(p["pattern"], p.get("argPattern"), agent) for p in request.proposed]
        entries = []
        for p in patterns:
            pattern, arg = p.get("pattern"), p.get("argPattern")
            if not isinstance(pattern, str) or not pattern or not (arg is None or isinstance(arg, str)):
                raise Refused(f"a pattern must be {{pattern, argPattern?}} with text (got {shown(p)})", "invalid-params")
            glob_regex(pattern)
            entries.append(AllowlistEntry(pattern, arg, agent))
        for segment in request.segments:
            if segment["matched"] or not segment.get("argv") or not segment.get("resolvedPath"):
                continue
            argv, real = tuple(segment["argv"]), segment["resolvedPath"]
            if not any(e.matches(argv, Resolved(real, real, looked_up="/" not in argv[0])) for e in entries):
                raise Refused(f"the patterns given do not allow `{segment['text']}`; {request.approval_id} still "
                              "waits", "invalid-params")
        return entries

    def _expire(self, pending: Pending) -> None:
        if self._pending.get(pending.request.approval_id) is pending:
            self._spawn(self._fall_back(pending))

    async def _fall_back(self, pending: Pending) -> None:
        """Nobody decided in time: ``askFallback`` does (``allowlist`` judges the command as the file is now)."""
        request, launch = pending.request, pending.launch
        analysis = None
        if launch.policy.fallback == "allowlist":
            analysis = await self.judge(request.command, request.cwd, launch.path, request.pty, request.agent)
        if self._pending.get(request.approval_id) is pending:
            runs = fallback(launch.policy, analysis)
            self._settle(pending, Decision(EXPIRED, "askFallback", now_ms(), ran=runs,
                                           reason=f"askFallback = {launch.policy.fallback!r}"))

    def withdraw(self, session_id: str, by: str) -> bool:
        """The run's agent (or the operator) took the request back before anyone decided."""
        pending = self.find(session_id)
        if pending is None:
            return False
        self._settle(pending, Decision(WITHDRAWN, by, now_ms()))
        return True

    def void_all(self, why: str) -> None:
        """The host closes: every request still waiting ends, never run."""
        for pending in list(self._pending.values()):
            self._settle(pending, Decision(VOID, "host", now_ms(), reason=why))

    def _settle(self, pending: Pending, decision: Decision) -> None:
        request = pending.request
        del self._pending[request.approval_id]
        pending.cancel()
        request.decision = decision
        started = self.on_settled(pending)  # the host starts the run, or ends its session as never run
        decision.ran = started and decision.state in (APPROVED, EXPIRED)
        self.history.append(request)
        self.on_change(DECIDED, request)
        pending.settled.set()

    # -- a re-exec in place ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The requests waiting, with their deadlines in the loop's clock (monotonic: it holds across an exec)."""
        waiting = []
        for pending in self._pending.values():
            due = pending.notice.when() if pending.notice is not None and not pending.noticed else None
            waiting.append({"request": pending.request.to_json(), "launch": pending.launch.to_json(),
                            "notice": due, "told": pending.notice is not None or pending.noticed})
        return {"pending": waiting, "history": [r.to_json() for r in self.history]}

    def restore(self, d: dict[str, Any]) -> list[Pending]:
        """Wait on again what :meth:`to_json` wrote (each expiring when it would have)."""
        self.remember(ApprovalRequest.from_json(r) for r in d.get("history", []))
        loop, restored = asyncio.get_running_loop(), []
        for item in d.get("pending", []):
            request = ApprovalRequest.from_json(item["request"])
            pending = Pending(request, Launch.from_json(item["launch"]))
            pending.expiry = loop.call_later(max(0.0, (request.expires_ms - now_ms()) / 1000), self._expire, pending)
            self._pending[request.approval_id] = pending
            if item.get("notice") is not None:
                pending.notice = loop.call_at(item["notice"], self._notice, pending)
            elif not item.get("told"):  # still in its exec's yield window at the handover: backgrounded now
                self.told(pending)
            else:
                pending.noticed = True
            restored.append(pending)
        return restored

    def remember(self, past: Any) -> None:
        """Past requests to list with the history (from a handover or the journal), each once."""
        known = {r.approval_id for r in self.history} | set(self._pending)
        for request in past:
            if request.approval_id not in known:
                self.history.append(request)
                known.add(request.approval_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
