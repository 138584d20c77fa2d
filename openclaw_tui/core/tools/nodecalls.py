"""Calls that run elsewhere: the nodes (other machines' hosts), behind a protocol the core does not implement.

It decides which calls go to a node (:func:`exec_on_node`, :func:`process_on_node`, :func:`merged_listing`),
and :class:`NoticeRelay` brings a node's exit notices back to the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ..calls import ToolResult, failure, refused
from ..session import Event, EventKind, ExitNotice
from .exitnotices import Notices
from .models import ExecParams, ProcessParams

SEPARATOR = "/"


@dataclass
class NodeListing:
    """A node's part of ``list``: its sessions in the caller's scope (details with ``node``, ids as
    ``NODE/ID``), or, when it does not answer, what was tried and the sessions last seen there, marked
    ``nodeReachable: false``."""

    node: str
    sessions: list[dict[str, Any]]
    problem: str | None = None


class Nodes(Protocol):
    """The other machines calls may run on."""

    def names(self) -> Sequence[str]:
        """The configured nodes."""
        ...

    async def call(self, node: str, call: dict[str, Any], agent: str | None) -> ToolResult:
        """Run ``call`` on ``node``'s host in ``agent``'s scope. Never raises: a node that cannot be
        reached is a failed result (``node-unreachable``) saying what was tried. Session ids in the result
        are the node's, already prefixed (``NODE/ID``), and ``details.node`` names it."""
        ...

    async def listing(self, agent: str | None) -> list[NodeListing]:
        """Every node's sessions in ``agent``'s scope."""
        ...

    async def close(self) -> None:
        """Let go of every node (their sessions keep running there)."""
        ...


class NoticeRelay:
    """Where a node's exit notices enter this host: queued for their agent's next result and published as
    ``exit-notification`` events (the MCP server's log messages, the dashboard's toasts), exactly like the
    host's own. The node client calls ``deliver`` once per notice and ``forget`` when a result already told
    the agent how the session ended."""

    def __init__(self, notices: Notices, publish: Callable[[Event], None]) -> None:
        self._notices = notices
        self._publish = publish

    def deliver(self, notice: dict[str, Any]) -> None:
        self._notices.add(notice)
        try:
            told = ExitNotice.from_json(notice)
        except (KeyError, TypeError, ValueError):  # a node's notice this host cannot read: its queue still has it
            return
        self._publish(Event(EventKind.NOTIFICATION, told.session_id, told))

    def forget(self, session_id: str) -> None:
        self._notices.discard(session_id)


def split_id(session_id: str | None) -> tuple[str | None, str | None]:
    """``("gpu-box", "brisk-atlas")`` for ``gpu-box/brisk-atlas``; ``(None, id)`` for a local id."""
    if session_id is None or SEPARATOR not in session_id:
        return None, session_id
    node, _, bare = session_id.partition(SEPARATOR)
    return node, bare


def join_id(node: str, session_id: str) -> str:
    return f"{node}{SEPARATOR}{session_id}"


def runs_on_node(params: ExecParams) -> bool:
    """Whether an ``exec`` call names a node (rightly or not: :func:`exec_on_node` words the problem)."""
    return params.host == "node" or params.node is not None


async def exec_on_node(nodes: Nodes | None, params: ExecParams, agent: str | None) -> ToolResult:
    """Run an ``exec`` that names a node there, or refuse it saying what is missing."""
    problem = _target_problem(params, nodes)
    if problem is not None:
        return problem
    assert nodes is not None and params.node is not None
    forwarded = params.model_dump(exclude_unset=True, exclude={"host", "node"})
    return await nodes.call(params.node, {"tool": "exec", **forwarded}, agent)


async def process_on_node(nodes: Nodes | None, node: str, params: ProcessParams, agent: str | None) -> ToolResult:
    """A ``process`` action on a node's session (its id ``NODE/ID``), as the node answers it."""
    if nodes is None or node not in nodes.names():
        return failure(
            f"no session {params.sessionId!r}: {_unknown_node(node, nodes)} (an id with a '/' names the node "
            "it runs on; use action 'list' to see your sessions)",
            "unknown-node",
        )
    _, bare = split_id(params.sessionId)
    forwarded = params.model_dump(exclude_unset=True)
    return await nodes.call(node, {"tool": "process", **forwarded, "sessionId": bare}, agent)


def _target_problem(params: ExecParams, nodes: Nodes | None) -> ToolResult | None:
    if params.host != "node":
        return refused(
            f"node {params.node!r} was given without host: \"node\"; to run on a node pass both "
            f"(host: \"node\", node: {params.node!r}), or leave node out to run here; nothing was run",
            "invalid-params",
        )
    if not params.node:
        configured = ", ".join(nodes.names()) if nodes is not None else ""
        return refused(
            "host: \"node\" needs node, the name of a configured node"
            + (f" (configured: {configured})" if configured else " (none is configured: add [nodes.NAME] "
               "ssh = \"user@host\" to the config)")
            + "; nothing was run",
            "invalid-params",
        )
    if nodes is None or params.node not in nodes.names():
        return refused(f"{_unknown_node(params.node, nodes)}; nothing was run", "unknown-node")
    return None


def _unknown_node(node: str, nodes: Nodes | None) -> str:
    names = list(nodes.names()) if nodes is not None else []
    if not names:
        return (f"there is no node {node!r}: no nodes are configured (add [nodes.{node}] ssh = \"user@host\" "
                "to the config)")
    return f"there is no node {node!r}; configured nodes: {', '.join(names)}"


async def merged_listing(nodes: Nodes, local: list[dict[str, Any]], agent: str | None
                         ) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """``list`` across machines: every session (local and the nodes'), newest first; a note per node that
    did not answer (each names its node); and each node's reachability for ``details.nodes``."""
    listings = await nodes.listing(agent)
    sessions = sorted([*local, *(s for part in listings for s in part.sessions)], key=_started, reverse=True)
    notes = [f"[{part.problem}]" for part in listings if part.problem]
    reach = [{"node": part.node, "reachable": part.problem is None, "problem": part.problem} for part in listings]
    return sessions, notes, reach


def _started(details: dict[str, Any]) -> float:
    stamp = details.get("startedAt")
    try:
        return datetime.fromisoformat(str(stamp)).timestamp()
    except ValueError:
        return 0.0
