"""One node's connection over time: opened on first use, mirrored, reopened with backoff when it drops."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from openclaw_tui.core.config import NodeSettings
from openclaw_tui.core.session import Event, Listener

from ..mirror import RemoteHost
from ..wire import HostClient, ReconnectBackoff, protocol as p
from .ssh import NodeUnreachable, SshLink

RETRY_FIRST_S = 0.25
RETRY_MAX_S = 10.0
RETRY_ON_CALL_S = 1.0  # a call while the node is down tries itself when the last try is older than this,
# doubled for each try in a row that failed (up to RETRY_MAX_S): a dead node costs a call its ssh timeout
# at most that often
MIRROR_READY_S = 10.0


async def mirror_over(client: HostClient, listener: Listener | None = None, node: str | None = None) -> RemoteHost:
    """A mirror of the host at the other end of ``client``; ``listener`` hears every event from the
    snapshot on (subscribed before the stream starts, so nothing slips between). ``node``: the node it is,
    whose session ids the mirror's sessions show as ``NODE/ID``."""
    mirror = RemoteHost(client, node=node)
    if listener is not None:
        mirror.subscribe(listener)
    await client.request("events.subscribe")
    await asyncio.wait_for(mirror.ready.wait(), MIRROR_READY_S)
    return mirror


class NodeLink:
    """The connection to one node, as it comes and goes."""

    def __init__(self, node: NodeSettings, on_event: Callable[[NodeLink, Event], None],
                 on_up: Callable[[NodeLink], Awaitable[None]] | None = None) -> None:
        self.node = node
        self.ssh: SshLink | None = None
        self.mirror: RemoteHost | None = None  # live while reachable; the last seen sessions when not
        self.reachable = False
        self.problem: str | None = None  # why the node is not reachable, from the last try
        self._on_event = on_event
        self._on_up = on_up
        self._was_up = False
        self._attempt: asyncio.Task[None] | None = None
        self._last_try = -math.inf
        self._on_call = ReconnectBackoff(RETRY_ON_CALL_S, RETRY_MAX_S)  # a call tries if the last try is older
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def host_pid(self) -> int | None:
        """The pid of the node's host, from its hello: who issued the ids seen on this connection."""
        return self.ssh.client.hello.get("pid") if self.ssh is not None else None

    async def client(self) -> HostClient:
        """The open connection, opening it if need be; raises :class:`NodeUnreachable` saying why not."""
        if self.reachable and self.ssh is not None:
            return self.ssh.client
        if self._closed:
            raise NodeUnreachable(f"node {self.name}: this host is shutting down")
        if self._attempt is None and time.monotonic() - self._last_try < self._on_call.pause:
            raise NodeUnreachable(self.problem or f"node {self.name} is unreachable")
        await self.attempt()
        if not self.reachable or self.ssh is None:
            raise NodeUnreachable(self.problem or f"node {self.name} is unreachable")
        return self.ssh.client

    async def attempt(self) -> None:
        """One try at connecting, shared by whoever asks while it runs (a cancelled caller leaves it be)."""
        if self._attempt is None:
            self._attempt = asyncio.ensure_future(self._open())
            self._attempt.add_done_callback(self._attempt_done)
        await asyncio.shield(self._attempt)

    def _attempt_done(self, task: asyncio.Task[None]) -> None:
        if self._attempt is task:
            self._attempt = None
        if not task.cancelled():
            task.exception()  # retrieved: _open reports through self.problem

    async def _open(self) -> None:
        self._last_try = time.monotonic()
        self._on_call.failed()  # until it succeeds
        try:
            ssh = await SshLink.open(self.node, start=not self._was_up)
        except NodeUnreachable as exc:
            self.problem = str(exc)
            return
        try:
            mirror = await mirror_over(ssh.client, lambda event: self._on_event(self, event))
        except (ConnectionError, TimeoutError, p.RemoteError) as exc:
            await ssh.close()
            self.problem = ssh.why_not(exc)
            return
        except BaseException:
            await ssh.close()
            raise
        if self._closed:
            await mirror.close()
            await ssh.close()
            return
        self.ssh, self.mirror, self.reachable, self._was_up, self.problem = ssh, mirror, True, True, None
        self._on_call.succeeded()
        self._spawn(self._watch(ssh, mirror))
        if self._on_up is not None:
            self._spawn(self._on_up(self))

    async def _watch(self, ssh: SshLink, mirror: RemoteHost) -> None:
        await ssh.client.closed.wait()
        if self._closed or self.ssh is not ssh:
            return
        self.reachable = False
        self.problem = f"node {self.name}: the connection dropped (`{ssh.command_line}`)"
        await mirror.close()  # its sessions stay, as last seen
        await ssh.close()
        self.problem = ssh.dropped()  # now with how ssh ended and its last word
        self._spawn(self._reconnect())

    async def _reconnect(self) -> None:
        backoff = ReconnectBackoff(RETRY_FIRST_S, RETRY_MAX_S)
        while not self._closed and not self.reachable:
            await asyncio.sleep(backoff.failed())  # the drop, then each try that failed
            await self.attempt()

    def sessions(self, agent: str | None) -> list[dict[str, Any]]:
        """The backgrounded sessions last seen on the node in ``agent``'s scope (details), newest first."""
        if self.mirror is None:
            return []
        return [s.details() for s in self.mirror.sessions(agent) if s.backgrounded]

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Let go of the node (its sessions keep running there) and end the ssh connection."""
        self._closed = True
        pending = [t for t in (*self._tasks, self._attempt) if t is not None]
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(BaseException):
                await task
        if self.mirror is not None:
            await self.mirror.close()
        if self.ssh is not None:
            await self.ssh.close()
        self.reachable = False
