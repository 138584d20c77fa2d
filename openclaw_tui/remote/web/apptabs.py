"""The browser's tabs: each one the dashboard of ``openclaw-tui attach`` in a process of its own, at most
``max_tabs`` at once, ended when its tab closes.

textual-serve's ``AppService`` speaks Textual's web driver protocol with the app process; a :class:`Tab` starts
that process without a shell, in a session of its own, and makes sure it ends: it is asked to quit (the
dashboard then detaches, leaving the sessions running), and its process group is terminated if it has not
gone within :data:`QUIT_S`.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
from collections.abc import Callable, Sequence

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

QUIT_S = 5.0  # a dashboard detaches in well under a second; this is for one that hangs
GRACE_S = 3.0  # after SIGTERM, as the host gives a session's processes
NOT_TO_THE_TAB = ("TMUX", "TMUX_PANE")  # the tab's terminal is the browser: a copy must not go to our tmux


def _size(value: object, default: int) -> int:
    try:
        return max(1, min(1000, int(str(value))))
    except ValueError:
        return default


class Tab(AppService):
    """One tab's app process (``argv``), writing to the tab's WebSocket."""

    def __init__(self, argv: Sequence[str], websocket: web.WebSocketResponse, downloads: DownloadManager) -> None:
        async def close() -> None:
            await websocket.close()

        super().__init__(shlex.join(argv), write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                         close=close, download_manager=downloads)
        self.argv = list(argv)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width, height)
        for name in NOT_TO_THE_TAB:
            env.pop(name, None)
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        self._process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width, height), start_new_session=True)
        self._stdin = self._process.stdin
        return self._process

    async def end(self) -> int | None:
        """Ask the app to quit, wait for its process, terminate its group if it lingers; its exit status."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                try:
                    os.killpg(process.pid, sig)
                except ProcessLookupError:
                    pass
            try:
                await asyncio.wait_for(process.wait(), QUIT_S if sig is None else GRACE_S)
                break
            except TimeoutError:
                continue
        if self._task is not None:  # its reader ends with the process's output
            try:
                await asyncio.wait_for(self._task, GRACE_S)
            except TimeoutError:
                self._task.cancel()
            self._task = None
        return process.returncode


class Tabs:
    """The open tabs, at most ``limit``; a tab counts from its WebSocket's start until its process is gone.

    Args:
        argv: the command each tab runs (``openclaw-tui attach``).
        limit: ``--max-tabs``.
        log: one line per tab opened and closed.
    """

    def __init__(self, argv: Sequence[str], limit: int, log: Callable[[str], None]) -> None:
        self.argv, self.limit, self.log = list(argv), limit, log
        self.open: set[Tab] = set()
        self._opened = 0
        self._downloads = DownloadManager()

    @property
    def full(self) -> bool:
        return len(self.open) >= self.limit

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """A tab's WebSocket (the gate has checked token and Origin, the caller that a tab is free)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        tab = Tab(self.argv, websocket, self._downloads)
        self.open.add(tab)
        self._opened += 1
        number = self._opened
        try:
            await tab.start(_size(request.query.get("width"), 80), _size(request.query.get("height"), 24))
            self.log(f"tab {number} opened for {request.remote} (pid {tab.pid}; {len(self.open)} of "
                     f"{self.limit} open)")
            await self._relay(websocket, tab)
        finally:
            status = await tab.end()
            self.open.discard(tab)
            self.log(f"tab {number} closed (its dashboard exited with {status}; {len(self.open)} of "
                     f"{self.limit} open)")
            await websocket.close()
        return websocket

    @staticmethod
    async def _relay(websocket: web.WebSocketResponse, tab: Tab) -> None:
        """The browser's messages to the app: keys (``stdin``), size, focus; a malformed one is dropped."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            arg = rest[0] if rest else None
            if kind == "stdin" and isinstance(arg, str):
                await tab.send_bytes(arg.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(arg, dict):
                await tab.set_terminal_size(_size(arg.get("width"), 80), _size(arg.get("height"), 24))
            elif kind == "ping":
                await websocket.send_json(["pong", arg])
            elif kind == "focus":
                await tab.focus()
            elif kind == "blur":
                await tab.blur()

    async def close_all(self) -> None:
        await asyncio.gather(*(tab.end() for tab in list(self.open)))
