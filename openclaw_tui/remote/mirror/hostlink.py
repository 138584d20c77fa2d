"""An attached frontend's connection to its host, made again by itself whenever it drops."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..wire import HostClient, ReconnectBackoff, protocol as p

CONNECTING, LIVE, RECONNECTING, GONE = "connecting", "live", "reconnecting", "gone"
GIVE_UP_S = 30.0  # nothing answered for this long: the host is gone
NO_SOCKET_S = 2.0  # the socket file missing this long: the host ended (a re-exec keeps it in place)
FIRST_PAUSE_S, LONGEST_PAUSE_S = 0.05, 1.0
CLIENT_NAME = "openclaw-tui dashboard"

Opener = Callable[[], Awaitable[tuple[HostClient, Path]]]  # a connection, and the socket it reached
Attach = Callable[[HostClient], Awaitable[None]]
StateChanged = Callable[[str, str], None]
_FAILED = (ConnectionError, OSError, TimeoutError, p.RemoteError, RuntimeError)


class HostLink:
    """The connection to the host on ``path``: first made by ``opener`` (which may look for the socket, or
    start a host, and says where it connected), made again by plain connects to that socket; ``attach`` runs
    on every new connection (subscribe, resync), ``on_state(state, why)`` hears every change of state."""

    def __init__(self, path: Path | None, opener: Opener | None, attach: Attach, on_state: StateChanged) -> None:
        self.path = path
        self._open = opener or self._connect_here
        self._attach = attach
        self._on_state = on_state
        self.client: HostClient | None = None
        self.state, self.why = CONNECTING, ""
        self._settled = asyncio.Event()  # live or gone: what a waiting request waits for
        self._task: asyncio.Future[None] | None = None
        self.closed = False

    def adopt(self, client: HostClient) -> None:
        """Use a connection someone else made and keeps (a node's ssh bridge): never made again here, so
        the host is gone once it closes."""
        self.client = client
        self._set(LIVE, "")
        self._task = asyncio.ensure_future(self._keep())

    async def first(self) -> None:
        """Connect now (failing as the opener fails), then keep the connection."""
        await self._use(*await self._open())
        self._task = asyncio.ensure_future(self._keep())

    def start(self) -> None:
        """Connect in the background, then keep the connection (the state says how it goes)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def close(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self.client is not None:
            await self.client.close()
        self._settled.set()

    async def ready(self) -> HostClient:
        """The live connection, once connecting or reconnecting settled; ConnectionError if the host is gone."""
        await self._settled.wait()
        if self.state != LIVE or self.client is None or self.closed:
            raise ConnectionError(f"the host is gone: {self.why}" if self.why else "the host connection is closed")
        return self.client

    async def _connect_here(self) -> tuple[HostClient, Path]:
        return await self._connect(), self.path  # type: ignore[return-value]  # only called with a path

    async def _connect(self) -> HostClient:
        if self.path is None:
            raise ConnectionError("the connection to the host closed")
        return await HostClient.connect(self.path, client=CLIENT_NAME)

    async def _run(self) -> None:
        try:
            await self._use(*await self._open())
        except _FAILED as exc:
            self._set(GONE, str(exc))
            return
        await self._keep()

    async def _keep(self) -> None:
        while self.client is not None:
            await self.client.closed.wait()
            if self.closed:
                return
            if self.path is None:
                self._set(GONE, "the connection to the host closed")
                return
            self._set(RECONNECTING, "the connection to the host dropped")
            why = await self._reconnect()
            if why:
                self._set(GONE, why)
                return

    async def _reconnect(self) -> str:
        """Connect again with growing pauses; empty once through, else why the host is taken for gone."""
        began, missing_since, backoff = time.monotonic(), None, ReconnectBackoff(FIRST_PAUSE_S, LONGEST_PAUSE_S)
        last = ""
        while not self.closed:
            try:
                await self._use(await self._connect(), self.path)
                return ""
            except _FAILED as exc:
                last = str(exc)
            now = time.monotonic()
            missing_since = None if self.path is not None and self.path.exists() else (missing_since or now)
            if missing_since is not None and now - missing_since >= NO_SOCKET_S:
                return f"its socket {self.path} is gone (the host ended)"
            if now - began >= GIVE_UP_S:
                return f"nothing answered on {self.path} for {GIVE_UP_S:.0f} s ({last})"
            await asyncio.sleep(backoff.failed())
        return "closed"

    async def _use(self, client: HostClient, path: Path | None) -> None:
        self.client, self.path = client, path  # before the attach: its resubscriptions go out on this connection
        try:
            await self._attach(client)
        except BaseException:
            await client.close()
            raise
        self._set(LIVE, "")

    def _set(self, state: str, why: str) -> None:
        self.state, self.why = state, why
        if state in (LIVE, GONE):
            self._settled.set()
        else:
            self._settled.clear()
        self._on_state(state, why)
