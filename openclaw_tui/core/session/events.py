"""What happened to sessions, for whoever watches: the dashboard, the socket server, the MCP server.

An :class:`Event` is an :class:`EventKind` and a frozen payload of the type :data:`PAYLOADS` names for it,
turned into the socket's JSON and back in one place; a consumer that cannot keep up with output listens
through an :class:`OutputCoalescer`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .status import Status


class EventKind(StrEnum):
    """What happened; the comment names the payload each kind carries."""

    SNAPSHOT = "snapshot"  # Snapshot: every session, and the state of what serves them
    ADDED = "session-added"  # SessionState, as every kind about one session but its output
    STARTED = "session-started"  # a run that waited for the operator's approval was approved and started
    BACKGROUNDED = "session-backgrounded"
    OUTPUT = "session-output"  # NewOutput
    WAITING = "session-waiting"
    INPUT = "session-input"
    EXITED = "session-exited"
    REMOVED = "session-removed"
    NOTIFICATION = "exit-notification"  # ExitNotice
    APPROVAL_REQUESTED = "approval-requested"  # ApprovalState (operator frontends only, never a confined caller)
    APPROVAL_DECIDED = "approval-decided"  # ApprovalState: the request with its decision (or its expiry)
    JOURNAL = "host-journal"  # JournalState: whether sessions are saved to disk changed
    HOST_GONE = "host-gone"  # LinkGone: a mirror's host (attach) went away for good
    HOST_LINK = "host-link"  # LinkState: a mirror's link to its host changed
    MUTED = "session-muted"  # SessionState: the operator muted or unmuted it (its details say which)
    ATTENTION = "host-attention"  # Notified: the host notified the operator (``core/attention``)
    NODE_UNREACHABLE = "node-unreachable"  # NodeDown: a node's link dropped
    RESOURCES = "session-resources"  # Resources: the figures of the sessions a refresh read


@dataclass(frozen=True)
class SessionState:
    """A session's details (``Session.details``) as they stand after the change; empty for a session a
    mirror saw go while its link was down."""

    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return self.details

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionState:
        return cls(d)


@dataclass(frozen=True)
class NewOutput:
    """Nothing: the consumer reads what is new from the session itself, so output events held back
    (:class:`OutputCoalescer`) lose nothing."""

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> NewOutput:
        return NEW_OUTPUT


NEW_OUTPUT = NewOutput()


@dataclass(frozen=True)
class ExitNotice:
    """A background session's end, owed to the agent that started it (``tools/exitnotices.py``); its JSON
    is also what that agent's next result carries in ``details.notifications``."""

    session_id: str
    name: str
    agent: str | None
    status: Status
    exit_code: int | None
    exit_signal: str | None
    timed_out: bool
    snippet: str  # the last output, on one line
    text: str  # the line the agent reads
    failure_kind: str | None = None  # why no exit status could be had (``host-died``)
    node: str | None = None  # the node it ran on (its id then reads NODE/ID)

    def to_json(self) -> dict[str, Any]:
        return {"sessionId": self.session_id, "name": self.name, "agent": self.agent, "status": self.status,
                "exitCode": self.exit_code, "exitSignal": self.exit_signal, "timedOut": self.timed_out,
                **({"failureKind": self.failure_kind} if self.failure_kind else {}),
                "snippet": self.snippet, "text": self.text, **({"node": self.node} if self.node else {})}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ExitNotice:
        return cls(d["sessionId"], d["name"], d.get("agent"), Status(d["status"]), d.get("exitCode"),
                   d.get("exitSignal"), bool(d.get("timedOut")), d.get("snippet", ""), d.get("text", ""),
                   d.get("failureKind"), d.get("node"))


@dataclass(frozen=True)
class JournalState:
    """Whether sessions are being saved to disk, and the journal's problem if it has one."""

    saving: bool
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"saving": self.saving, "problem": self.problem}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> JournalState:
        return cls(bool(d.get("saving")), d.get("problem"))


@dataclass(frozen=True)
class LinkState:
    """A mirror's link to its host: ``connecting``, ``live``, ``reconnecting`` or ``gone``
    (``remote/mirror/hostlink.py``), why it changed, and the socket it is on once known."""

    link: str
    why: str = ""
    where: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"link": self.link, "why": self.why, "where": self.where}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LinkState:
        return cls(d["link"], d.get("why", ""), d.get("where", ""))


@dataclass(frozen=True)
class LinkGone:
    """A mirror's host went away for good: what it shows is no longer live; ``why`` says how it was found."""

    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"why": self.why}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LinkGone:
        return cls(d.get("why", ""))


@dataclass(frozen=True)
class ApprovalState:
    """An exec approval request as the operator sees it (``ApprovalRequest.to_json``), with its decision
    once it has one; only operator frontends hear of it."""

    request: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return self.request

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ApprovalState:
        return cls(d)


APPROVAL_KINDS = frozenset({EventKind.APPROVAL_REQUESTED, EventKind.APPROVAL_DECIDED})


@dataclass(frozen=True)
class Snapshot:
    """Every session's details, newest first, and the state of what serves them: a host's journal, or a
    mirror's link to its host (a dashboard across nodes tells its local host's); and the exec approval
    requests waiting (None: not told, as to a caller inside a session)."""

    sessions: tuple[dict[str, Any], ...] = ()
    journal: JournalState | None = None
    link: LinkState | None = None
    approvals: tuple[dict[str, Any], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sessions": list(self.sessions)}
        if self.journal is not None:
            out["journal"] = self.journal.to_json()
        if self.link is not None:
            out.update(self.link.to_json())
        if self.approvals is not None:
            out["approvals"] = list(self.approvals)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Snapshot:
        journal, approvals = d.get("journal"), d.get("approvals")
        return cls(tuple(d.get("sessions") or ()), JournalState.from_json(journal) if journal else None,
                   LinkState.from_json(d) if "link" in d else None,
                   tuple(approvals) if isinstance(approvals, list) else None)


@dataclass(frozen=True)
class Notified:
    """A notification the host sent the operator (``core/attention``): its fields as the hooks got them
    (``event``, ``text``, ``count``, ``merged``…), and whether an attached dashboard rings the terminal."""

    fields: dict[str, Any]
    bell: bool = True

    def to_json(self) -> dict[str, Any]:
        return {**self.fields, "bell": self.bell}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Notified:
        return cls({k: v for k, v in d.items() if k != "bell"}, bool(d.get("bell", True)))


@dataclass(frozen=True)
class NodeDown:
    """A node's link dropped: which node, and why it does not answer."""

    node: str
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "why": self.why}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> NodeDown:
        return cls(str(d["node"]), str(d.get("why") or ""))


@dataclass(frozen=True)
class Resources:
    """Each session's ``details.resources`` after one refresh (``core/host/figures``), by session id: one
    event for all of them, since a watched host refreshes every running session at once."""

    figures: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"figures": self.figures}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Resources:
        figures = d.get("figures")
        return cls(dict(figures) if isinstance(figures, dict) else {})


Payload = (Snapshot | SessionState | NewOutput | ExitNotice | JournalState | LinkState | LinkGone | ApprovalState
           | Notified | NodeDown | Resources)

PAYLOADS: dict[EventKind, type[Payload]] = {
    EventKind.SNAPSHOT: Snapshot,
    EventKind.ADDED: SessionState,
    EventKind.STARTED: SessionState,
    EventKind.BACKGROUNDED: SessionState,
    EventKind.OUTPUT: NewOutput,
    EventKind.WAITING: SessionState,
    EventKind.INPUT: SessionState,
    EventKind.EXITED: SessionState,
    EventKind.REMOVED: SessionState,
    EventKind.NOTIFICATION: ExitNotice,
    EventKind.APPROVAL_REQUESTED: ApprovalState,
    EventKind.APPROVAL_DECIDED: ApprovalState,
    EventKind.JOURNAL: JournalState,
    EventKind.HOST_GONE: LinkGone,
    EventKind.HOST_LINK: LinkState,
    EventKind.MUTED: SessionState,
    EventKind.ATTENTION: Notified,
    EventKind.NODE_UNREACHABLE: NodeDown,
    EventKind.RESOURCES: Resources,
}
"""The payload each kind carries."""


@dataclass(frozen=True)
class Event:
    """One thing that happened: its kind, the session it concerns (None: the host's or the link's own), and
    the payload that kind carries (a mismatch is a bug of the publisher, refused at once)."""

    kind: EventKind
    session_id: str | None
    payload: Payload

    def __post_init__(self) -> None:
        if not isinstance(self.payload, PAYLOADS[self.kind]):
            raise TypeError(f"a {self.kind} event carries a {PAYLOADS[self.kind].__name__}, "
                            f"not a {type(self.payload).__name__}")

    def to_json(self) -> dict[str, Any]:
        """The event as the socket sends it: ``{kind, sessionId, data}``, ``data`` the payload's JSON."""
        return {"kind": self.kind, "sessionId": self.session_id, "data": self.payload.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event | None:
        """The event :meth:`to_json` wrote, as received; None for one this version cannot read (a kind a
        newer host added, a payload missing what it must say)."""
        try:
            kind, data = EventKind(d["kind"]), d.get("data") or {}
            if not isinstance(data, dict):
                return None
            return cls(kind, d.get("sessionId"), PAYLOADS[kind].from_json(data))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


Listener = Callable[[Event], None]


class EventBus:
    """Fan-out of session events to callbacks; a failing listener is dropped, never the host."""

    def __init__(self, snapshot: Callable[[], Event]) -> None:
        self._listeners: list[Listener] = []
        self._snapshot = snapshot

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with a snapshot now and with every event from now on."""
        listener(self._snapshot())
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    @property
    def active(self) -> bool:
        return bool(self._listeners)

    def publish(self, event: Event) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken subscriber must not break ingest
                self._listeners.remove(listener)

    async def watch(self, max_queue: int = 10_000) -> AsyncIterator[Event]:
        """Async iteration over events (snapshot first), coalescing output events per session."""
        queue: asyncio.Queue[Event] = asyncio.Queue()

        def enqueue(event: Event) -> None:
            if queue.qsize() < max_queue:
                queue.put_nowait(event)

        coalesced = OutputCoalescer(enqueue)
        unsubscribe = self.subscribe(coalesced)
        try:
            while True:
                event = await queue.get()
                if event.kind == EventKind.OUTPUT and event.session_id is not None:
                    coalesced.handled(event.session_id)
                yield event
        finally:
            unsubscribe()


class OutputCoalescer:
    """A listener that passes every event on to ``listener``, except that a session's output is passed once
    and then held back until :meth:`handled` says the consumer has caught up with that session.

    Output events carry no data (the consumer reads what is new from the session), so the ones held back
    lose nothing: one pending event per session says all they would have said.
    """

    def __init__(self, listener: Listener) -> None:
        self._listener = listener
        self._pending: set[str] = set()

    def __call__(self, event: Event) -> None:
        if event.kind == EventKind.OUTPUT and event.session_id is not None:
            if event.session_id in self._pending:
                return
            self._pending.add(event.session_id)
        self._listener(event)

    def handled(self, session_id: str) -> None:
        """The consumer has caught up with ``session_id``'s output: its next output is news again."""
        self._pending.discard(session_id)
