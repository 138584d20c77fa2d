"""A running host seen from another process: sessions mirrored over the socket for an attached dashboard.

``RemoteHost`` and ``RemoteSession`` provide :class:`~.viewprotocols.HostView` and
:class:`~.viewprotocols.SessionView`, filled from the host's event and raw-output streams; closing one only
closes the connection.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from openclaw_tui.core.calls import failure
from openclaw_tui.core.config import DEFAULT_MAX_OUTPUT, DEFAULT_PENDING_MAX, PTY_SIZE
from openclaw_tui.core.containment import Placement
from openclaw_tui.core.session import (
    NEW_OUTPUT,
    ApprovalState,
    Event,
    EventBus,
    EventKind,
    ExitRecord,
    InputLog,
    JournalState,
    LinkGone,
    LinkState,
    Listener,
    Output,
    RawRing,
    Resources,
    SessionState,
    SizeMark,
    Snapshot,
    Status,
)
from openclaw_tui.core.tools import InputRefused, InputSent, join_id, split_id
from openclaw_tui.core.vt import ModeTracker

from ..wire import HostClient, protocol as p, socket_path
from .hostlink import GONE, HostLink, Opener

SYNC_TIMEOUT_S = 10.0  # a host answers a subscription with its snapshot at once; this is only a backstop


def _ms(stamp: str | None) -> int | None:
    if not stamp:
        return None
    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)


class RemoteSession:
    """A session of a remote host, kept current from its events."""

    def __init__(self, host: RemoteHost, details: dict[str, Any], order: int) -> None:
        self._host = host
        self.key: str = details["sessionId"]  # the id on its host, which requests name
        self.node = host.node
        self.id = join_id(host.node, self.key) if host.node else self.key  # as the dashboard shows it
        self.raw = RawRing()
        self.tracked_modes = ModeTracker()
        self._inputs = InputLog()
        self.order = order  # as the host listed them: its snapshot oldest first, then new ones
        self._output = Output(DEFAULT_MAX_OUTPUT, DEFAULT_PENDING_MAX)  # until the first fetch brings the host's
        self._output_stale = True
        self._inputs_stale = True
        self._fetching = False
        self._raw_listeners: list[Callable[[], None]] = []
        self.update(details)

    def update(self, d: dict[str, Any]) -> None:
        self._details = dict(d)
        self._received = time.monotonic()
        self.name, self.command, self.agent = d["name"], d["command"], d.get("agent")
        self.pid, self.pty, self.cwd = d.get("pid"), d.get("pty", False), d.get("cwd", "")
        self.status = d["status"]
        self.started_ms = _ms(d.get("startedAt")) or 0
        self.exit = ExitRecord.from_details(d, _ms(d.get("endedAt")))
        self.backgrounded, self.elevated = d.get("backgrounded", True), d.get("elevated", False)
        self.placement = d.get("host", Placement.GATEWAY)
        self.stdin_writable = d.get("stdinWritable", False)
        self.waiting_for_input, self.waiting_reason = d.get("waitingForInput", False), d.get("waitingReason")
        self.prompt, self.muted = d.get("prompt"), bool(d.get("muted"))
        self.resources: dict[str, Any] | None = d.get("resources")
        self.rerun_of: str | None = d.get("rerunOf")

    # -- state ----------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Not ended: running, or waiting for the operator's approval to start."""
        return self.status in (Status.RUNNING, Status.APPROVAL_PENDING)

    def runtime_ms(self) -> int:
        base = int(self._details.get("durationMs") or 0)
        return base + (int((time.monotonic() - self._received) * 1000) if self.status == Status.RUNNING else 0)

    def details(self) -> dict[str, Any]:
        return {**self._details, "durationMs": self.runtime_ms()}

    # -- output ---------------------------------------------------------------------------------
    @property
    def output(self) -> Output:
        """The last fetched output; a fetch of what is new starts when it may be out of date."""
        if self._output_stale:
            self._start_fetch()
        return self._output

    @property
    def inputs(self) -> InputLog:
        """The last fetched inputs; a fetch starts when the host recorded input since.

        A PTY session on view is drawn from raw bytes and never reads ``output``, so the inputs cannot
        wait for an output fetch: the ``inputs:`` line and the waiting toasts read them here.
        """
        if self._inputs_stale:
            self._start_fetch()
        return self._inputs

    def mark_output(self) -> None:
        self._output_stale = True

    def mark_inputs(self) -> None:
        self._inputs_stale = True

    def _start_fetch(self) -> None:
        if not self._fetching:
            self._fetching = True
            asyncio.ensure_future(self._fetch())

    async def _fetch(self) -> None:
        try:
            self._output_stale = self._inputs_stale = False
            since = self._output.total_chars if self._output.total_chars else None
            r = await self._host.client.request("session.output", {"sessionId": self.key, "since": since})
        except Exception:
            return
        finally:
            self._fetching = False
        if r["incremental"]:
            for c in r["chunks"]:
                self._output.append(c["stream"], c["text"])
        else:
            self._output = Output.from_json(r)
        inputs = InputLog.from_json(r["inputs"])
        changed = list(inputs) != list(self._inputs)
        self._inputs = inputs
        self._host.bus.publish(Event(EventKind.OUTPUT, self.key, NEW_OUTPUT))
        if changed:  # the dashboard redraws the inputs line on list changes, as for an embedded host
            self._host.bus.publish(Event(EventKind.INPUT, self.key, SessionState(self.details())))

    # -- the terminal view ----------------------------------------------------------------------
    @property
    def pty_size(self) -> tuple[int, int]:
        """The PTY's size: from the raw stream's size marks while subscribed, else from the details."""
        if self.raw.size is not None:
            return self.raw.size
        size = self._details.get("ptySize") or {}
        return int(size.get("cols", PTY_SIZE[0])), int(size.get("rows", PTY_SIZE[1]))

    def resize(self, cols: int, rows: int) -> None:
        """Ask the host to resize the PTY; the size comes back in the raw stream, where it happened."""
        payload = {"sessionId": self.key, "cols": cols, "rows": rows}
        asyncio.ensure_future(self._host.quiet_request("session.resize", payload))

    @property
    def viewed(self) -> bool:
        """Someone follows its raw output (subscribed on the host)."""
        return bool(self._raw_listeners)

    def add_raw_listener(self, cb: Callable[[], None]) -> Callable[[], None]:
        if not self._raw_listeners:
            asyncio.ensure_future(self._host.quiet_request("raw.subscribe", {"sessionId": self.key, "offset": self.raw.end}))
        self._raw_listeners.append(cb)

        def remove() -> None:
            if cb in self._raw_listeners:
                self._raw_listeners.remove(cb)
            if not self._raw_listeners:
                asyncio.ensure_future(self._host.quiet_request("raw.unsubscribe", {"sessionId": self.key}))

        return remove

    def on_raw(self, offset: int, data: bytes, size: Any = None, sizes: Any = ()) -> None:
        """Bytes from the host's ring at ``offset``, with the size in force there and the resizes among them.

        The size in force is taken only when the copy starts afresh (first bytes, or after a gap); after
        that every resize comes in ``sizes``, in order, even several at one offset.
        """
        fresh = self.raw.size is None or offset > self.raw.end
        self.raw.append_at(offset, b"")  # a gap restarts the copy at ``offset`` before its size is set
        if size and fresh:
            self.raw.mark_size(SizeMark(offset, int(size[0]), int(size[1])))
        self.raw.append_at(offset, data)
        for mark in sizes or ():
            self.raw.mark_size(SizeMark(*(int(v) for v in mark)))
        if self.pty:
            self.tracked_modes.feed(data)
        for cb in list(self._raw_listeners):
            cb()


class RemoteHost:
    """The dashboard's view of a host in another process, on the socket ``path``.

    Built unconnected, it connects when started (``opener`` may start a host first); :meth:`connect` gives one
    connected already. Either way its :class:`~.hostlink.HostLink` makes the connection again whenever it
    drops, and each new connection resyncs the sessions in place: the same objects under the same ids.
    Given a ``HostClient`` instead of a path, it mirrors that connection, which its maker subscribes and
    keeps (a node's ssh bridge): gone when it closes.
    """

    def __init__(self, path: Path | HostClient | None = None, opener: Opener | None = None,
                 node: str | None = None, approver: bool = True) -> None:
        self.node = node  # a node's host, mirrored into a dashboard across nodes: its ids show as NODE/ID
        self.approver = approver  # a dashboard's: it answers the host's exec approval requests
        self._approvals: dict[str, dict[str, Any]] = {}  # waiting for the operator, by the host's approvalId
        given = path if isinstance(path, HostClient) else None
        self.path: Path | None = None if isinstance(path, HostClient) else (path or socket_path())
        self._sessions: dict[str, RemoteSession] = {}
        self._input_turn = asyncio.Lock()  # one input request at a time: each reaches the host in the order sent
        self.bus = EventBus(self._snapshot)
        """The host's events as mirrored here, for this process's frontends."""
        self._order = 0
        self.ready = asyncio.Event()
        self._synced = asyncio.Event()
        self.closed = False
        self.journal_status: dict[str, Any] = {"saving": False, "problem": None}  # as the host's events say
        self._figures_wanted = 0  # frontends here showing the sessions' figures
        self._asks: set[asyncio.Future[Any]] = set()
        self.link = HostLink(self.path, opener, self._attach, self._link_changed)
        if given is not None:
            given.listen(self._on_message)
            self.link.adopt(given)

    @property
    def client(self) -> HostClient:
        """The current connection (a new one after each reconnect)."""
        if self.link.client is None:
            raise ConnectionError("not connected to the host yet")
        return self.link.client

    @classmethod
    async def connect(cls, path: Path | None = None, opener: Opener | None = None) -> RemoteHost:
        """Connected and synced now (``NoHost`` if nothing serves), then kept connected."""
        host = cls(path, opener)
        await host.link.first()
        return host

    def start(self) -> None:
        """Connect in the background (see :class:`~.hostlink.HostLink`); a no-op once connected."""
        if self.link.client is None:
            self.link.start()

    @property
    def node_states(self) -> dict[str, str | None]:
        """One host is mirrored here, no nodes beside it."""
        return {}

    async def close(self) -> None:
        """Disconnect; the sessions keep running on the host."""
        self.closed = True
        await self.link.close()

    async def _attach(self, client: HostClient) -> None:
        """A new connection: hear its events, take its snapshot, and follow again the raw output on view."""
        self._synced.clear()
        client.listen(self._on_message)
        await subscribe(client, self.approver)
        await asyncio.wait_for(self._synced.wait(), SYNC_TIMEOUT_S)
        if self._figures_wanted:
            await self.quiet_request("figures.watch", {"on": True})
        for s in self._sessions.values():
            if s.viewed:
                await self.quiet_request("raw.subscribe", {"sessionId": s.key, "offset": s.raw.end})

    def _link_changed(self, state: str, why: str) -> None:
        self.path = self.link.path
        self.bus.publish(Event(EventKind.HOST_LINK, None, self._link_state()))
        if state == GONE and not self.closed:  # what is shown is no longer live
            self.bus.publish(Event(EventKind.HOST_GONE, None, LinkGone(why)))

    def _link_state(self) -> LinkState:
        return LinkState(self.link.state, self.link.why, str(self.path or ""))

    async def call(self, call: Mapping[str, Any] | str, agent: str | None = None) -> dict[str, Any]:
        try:
            client = await self.link.ready()
            return await client.call(call if isinstance(call, str) else dict(call), agent=agent)
        except ConnectionError as exc:
            return failure(f"the host is gone: {exc}", "host-gone")

    async def mute(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """The host's ``notify.mute``."""
        params = {"muted": muted, **({"sessionId": session_id} if session_id is not None else {}),
                  **({"agent": agent} if agent is not None else {})}
        try:
            answer: dict[str, Any] = await (await self.link.ready()).request("notify.mute", params)
        except p.RemoteError as exc:
            return failure(f"the host refused to mute: {exc}", "refused")
        except ConnectionError as exc:
            return failure(f"the host is gone: {exc}", "host-gone")
        return answer

    async def send_input(self, session_id: str, data: bytes, source: str, action: str) -> InputSent:
        """Input through the host's one input path (``session.input``), refused with the host's words."""
        payload = {"sessionId": session_id, "data": base64.b64encode(data).decode(), "source": source,
                   "action": action}
        try:
            async with self._input_turn:  # concurrent callers (a task per keystroke) must not overtake each other
                r = await (await self.link.ready()).request("session.input", payload)
        except p.RemoteError as exc:
            raise InputRefused(str(exc), "input-refused") from None
        except ConnectionError as exc:
            raise InputRefused(f"cannot send input: the host is gone: {exc}", "host-gone") from None
        return InputSent(r["bytesWritten"], r["bytesQueued"])

    def send_input_now(self, session_id: str, data: bytes, source: str, action: str) -> InputSent | None:
        """Never at once: input to a host in another process goes by :meth:`send_input`."""
        return None

    # -- exec approvals -------------------------------------------------------------------------
    def pending_approvals(self) -> list[dict[str, Any]]:
        """The requests waiting on the host, oldest first; a node's with ids as ``NODE/ID``."""
        found = sorted(self._approvals.values(), key=lambda r: r.get("createdAtMs", 0))
        if not self.node:
            return found
        return [{**r, "approvalId": join_id(self.node, r["approvalId"]), "sessionId": join_id(self.node, r["sessionId"]),
                 "node": self.node} for r in found]

    async def decide_approval(self, approval_id: str, decision: str, reason: str | None = None,
                              patterns: list[dict[str, Any]] | None = None,
                              where: dict[str, Any] | None = None) -> dict[str, Any]:
        """The operator's decision, taken by the host itself (``approvals.decide``)."""
        node, bare = split_id(approval_id)
        key = bare if node is not None and node == self.node else approval_id
        params: dict[str, Any] = {"approvalId": key, "decision": decision}
        if reason:
            params["reason"] = reason
        if patterns is not None:
            params["patterns"] = patterns
        if where and where.get("tty"):
            params["tty"] = where["tty"]
        try:
            return dict(await (await self.link.ready()).request("approvals.decide", params))
        except p.RemoteError as exc:
            return failure(f"the host refused the decision: {exc}", "host-error")
        except ConnectionError as exc:
            return failure(f"the host is gone: {exc}", "host-gone")

    def attend(self) -> Callable[[], None]:
        """A mirror's subscription already says whether it answers requests (``approver``)."""
        return lambda: None

    def watch_figures(self) -> Callable[[], None]:
        """Ask the host to read the sessions' figures while this frontend shows them (again on each new link)."""
        self._figures_wanted += 1
        self._say_figures(self._figures_wanted == 1)
        gone: list[bool] = []

        def leave() -> None:
            if not gone:  # once, however often it is called
                gone.append(True)
                self._figures_wanted -= 1
                self._say_figures(not self._figures_wanted, on=False)

        return leave

    def _say_figures(self, needed: bool, on: bool = True) -> None:
        if needed and self.link.client is not None and not self.closed:
            task = asyncio.ensure_future(self.quiet_request("figures.watch", {"on": on}))
            self._asks.add(task)
            task.add_done_callback(self._asks.discard)

    async def quiet_request(self, method: str, params: dict[str, Any]) -> Any:
        try:
            return await self.client.request(method, params)
        except Exception:  # a session that ended meanwhile (the next event says so), or a link being made again
            return None

    # -- sessions -------------------------------------------------------------------------------
    def session(self, session_id: str, agent: str | None = None) -> RemoteSession | None:
        s = self._sessions.get(session_id)
        return s if s is not None and (agent is None or s.agent == agent) else None

    def sessions(self, agent: str | None = None) -> list[RemoteSession]:
        found = [s for s in self._sessions.values() if agent is None or s.agent == agent]
        return sorted(found, key=lambda s: s.order, reverse=True)

    # -- events ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """The mirrored sessions as a snapshot now, then every event the host sends (see :class:`EventBus`)."""
        return self.bus.subscribe(listener)

    def _snapshot(self) -> Event:
        sessions = tuple(s.details() for s in self.sessions())
        return Event(EventKind.SNAPSHOT, None, Snapshot(sessions, link=self._link_state()))

    def _add(self, details: dict[str, Any]) -> RemoteSession:
        self._order += 1
        session = RemoteSession(self, details, self._order)
        self._sessions[session.key] = session
        return session

    def _resync(self, listed: list[dict[str, Any]]) -> None:
        """Take a snapshot: the first fills the mirror; a later one (a new connection) updates it in place,
        telling of what ended or went while the link was down."""
        again = self.ready.is_set()
        ended = []
        for d in reversed(listed):  # oldest first, so order matches the host's
            session = self._sessions.get(d["sessionId"])
            if session is None:
                self._add(d)
                continue
            was_running = session.running
            session.update(d)
            session.mark_output()
            session.mark_inputs()
            if was_running and not session.running:
                ended.append(session)
        gone = set(self._sessions) - {d["sessionId"] for d in listed}
        for sid in gone:
            del self._sessions[sid]
        self.ready.set()
        self._synced.set()
        if again:
            for session in ended:
                self.bus.publish(Event(EventKind.EXITED, session.key, SessionState(session.details())))
            for sid in gone:
                self.bus.publish(Event(EventKind.REMOVED, sid, SessionState()))
            self.bus.publish(self._snapshot())

    def _on_message(self, method: str, params: dict[str, Any]) -> None:
        if method == "raw":
            s = self._sessions.get(params["sessionId"])
            if s is not None:
                s.on_raw(params["offset"], base64.b64decode(params["data"]), params.get("size"),
                         params.get("sizes"))
            return
        event = Event.from_json(params) if method == "event" else None
        if event is not None:  # (None too for an event a newer host has and this version cannot read)
            self._take(event)

    def _take(self, event: Event) -> None:
        """One event from the host: the mirror follows it, then republishes it to this process's frontends."""
        sid, payload = event.session_id, event.payload
        if isinstance(payload, Snapshot):
            if payload.journal is not None:
                self.journal_status = payload.journal.to_json()
            self._approvals = {r["approvalId"]: r for r in payload.approvals or () if "approvalId" in r}
            self._resync(list(payload.sessions))
            return
        if isinstance(payload, JournalState):
            self.journal_status = payload.to_json()
        if isinstance(payload, Resources):
            for key, figures in payload.figures.items():
                found = self._sessions.get(key)
                if found is not None:  # the figures alone change: the rest of its details stay as they are
                    found._details["resources"] = found.resources = figures
        if isinstance(payload, ApprovalState):  # a request, not a session's details
            if event.kind == EventKind.APPROVAL_REQUESTED and "approvalId" in payload.request:
                self._approvals[payload.request["approvalId"]] = payload.request
            else:
                self._approvals.pop(payload.request.get("approvalId", ""), None)
            self.bus.publish(event)
            return
        session = self._sessions.get(sid) if sid else None
        if event.kind == EventKind.REMOVED and sid is not None:
            self._sessions.pop(sid, None)
        elif event.kind == EventKind.OUTPUT:
            if session is not None:
                session.mark_output()
        elif isinstance(payload, SessionState) and payload.details.get("sessionId"):
            if session is None:
                session = self._add(payload.details)
            else:
                session.update(payload.details)
            session.mark_output()
            if event.kind == EventKind.INPUT:
                session.mark_inputs()
        self.bus.publish(event)


async def subscribe(client: HostClient, approver: bool) -> None:
    """Subscribe ``client`` to its host's events, as an operator frontend answering exec approvals when
    ``approver`` (a host older than approvals does not know the word: it is asked again without it)."""
    if not approver:
        await client.request("events.subscribe")
        return
    try:
        await client.request("events.subscribe", {"approver": True})
    except p.RemoteError as exc:
        if exc.code != p.INVALID_PARAMS:
            raise
        await client.request("events.subscribe")
