"""The product's nodes: the core's ``Nodes`` protocol (:mod:`openclaw_tui.core.tools.nodecalls`) over one ssh
bridge per node.

Results come back in this host's terms (ids as ``NODE/ID``), and each exit notice reaches the agent once,
whichever of its two paths brings it first.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from openclaw_tui.core.calls import ToolResult, failure
from openclaw_tui.core.config import NodeSettings
from openclaw_tui.core.session import Event, ExitNotice, Status
from openclaw_tui.core.tools import NodeListing, NoticeRelay, join_id

from ..wire import protocol as p
from .nodelink import NodeLink
from .ssh import NodeUnreachable

LIST_WAIT_S = 5.0  # how long list waits for a node that is still connecting
TOLD_KEEP = 4096  # ids remembered per node host; a node queues at most 100 notices per agent
ENDING_ACTIONS = ("poll", "kill", "remove")
LIST = {"tool": "process", "action": "list"}


class SshNodes:
    """The configured nodes, each reached over ssh (satisfies ``core.tools.Nodes``)."""

    def __init__(self, nodes: Mapping[str, NodeSettings], relay: NoticeRelay) -> None:
        self.links = {name: NodeLink(cfg, self._on_event, self._collect) for name, cfg in nodes.items()}
        self._relay = relay
        self._told: OrderedDict[tuple[str, int | None, str], None] = OrderedDict()

    def names(self) -> list[str]:
        return list(self.links)

    async def call(self, node: str, call: dict[str, Any], agent: str | None) -> ToolResult:
        link = self.links[node]
        try:
            client = await link.client()
        except NodeUnreachable as exc:
            return failure(str(exc), "node-unreachable", node=node)
        pid = link.host_pid
        try:
            res = await client.call(call, agent=agent)
        except p.RemoteError as exc:
            return failure(f"node {node}: its host refused the call: {exc}", "node-error", node=node)
        except ConnectionError:
            return failure(f"node {node}: the connection dropped during the call, so its outcome is unknown; "
                           "use list or poll once the node answers again", "node-unreachable", node=node)
        return self._adopt(link, pid, res, call)

    async def listing(self, agent: str | None) -> list[NodeListing]:
        return list(await asyncio.gather(*(self._listing(link, agent) for link in self.links.values())))

    async def _listing(self, link: NodeLink, agent: str | None) -> NodeListing:
        asked = asyncio.ensure_future(self.call(link.name, dict(LIST), agent))
        try:  # a node still connecting does not hold up the list; the try goes on, and its notices count
            res = await asyncio.wait_for(asyncio.shield(asked), LIST_WAIT_S)
        except TimeoutError:
            res = failure(f"node {link.name} did not answer within {LIST_WAIT_S:.0f} s (still trying)",
                          "node-unreachable")
        details = res["details"]
        if details["status"] != Status.FAILED:
            return NodeListing(link.name, details.get("sessions", []))
        last_seen = [_unreachable(link.name, d) for d in link.sessions(agent)]
        return NodeListing(link.name, last_seen, res["text"])

    async def close(self) -> None:
        await asyncio.gather(*(link.close() for link in self.links.values()), return_exceptions=True)

    # -- results in this host's terms ----------------------------------------------------------
    def _adopt(self, link: NodeLink, pid: int | None, res: ToolResult, call: dict[str, Any]) -> ToolResult:
        node = link.name
        for notice in in_node_terms(res, node, call):
            self._take_notice(node, pid, notice)
        details = res["details"]
        if call.get("action") in ENDING_ACTIONS and "failureKind" not in details and details["status"] != Status.RUNNING:
            self._mark_told(node, pid, call["sessionId"])  # the agent has just read how it ended
            self._relay.forget(join_id(node, call["sessionId"]))
        return res

    def _on_event(self, link: NodeLink, event: Event) -> None:
        if isinstance(event.payload, ExitNotice) and event.payload.session_id:
            self._take_notice(link.name, link.host_pid, event.payload.to_json())

    def _take_notice(self, node: str, pid: int | None, notice: dict[str, Any]) -> None:
        bare = notice["sessionId"]
        if not self._mark_told(node, pid, bare):
            return
        text = prefix_ids(str(notice.get("text", "")), node, {bare})
        self._relay.deliver({**notice, "sessionId": join_id(node, bare), "node": node, "text": text})

    def _mark_told(self, node: str, pid: int | None, bare: str) -> bool:
        """Remember that the agent knows how ``bare`` ended; False if it already did."""
        key = (node, pid, bare)
        if key in self._told:
            return False
        self._told[key] = None
        while len(self._told) > TOLD_KEEP:
            self._told.popitem(last=False)
        return True

    async def _collect(self, link: NodeLink) -> None:
        """The link came up: list each agent with sessions there, which hands over what the node queued."""
        agents = {d["agent"] for d in link.sessions(None) if d.get("agent") is not None}
        for agent in sorted(agents):
            await self.call(link.name, dict(LIST), agent)


def in_node_terms(res: ToolResult, node: str, call: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rewrite ``node``'s answer to ``call`` in this host's terms (ids as ``NODE/ID``, ``details.node``);
    returns the exit notices the node put on top of it, taken out of its text."""
    details: dict[str, Any] = res.setdefault("details", {})
    notices: list[dict[str, Any]] = details.pop("notifications", None) or []
    text = str(res.get("text", ""))
    if notices:  # the node put them on top of the text; they reach the agent through this host instead
        text = text.removeprefix("\n".join(n["text"] for n in notices) + "\n\n")
    listed = details.get("sessions") or []
    ids = {call.get("sessionId"), details.get("sessionId"), *(s.get("sessionId") for s in listed)}
    res["text"] = prefix_ids(text, node, ids)
    if isinstance(details.get("sessionId"), str):
        details["sessionId"] = join_id(node, details["sessionId"])
    for s in listed:
        s.update(sessionId=join_id(node, s["sessionId"]), node=node, nodeReachable=True)
    details["node"] = node
    return notices


def prefix_ids(text: str, node: str, ids: Iterable[Any]) -> str:
    """``text`` with each of the node's session ``ids`` written as ``NODE/ID`` (whole ids only: not inside a
    longer id, a path or one already prefixed)."""
    wanted = sorted({i for i in ids if isinstance(i, str) and i}, key=len, reverse=True)
    if not wanted or not text:
        return text
    pattern = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, wanted)) + r")(?![\w-])")
    return pattern.sub(lambda m: join_id(node, m.group(1)), text)


def _unreachable(node: str, details: dict[str, Any]) -> dict[str, Any]:
    """A session last seen on a node that does not answer now, as ``list`` shows it."""
    d = dict(details)
    d.update(sessionId=join_id(node, d["sessionId"]), node=node, nodeReachable=False, waitingForInput=False,
             waitingReason=None)
    return d
