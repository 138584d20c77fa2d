"""The client side of the host socket: requests with futures, notifications to listeners.

Used by ``openclaw-tui call``, the MCP server and the attached dashboard. One reader task matches
responses to their requests by id and hands ``event`` and ``raw`` notifications to whoever listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from openclaw_tui.core.calls import failure, toolcall

from . import protocol as p
from .socketpaths import SocketPathError, check_length, socket_path

Listener = Callable[[str, dict[str, Any]], None]


class NoHost(ConnectionError):
    """Nothing is serving on the socket."""


class HostClient:
    """A connection to a running host."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._listeners: list[Listener] = []
        self.hello: dict[str, Any] = {}
        self._task = asyncio.ensure_future(self._read())
        self.closed = asyncio.Event()

    @classmethod
    async def connect(cls, path: Path | None = None, client: str = "openclaw-tui") -> HostClient:
        path = path or socket_path()
        try:
            check_length(path)
        except SocketPathError as exc:  # no host can serve on such a path
            raise NoHost(str(exc)) from None
        try:
            reader, writer = await asyncio.open_unix_connection(str(path), limit=p.MAX_LINE)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise NoHost(f"no openclaw-tui host is running on {path} (start one with `openclaw-tui serve`)") from exc
        self = cls(reader, writer)
        self.hello = await self.request("hello", {"client": client})
        return self

    async def __aenter__(self) -> HostClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        self._writer.close()
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task
        self._fail_all(ConnectionError("connection closed"))

    # -- requests -------------------------------------------------------------------------------
    async def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        if self.closed.is_set():
            raise ConnectionError("the host connection is closed")
        id_ = next(self._ids)
        line = p.within_limit(p.request(id_, method, params or {}))
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[id_] = fut
        self._writer.write(line)
        try:
            return await fut
        except asyncio.CancelledError:
            # Tell the host, so a cancelled foreground exec ends its run there as it would in-process.
            if not self.closed.is_set() and not self._writer.is_closing():
                self._writer.write(p.notification("cancel", {"id": id_}))
            raise
        finally:
            self._waiting.pop(id_, None)

    async def call(self, call: dict[str, Any] | str, agent: str | None = None) -> dict[str, Any]:
        """A tool call on the host; the same result ``ToolHost.call`` gives.

        ``call`` as text is decoded once, here, and must be a JSON object: the host would decode a JSON
        string a second time and run what it holds.
        """
        try:
            call = toolcall.read(call)
        except toolcall.BadCall as exc:
            return exc.result
        try:
            result: dict[str, Any] = await self.request("call", {"call": call, "agent": agent})
        except p.MessageTooLarge as exc:
            return failure(f"the call is too large: {exc}; send large input in several calls", "call-too-large")
        return result

    # -- notifications --------------------------------------------------------------------------
    def listen(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    async def events(self) -> AsyncIterator[dict[str, Any]]:
        """Subscribe and iterate over host events (a snapshot first)."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        def on(method: str, params: dict[str, Any]) -> None:
            if method == "event":
                queue.put_nowait(params)

        stop = self.listen(on)
        closed = asyncio.ensure_future(self.closed.wait())
        closed.add_done_callback(lambda _: queue.put_nowait(None))
        await self.request("events.subscribe")
        try:
            while (item := await queue.get()) is not None:
                yield item
        finally:
            stop()
            closed.cancel()

    async def _read(self) -> None:
        try:
            while line := await self._reader.readline():
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "method" in msg:
                    for listener in list(self._listeners):
                        listener(msg["method"], msg.get("params") or {})
                    continue
                fut = self._waiting.get(msg.get("id"))
                if fut is None or fut.done():
                    continue
                if "error" in msg:
                    err = msg["error"]
                    fut.set_exception(p.RemoteError(err.get("code", p.INTERNAL_ERROR), err.get("message", "error")))
                else:
                    fut.set_result(msg.get("result"))
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self.closed.set()
            self._fail_all(ConnectionError("the host closed the connection"))

    def _fail_all(self, exc: Exception) -> None:
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(exc)
        self._waiting.clear()

