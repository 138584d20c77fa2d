"""A socket that answers as a test scripts it, one connection at a time: what a host re-executing itself
(it drops a call unanswered and answers ``hello`` again, the same ``hostId``), another host, or no host
looks like to a client. The client under test is real and so is the socket; only the host's side is played.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any


class Peer:
    """One accepted connection, as a play sees it; every message read is kept in ``heard``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, heard: list[dict[str, Any]],
                 first: bytes) -> None:
        self.reader, self.writer, self.heard = reader, writer, heard
        self._first: bytes | None = first

    async def read(self) -> dict[str, Any] | None:
        """The client's next message; None once it closed the connection."""
        line, self._first = self._first or await self.reader.readline(), None
        if not line:
            return None
        msg: dict[str, Any] = json.loads(line)
        self.heard.append(msg)
        return msg

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(json.dumps({"jsonrpc": "2.0", **msg}).encode() + b"\n")

    def answer(self, request: dict[str, Any] | None, result: Any) -> None:
        assert request is not None, "the client closed before its request"
        self.send({"id": request["id"], "result": result})


Play = Callable[[Peer], Awaitable[None]]


def hello_of(host_id: str, generation: int = 0) -> dict[str, Any]:
    return {"protocol": 1, "server": "openclaw-tui", "version": "0", "pid": 1, "hostId": host_id,
            "generation": generation}


def drops(host_id: str = "h1") -> Play:
    """Answers ``hello``, reads the call, and closes without answering it: a re-exec's handover (or a host
    that ended)."""
    async def play(peer: Peer) -> None:
        peer.answer(await peer.read(), hello_of(host_id))
        await peer.read()
    return play


def greets(host_id: str = "h1", generation: int = 1) -> Play:
    """Answers ``hello`` and nothing else until the client closes: a host answering again after a re-exec, or
    one still running the call it was sent."""
    async def play(peer: Peer) -> None:
        peer.answer(await peer.read(), hello_of(host_id, generation))
        while await peer.read() is not None:
            continue
    return play


def answers(result: dict[str, Any], host_id: str = "h1", event_first: bool = True) -> Play:
    """Answers ``hello`` and the call with ``result``; an ``event`` notification goes out between them."""
    async def play(peer: Peer) -> None:
        peer.answer(await peer.read(), hello_of(host_id))
        call = await peer.read()
        if event_first:
            peer.send({"method": "event", "params": {"kind": "output", "sessionId": "s1", "data": {}}})
        peer.answer(call, result)
    return play


def refuses(message: str) -> Play:
    """Answers ``hello`` and an error to the call."""
    async def play(peer: Peer) -> None:
        peer.answer(await peer.read(), hello_of("h1"))
        call = await peer.read()
        assert call is not None
        peer.send({"id": call["id"], "error": {"code": -32602, "message": message}})
    return play


async def closes(peer: Peer) -> None:
    """Closes the connection without answering: no host that answers."""


class ScriptedHost:
    """Serves ``plays`` on ``path``, one for each connection in turn; connections after the last are closed
    unanswered. ``connections`` counts them, ``heard`` holds every message clients sent. A connection closed
    before it sent anything (``find_host`` trying which path serves) takes no play and is not counted."""

    def __init__(self, path: Path, plays: list[Play]) -> None:
        self.path = path
        self.plays = list(plays)
        self.connections = 0
        self.heard: list[dict[str, Any]] = []
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> ScriptedHost:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._server = await asyncio.start_unix_server(self._serve, str(self.path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:  # a play still reading hears the end of its connection and returns
            writer.close()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=30)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.append(writer)
        try:
            first = await reader.readline()
            if not first:
                return
            self.connections += 1
            play = self.plays.pop(0) if self.plays else closes
            await play(Peer(reader, writer, self.heard, first))
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            self._tasks.discard(task)

    def methods(self) -> list[str]:
        return [m.get("method", "") for m in self.heard]
