"""``openclaw-tui web``'s server: an aiohttp application of its own around textual-serve's client and app
protocol, behind the gate (``webgate``), until a signal ends it.

It listens first and says where (the one line with the token), then mirrors the host for the title; a tab
waits for that mirror, so its dashboard never looks for a host that is still starting.
"""

from __future__ import annotations

import asyncio
import signal
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import textual_serve
from aiohttp import web

from ..wire import find_host, host_opener
from .apptabs import Tabs
from .pagehtml import page
from .titlefeed import TitleFeed
from .webgate import WebGate, add_security_headers, refusal_page
from .webstart import log

if TYPE_CHECKING:
    import socket

    from ..mirror import RemoteHost

ASSETS = Path(__file__).with_name("assets")
ROOM_S = 3.0  # how long a page waits for a closing tab's place (a reload asks before its old page goes)
SHUTDOWN_S = 3.0  # at stop, for what handlers still run (a page's title stream may wait for a host that never came)
CLIENT = Path(textual_serve.__file__).with_name("static")  # textual.js, xterm.css and the fonts


@dataclass(frozen=True)
class WebOptions:
    """What ``openclaw-tui web`` was asked for (checked by the command before it gets here)."""

    token: str
    bind: str = "127.0.0.1"
    port: int = 8765
    max_tabs: int = 4
    tls: ssl.SSLContext | None = None
    config_path: str | None = None
    tab_argv: Sequence[str] = ()


class WebServer:
    """The routes: the page, the tabs' WebSocket, the title stream and the client's files."""

    def __init__(self, options: WebOptions, port: int, say: Callable[[str], None] = log) -> None:
        self.options = options
        self.gate = WebGate(options.token, port, options.tls is not None, say)
        self.tabs = Tabs(options.tab_argv, options.max_tabs, say)
        self.feed: TitleFeed | None = None
        self.serving = asyncio.Event()  # a host serves the socket: a tab's dashboard may look for it
        self.ready = asyncio.Event()  # the host answers and its mirror (the title's) is made
        self.app = web.Application(middlewares=[self.gate.middleware])
        self.app.on_response_prepare.append(add_security_headers)
        self.app.add_routes([web.get("/", self.index, allow_head=False), web.get("/ws", self.websocket),
                             web.get("/ws/{ticket}", self.claim), web.get("/title", self.title),
                             web.get("/why/{ticket}", self.why),
                             web.static("/static", CLIENT), web.static("/assets", ASSETS)])

    def _full(self, request: web.Request) -> web.Response:
        limit = self.options.max_tabs
        self.gate.refuse(request, 503, f"{limit} tabs already open")
        return refusal_page(503, "openclaw-tui: too many tabs",
                            f"{limit} tabs already show the dashboard, as many as `openclaw-tui web --max-tabs "
                            f"{limit}` allows: close one of them and reload this page.")

    async def index(self, request: web.Request) -> web.Response:
        """The page, and its dashboard started at once (see ``apptabs``)."""
        if not await self.tabs.room(ROOM_S):
            return self._full(request)
        await self.serving.wait()
        ticket = await self.tabs.start(request.remote)
        text = page(request.host, self.options.tls is not None, ticket, request.query.get("fontsize"))
        return web.Response(text=text, content_type="text/html")

    async def claim(self, request: web.Request) -> web.StreamResponse:
        return await self.tabs.serve(request, request.match_info["ticket"])

    async def why(self, request: web.Request) -> web.Response:
        """Why a page's dashboard ended, when it failed (204 when it did not, or is unknown)."""
        said = self.tabs.why(request.match_info["ticket"])
        return web.Response(text=said) if said else web.Response(status=204)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """A WebSocket with no page before it (a client of its own): its dashboard starts now."""
        if not await self.tabs.room(ROOM_S):
            return self._full(request)
        await self.serving.wait()
        return await self.tabs.serve(request, await self.tabs.start(request.remote))

    async def title(self, request: web.Request) -> web.StreamResponse:
        await self.ready.wait()
        assert self.feed is not None
        return await self.feed.stream(request)

    async def mirror_host(self) -> None:
        """The host's mirror for the title (its import, the heavier part, in a thread while pages load). A
        host that serves already lets tabs start at once; one being started first, once it answers."""
        def load() -> type[RemoteHost]:
            from ..mirror import RemoteHost

            return RemoteHost

        loading = asyncio.ensure_future(asyncio.to_thread(load))
        opener = host_opener(self.options.config_path, True, "openclaw-tui web")
        if await asyncio.to_thread(find_host) is not None:
            self.serving.set()
        host = (await loading)(opener=opener, approver=False)
        await host.link.first()
        self.serving.set()
        self.feed = TitleFeed(host)
        self.feed.start()
        self.ready.set()

    async def close(self) -> None:
        await self.tabs.close_all()
        if self.feed is not None:
            await self.feed.close()
            await self.feed.host.close()


async def serve_web(options: WebOptions, sock: socket.socket) -> int:
    """Serve on ``sock`` until SIGINT/SIGTERM/SIGHUP; 2 when no host can be reached."""
    port = sock.getsockname()[1]
    server = WebServer(options, port)
    runner = web.AppRunner(server.app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_S)
    await runner.setup()
    await web.SockSite(runner, sock, ssl_context=options.tls).start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    mirrored = asyncio.ensure_future(server.mirror_host())
    stopped = asyncio.ensure_future(stop.wait())
    status = 0
    try:
        await asyncio.wait({mirrored, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if mirrored.done() and mirrored.exception() is not None:
            log(f"no host to show: {mirrored.exception()}")
            status = 2
        else:
            await stopped
    finally:
        mirrored.cancel()
        stopped.cancel()
        await server.close()
        await runner.cleanup()
    log("stopped; the sessions go on running on the host")
    return status
