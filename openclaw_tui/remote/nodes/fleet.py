"""The dashboard across nodes: this machine's host and every configured node's, shown as one host.

:class:`FleetHost` is one :class:`~openclaw_tui.remote.mirror.viewprotocols.HostView` over the local host and
a mirror per node (:class:`FleetNode`), whose sessions show as ``NODE/ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from openclaw_tui.core.calls import failure
from openclaw_tui.core.config import NodeSettings, load_settings
from openclaw_tui.core.session import (
    ApprovalState,
    Event,
    EventBus,
    EventKind,
    ExitNotice,
    Listener,
    Payload,
    Resources,
    SessionState,
    Snapshot,
)
from openclaw_tui.core.tools import InputRefused, InputSent, join_id, split_id

from ..mirror import HostView, RemoteHost, SessionView
from ..wire import ReconnectBackoff, protocol as p
from .nodelink import RETRY_FIRST_S, RETRY_MAX_S, mirror_over
from .ssh import NodeUnreachable, SshLink
from .sshnodes import in_node_terms

CLIENT = "openclaw-tui dashboard"
NODE_ONLY = ("host", "node")  # an exec's parameters that chose the node; its host decides the rest


def open_fleet(config_path: str | None, local: HostView) -> HostView:
    """``local`` and the config's nodes as one host for the dashboard; ``local`` itself without nodes (or
    when the config cannot be read: the host reading it says why)."""
    try:
        nodes = load_settings(config_path).nodes
    except (OSError, tomllib.TOMLDecodeError):
        return local
    return FleetHost(local, nodes) if nodes else local


class FleetNode:
    """One node as the dashboard sees it over time: a link and a mirror while it answers, the sessions last
    seen and why it does not while it does not."""

    def __init__(self, settings: NodeSettings, on_event: Callable[[FleetNode, Event], None],
                 on_change: Callable[[FleetNode], None]) -> None:
        self.settings = settings
        self.ssh: SshLink | None = None
        self.mirror: RemoteHost | None = None  # live while reachable; its sessions as last seen when not
        self.problem: str | None = f"node {self.name} is unreachable: not connected yet (connecting over ssh to {settings.ssh})"
        self._on_event = on_event
        self._on_change = on_change
        self._task: asyncio.Task[None] | None = None
        self.figures_wanted = False  # the dashboard shows figures: each new mirror asks its host for them
        self._unwatch: Callable[[], None] | None = None

    def watch_figures(self, on: bool) -> None:
        self.figures_wanted = on
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        if on and self.mirror is not None:
            self._unwatch = self.mirror.watch_figures()

    @property
    def name(self) -> str:
        return self.settings.name

    @property
    def reachable(self) -> bool:
        return self.problem is None and self.mirror is not None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._keep())

    async def close(self) -> None:
        """Let go of the node; its sessions keep running there."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.mirror is not None:
            await self.mirror.close()
        if self.ssh is not None:
            await self.ssh.close()

    async def _keep(self) -> None:
        """Connect, stay until the connection drops, and connect again, waiting longer after each failure."""
        backoff, was_up = ReconnectBackoff(RETRY_FIRST_S, RETRY_MAX_S), False
        while True:
            ssh = await self._connect(start=not was_up)  # the first time, as agents' calls do, a host may start
            if ssh is not None:
                was_up = True
                backoff.succeeded()
                await ssh.client.closed.wait()
                await self._lost(ssh)
            await asyncio.sleep(backoff.failed())  # after a failed try, or the drop of a connection that was up

    async def _connect(self, start: bool) -> SshLink | None:
        try:
            ssh = await SshLink.open(self.settings, start=start, client=CLIENT)
        except NodeUnreachable as exc:
            self._say(str(exc))
            return None
        try:
            mirror = await mirror_over(ssh.client, lambda event: self._on_event(self, event), self.name,
                                       approver=True)
        except (ConnectionError, TimeoutError, p.RemoteError) as exc:
            await ssh.close()
            self._say(ssh.why_not(exc))
            return None
        except BaseException:
            await ssh.close()
            raise
        old, self.ssh, self.mirror = self.mirror, ssh, mirror
        if old is not None:
            await old.close()
        self.watch_figures(self.figures_wanted)
        self._say(None)
        return ssh

    async def _lost(self, ssh: SshLink) -> None:
        """The connection dropped: keep the sessions as last seen (none of them is known to wait now)."""
        self.ssh = None
        if self.mirror is not None:
            await self.mirror.close()
            for s in self.mirror.sessions():
                if s.waiting_for_input:
                    s.update({**s.details(), "waitingForInput": False, "waitingReason": None})
        await ssh.close()
        self._say(ssh.dropped())

    def _say(self, problem: str | None) -> None:
        if problem != self.problem:
            self.problem = problem
            self._on_change(self)


class FleetHost:
    """The local host and the nodes' hosts as one :class:`~openclaw_tui.remote.mirror.HostView` (see the
    package docstring)."""

    def __init__(self, local: HostView, nodes: Mapping[str, NodeSettings]) -> None:
        self.local = local
        self.nodes = {name: FleetNode(cfg, self._node_event, self._node_changed) for name, cfg in nodes.items()}
        self.bus = EventBus(self._snapshot)
        self._listed: list[SessionView] | None = None  # every session, newest first, until something changes
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Connect to every node (once: a dashboard given a fleet started already goes on with it)."""
        if self._unsubscribe is not None:
            return
        self.local.start()
        self._unsubscribe = self.local.subscribe(self._local_event)
        for node in self.nodes.values():
            node.start()

    async def close(self) -> None:
        """Let go of the nodes (their sessions keep running there), then close the local host."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        await asyncio.gather(*(node.close() for node in self.nodes.values()), return_exceptions=True)
        await self.local.close()

    @property
    def node_states(self) -> dict[str, str | None]:
        return {name: node.problem for name, node in self.nodes.items()}

    @property
    def journal_status(self) -> dict[str, Any]:
        return self.local.journal_status

    # -- exec approvals: every host's, each decided by the host that asked -------------------------
    def pending_approvals(self) -> list[Mapping[str, Any]]:
        found: list[Mapping[str, Any]] = list(self.local.pending_approvals())
        for node in self.nodes.values():
            if node.reachable and node.mirror is not None:
                found += node.mirror.pending_approvals()
        return sorted(found, key=lambda r: r.get("createdAtMs", 0))

    async def decide_approval(self, approval_id: str, decision: str, reason: str | None = None,
                              patterns: list[dict[str, Any]] | None = None,
                              where: dict[str, Any] | None = None) -> dict[str, Any]:
        """A node's request (``NODE/ID``) is decided by that node's host, through its link."""
        node, _ = self._node_of(approval_id)
        if node is None:
            return await self.local.decide_approval(approval_id, decision, reason, patterns, where)
        if not node.reachable or node.mirror is None:
            return failure(_unreachable(node), "node-unreachable", node=node.name)
        return await node.mirror.decide_approval(approval_id, decision, reason, patterns, where)

    def attend(self) -> Callable[[], None]:
        return self.local.attend()  # the nodes' mirrors subscribe as approvers themselves

    def watch_figures(self) -> Callable[[], None]:
        """Figures from this machine's host and from every node's, for as long as the dashboard shows them."""
        unwatch = self.local.watch_figures()
        for node in self.nodes.values():
            node.watch_figures(True)

        def leave() -> None:
            unwatch()
            for node in self.nodes.values():
                node.watch_figures(False)

        return leave

    # -- sessions -------------------------------------------------------------------------------
    def session(self, session_id: str, agent: str | None = None) -> SessionView | None:
        node, bare = self._node_of(session_id)
        if node is None:
            return self.local.session(session_id, agent)
        return node.mirror.session(bare, agent) if node.mirror is not None else None

    def sessions(self, agent: str | None = None) -> Sequence[SessionView]:
        if agent is None and self._listed is not None:
            return self._listed
        found: list[SessionView] = list(self.local.sessions(agent))
        for node in self.nodes.values():
            if node.mirror is not None:
                found += node.mirror.sessions(agent)
        found.sort(key=lambda s: s.started_ms, reverse=True)  # stable: one host's own order stays
        if agent is None:
            self._listed = found
        return found

    def _node_of(self, session_id: str | None) -> tuple[FleetNode | None, str]:
        name, bare = split_id(session_id)
        node = self.nodes.get(name) if name is not None else None
        return (node, bare or "") if node is not None else (None, session_id or "")

    # -- calls and input ------------------------------------------------------------------------
    async def call(self, call: Mapping[str, Any] | str, agent: str | None = None) -> dict[str, Any]:
        """Calls for a node's session, or an exec with ``host: "node"`` naming one, go to that node's host;
        the rest to the local host. The answer names the node's sessions as ``NODE/ID``."""
        routed = self._route(call)
        if routed is None:
            return await self.local.call(call, agent)
        node, node_call = routed
        if not node.reachable or node.mirror is None:
            return failure(_unreachable(node), "node-unreachable", node=node.name)
        try:
            res = await node.mirror.call(node_call, agent)
        except p.RemoteError as exc:
            return failure(f"node {node.name}: its host refused the call: {exc}", "node-error", node=node.name)
        in_node_terms(res, node.name, node_call)
        return res

    def _route(self, call: Mapping[str, Any] | str) -> tuple[FleetNode, dict[str, Any]] | None:
        if isinstance(call, str):
            try:
                call = json.loads(call)
            except ValueError:
                return None  # the local host words what is wrong with it
        if not isinstance(call, Mapping):
            return None
        if call.get("tool") == "exec" and call.get("host") == "node" and call.get("node") in self.nodes:
            return self.nodes[call["node"]], {k: v for k, v in call.items() if k not in NODE_ONLY}
        node, bare = self._node_of(call.get("sessionId") if isinstance(call.get("sessionId"), str) else None)
        if call.get("tool") == "process" and node is not None:
            return node, {**call, "sessionId": bare}
        return None

    async def mute(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """A node's session is muted on its node's host, whose notifications they are; an agent everywhere."""
        node, bare = self._node_of(session_id)
        if node is not None:
            if not node.reachable or node.mirror is None:
                return failure(_unreachable(node), "node-unreachable", node=node.name)
            return await node.mirror.mute(muted, bare)
        if session_id is None:
            for each in self.nodes.values():
                if each.reachable and each.mirror is not None:
                    await each.mirror.mute(muted, agent=agent)
        return await self.local.mute(muted, session_id, agent)

    async def send_input(self, session_id: str, data: bytes, source: str, action: str) -> InputSent:
        node, bare = self._node_of(session_id)
        if node is None:
            return await self.local.send_input(session_id, data, source, action)
        if not node.reachable or node.mirror is None:
            raise InputRefused(_unreachable(node), "node-unreachable")
        return await node.mirror.send_input(bare, data, source, action)

    def send_input_now(self, session_id: str, data: bytes, source: str, action: str) -> InputSent | None:
        node, _ = self._node_of(session_id)
        return self.local.send_input_now(session_id, data, source, action) if node is None else None

    # -- events ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Every host's sessions as a snapshot now, then every event of each, nodes' ids as ``NODE/ID``."""
        return self.bus.subscribe(listener)

    def _snapshot(self) -> Event:
        local: list[Event] = []
        self.local.subscribe(local.append)()  # the local host's own snapshot, and no more
        first = local[0].payload if local else None
        own = first if isinstance(first, Snapshot) else Snapshot()
        listed = list(own.sessions)
        for node in self.nodes.values():
            if node.mirror is not None:
                listed += [{**s.details(), "sessionId": s.id, "node": node.name} for s in node.mirror.sessions()]
        return Event(EventKind.SNAPSHOT, None, replace(own, sessions=tuple(listed)))  # the link's state too

    def _local_event(self, event: Event) -> None:
        if event.kind != EventKind.OUTPUT:
            self._listed = None
        self.bus.publish(event)

    def _node_event(self, node: FleetNode, event: Event) -> None:
        # a node's (re)connection is told as a whole
        if event.kind in (EventKind.SNAPSHOT, EventKind.HOST_GONE, EventKind.JOURNAL):
            return
        if event.kind != EventKind.OUTPUT:
            self._listed = None
        sid = join_id(node.name, event.session_id) if event.session_id else None
        self.bus.publish(Event(event.kind, sid, _in_fleet_terms(event.payload, node.name)))

    def _node_changed(self, node: FleetNode) -> None:
        """A node came up, with new sessions, or went away: everything is listed again."""
        self._listed = None
        self.bus.publish(self._snapshot())


def _in_fleet_terms(payload: Payload, node: str) -> Payload:
    """A node's event payload as the dashboard across nodes names it: its session as ``NODE/ID``, on ``node``."""
    if isinstance(payload, SessionState) and isinstance(payload.details.get("sessionId"), str):
        return SessionState({**payload.details, "sessionId": join_id(node, payload.details["sessionId"]), "node": node})
    if isinstance(payload, ExitNotice):
        return replace(payload, session_id=join_id(node, payload.session_id), node=node)
    if isinstance(payload, Resources):
        return Resources({join_id(node, key): figures for key, figures in payload.figures.items()})
    if isinstance(payload, ApprovalState) and isinstance(payload.request.get("sessionId"), str):
        return ApprovalState({**payload.request, "sessionId": join_id(node, payload.request["sessionId"]), "node": node})
    return payload


def _unreachable(node: FleetNode) -> str:
    return f"{node.problem} (its sessions show as last seen until it answers again)"
