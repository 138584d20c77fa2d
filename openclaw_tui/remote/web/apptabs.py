"""The browser's tabs: each one the dashboard of ``openclaw-tui attach`` in a process of its own, at most
``limit`` at once, ended when its tab closes.

A tab's dashboard starts when its page is served, not when the page's script connects: the app's start
(an interpreter, Textual, the host's mirror) then overlaps the page's own load, and the page names its
dashboard by a one-time ticket in the WebSocket's path. Until the socket comes, what the app writes is kept
(its first bytes set the terminal's modes); a ticket nobody claims within :data:`CLAIM_S` ends its app.

textual-serve's ``AppService`` speaks Textual's web driver protocol with the app process; a :class:`Tab` starts
that process without a shell, in a session of its own, and makes sure it ends: it is asked to quit (the
dashboard then detaches, leaving the sessions running), and its process group is terminated if it has not
gone within :data:`QUIT_S`.

A dashboard that ends on its own before it drew, or with a failing status (no host answers, it crashed),
leaves its last words (the end of its stderr) as the tab's :attr:`Tab.why`, which the page asks for
(``/why/TICKET``) and shows in place of the plain "The dashboard closed".
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shlex
import signal
from collections import OrderedDict
from collections.abc import Callable, Sequence

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

QUIT_S = 5.0  # a dashboard detaches in well under a second; this is for one that hangs
GRACE_S = 3.0  # after SIGTERM, as the host gives a session's processes
CLAIM_S = 30.0  # a served page's script connects within a second or two
HELD_MAX = 1 << 20  # bytes kept for a page that has not connected yet (a few KB are the first frame)
FRAME_BYTES = 100  # a packet this large is a frame, not the driver's opening modes (as textual.js reads it)
NOT_TO_THE_TAB = ("TMUX", "TMUX_PANE")  # the tab's terminal is the browser: a copy must not go to our tmux
SAID_BYTES = 4096  # the end of a dashboard's stderr kept for its page (a traceback's last lines)
SAID_LINES = 3
TICKETS_KEPT = 32  # tabs whose page may still ask why they closed


def _size(value: object, default: int) -> int:
    try:
        return max(1, min(1000, int(str(value))))
    except ValueError:
        return default


class Tab(AppService):
    """One tab's app process (``argv``); its output goes to the tab's WebSocket once it is bound, and is held
    until then."""

    def __init__(self, argv: Sequence[str], downloads: DownloadManager) -> None:
        super().__init__(shlex.join(argv), write_bytes=self._send_bytes, write_str=self._send_str, close=self._close,
                         download_manager=downloads)
        self.argv = list(argv)
        self.websocket: web.WebSocketResponse | None = None
        self._held: list[bytes | str] = []
        self._held_bytes = 0
        self.started = asyncio.Event()  # its process runs (or could not be started: then closed is set too)
        self.closed = asyncio.Event()  # the app said it exited, or held too much for a page that never came
        # Its first frame is drawn. Textual's web driver posts a size or a quit it reads before its app is
        # ready from its input thread, unsafely: the app then hangs (and ignores SIGTERM). So neither is
        # sent before this.
        self.drawn = asyncio.Event()
        self.why: str | None = None  # why it ended on its own, when that was a failure (see the module's doc)
        self._said = b""
        self._hearing: asyncio.Future[None] | None = None
        self._asked = False  # the quit was sent: an end after it is the tab's closing, no failure

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def bind(self, websocket: web.WebSocketResponse, width: int, height: int) -> None:
        """The page connected: what the app wrote so far, then everything live, at the page's size."""
        await self.started.wait()
        if self._process is None:
            return
        await self._until_drawn(or_ended=True)
        if self.closed.is_set():  # it ended before it drew: the page closes, and asks why
            await websocket.close()
            return
        for item in self._held:
            await (websocket.send_bytes(item) if isinstance(item, bytes) else websocket.send_str(item))
        self._held.clear()
        self.websocket = websocket
        await self.set_terminal_size(width, height)

    async def _send_bytes(self, data: bytes) -> None:
        await self._send(data)

    async def _send_str(self, data: str) -> None:
        await self._send(data)

    async def _until_drawn(self, or_ended: bool = False) -> None:
        """Until its first frame (or, ``or_ended``, its end), or :data:`QUIT_S`."""
        events = (self.drawn, self.closed) if or_ended else (self.drawn,)
        waits = [asyncio.ensure_future(event.wait()) for event in events]
        try:
            await asyncio.wait(waits, timeout=QUIT_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()

    async def _send(self, data: bytes | str) -> None:
        if isinstance(data, bytes) and len(data) > FRAME_BYTES:
            self.drawn.set()
        if self.websocket is not None:
            # Once the tab has gone, the app's output is read and dropped: an app that cannot write blocks,
            # and could then neither hear the quit nor handle SIGTERM.
            if not self.websocket.closed:
                try:
                    await (self.websocket.send_bytes(data) if isinstance(data, bytes)
                           else self.websocket.send_str(data))
                except ConnectionError:
                    pass
            return
        self._held.append(data)
        self._held_bytes += len(data)
        if self._held_bytes > HELD_MAX:
            self.closed.set()

    async def _close(self) -> None:
        """The app said it exited, or its output ended: its process is exiting. Its last words first, so the
        page that sees its WebSocket close can ask for them. The WebSocket is closed by the tab's end
        (``Tabs._run``), not here: this runs in the task that reads the app, which the end waits for."""
        if not self._asked and self._process is not None:
            for pending in (self._hearing, self._process.wait()):
                if pending is not None:
                    try:
                        await asyncio.wait_for(asyncio.shield(pending), GRACE_S)
                    except TimeoutError:
                        pass
            status = self._process.returncode
            if status != 0 or not self.drawn.is_set():
                self.why = _why(status, self._said)
        self.closed.set()

    async def run(self) -> None:
        """textual-serve's reading of the app, and its end when the app never said it exited (it failed
        before Textual started, or died)."""
        try:
            await super().run()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            # not this task's: an app that ends at once has textual-serve cancel its stderr reader before that
            # ran, and await it, which raises the reader's CancelledError here
        finally:
            if not self.closed.is_set():
                await self._close()

    async def _hear(self, stderr: asyncio.StreamReader) -> None:
        """Keep the end of the app's stderr (textual-serve would copy it to the server's stdout)."""
        while chunk := await stderr.read(SAID_BYTES):
            self._said = (self._said + chunk)[-SAID_BYTES:]

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width, height)
        for name in NOT_TO_THE_TAB:
            env.pop(name, None)
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width, height), start_new_session=True)
        assert process.stderr is not None
        self._hearing = asyncio.ensure_future(self._hear(process.stderr))
        process.stderr = silent = asyncio.StreamReader()  # what AppService reads: we heard it already
        silent.feed_eof()
        self._process, self._stdin = process, process.stdin
        return process

    async def end(self) -> int | None:
        """Ask the app to quit, wait for its process, terminate its group if it lingers; its exit status."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            await self._until_drawn()
            self._asked = True
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
        if self._hearing is not None:
            self._hearing.cancel()
        return process.returncode


def _why(status: int | None, said: bytes) -> str:
    """A failed dashboard's end in words: its status and the last lines it wrote to stderr."""
    lines = [line.strip() for line in said.decode("utf-8", "replace").splitlines() if line.strip()]
    how = f"exited with status {status}" if status is not None and status >= 0 else (
        f"was ended by signal {-status}" if status is not None else "ended")
    return f"The dashboard {how}" + (": " + " ".join(lines[-SAID_LINES:]) if lines else ".")


class Tabs:
    """The tabs' app processes, at most ``limit``; one counts from its page's start until its process is gone.

    Args:
        argv: the command each tab runs (``openclaw-tui attach``).
        limit: ``--max-tabs``.
        log: one line per tab opened and closed.
    """

    def __init__(self, argv: Sequence[str], limit: int, log: Callable[[str], None]) -> None:
        self.argv, self.limit, self.log = list(argv), limit, log
        self.open: set[Tab] = set()
        self._unclaimed: dict[str, Tab] = {}
        self._tickets: OrderedDict[str, Tab] = OrderedDict()  # recent tabs, for their pages' ``why``
        self._opened = 0
        self._freed = asyncio.Event()
        self._running: set[asyncio.Task[None]] = set()
        self._downloads = DownloadManager()

    @property
    def full(self) -> bool:
        return len(self.open) >= self.limit

    async def room(self, within: float) -> bool:
        """Whether a tab may open, waiting up to ``within`` seconds for one to close (a reloaded page asks for
        its new dashboard before its old one has gone)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while self.full and loop.time() < deadline:
            self._freed.clear()
            try:
                await asyncio.wait_for(self._freed.wait(), deadline - loop.time())
            except TimeoutError:
                break
        return not self.full

    async def start(self, remote: str | None, width: int = 80, height: int = 24) -> str:
        """A tab's dashboard, started for a page being served; the ticket its WebSocket claims it by."""
        tab = Tab(self.argv, self._downloads)
        self.open.add(tab)
        self._opened += 1
        number = self._opened
        ticket = secrets.token_urlsafe(16)
        self._unclaimed[ticket] = self._tickets[ticket] = tab
        while len(self._tickets) > TICKETS_KEPT:
            self._tickets.popitem(last=False)
        task = asyncio.get_running_loop().create_task(self._run(tab, number, ticket, remote, width, height))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return ticket

    async def _run(self, tab: Tab, number: int, ticket: str, remote: str | None, width: int, height: int) -> None:
        try:
            try:
                await tab.start(width, height)
            except OSError as exc:
                tab.why = f"The dashboard could not start: {exc}"
                self.log(f"tab {number} could not start {tab.argv[0]}: {exc}")
                tab.closed.set()
                return
            finally:
                tab.started.set()
            self.log(f"tab {number} opened for {remote} (pid {tab.pid}; {len(self.open)} of {self.limit} open)")
            try:
                await asyncio.wait_for(tab.closed.wait(), CLAIM_S)
            except TimeoutError:
                if ticket in self._unclaimed:
                    self.log(f"tab {number}: its page never connected")
                else:
                    await tab.closed.wait()  # the WebSocket's end, or the app's exit, sets it
        finally:
            self._unclaimed.pop(ticket, None)
            status = await tab.end()
            self.open.discard(tab)
            self._freed.set()
            self.log(f"tab {number} closed (its dashboard exited with {status}; {len(self.open)} of "
                     f"{self.limit} open)" + (f": {tab.why}" if tab.why else ""))
            if tab.websocket is not None:
                try:
                    await asyncio.wait_for(tab.websocket.close(), GRACE_S)
                except TimeoutError:
                    pass  # a page that never answers the close: its connection is dropped

    async def serve(self, request: web.Request, ticket: str) -> web.StreamResponse:
        """A tab's WebSocket, claiming the dashboard its page started (the gate checked token and Origin)."""
        tab = self._unclaimed.pop(ticket, None)
        if tab is None:
            raise web.HTTPNotFound(text="this page's dashboard is gone: reload the page")
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        try:
            await tab.bind(websocket, _size(request.query.get("width"), 80), _size(request.query.get("height"), 24))
            await self._relay(websocket, tab)
        finally:
            tab.closed.set()  # the tab closed: its dashboard ends (see _run)
        return websocket

    def why(self, ticket: str) -> str | None:
        """Why the tab ``ticket`` names ended on its own, if it failed (None while it runs, or when it
        closed as tabs do)."""
        tab = self._tickets.get(ticket)
        return tab.why if tab is not None else None

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
        for tab in list(self.open):
            tab.closed.set()
        await asyncio.gather(*list(self._running), return_exceptions=True)
