"""The page's title, from the host: how many sessions wait for input and how many exec approvals wait for the
operator, so a tab in the background says when someone is needed.

One mirror of the host (never an approver: it answers nothing) serves every tab through ``/title``, a stream
of server-sent events, one title per change.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from aiohttp import web

from openclaw_tui.core.session import EventKind

if TYPE_CHECKING:
    from openclaw_tui.core.session import Event

    from ..mirror import HostView

NAME = "openclaw-tui"
RECOUNT_S = 1.0  # a wait by the idle rule begins without an event of its own


def title_for(waiting: int, approvals: int) -> str:
    """``◆ 2 waiting · 1 to approve · openclaw-tui``: the counts first, where a narrow tab still shows them."""
    counts = ([f"◆ {waiting} waiting"] if waiting else []) + ([f"{approvals} to approve"] if approvals else [])
    return " · ".join([*counts, NAME])


class TitleFeed:
    """The current title of ``host`` and the streams that follow it."""

    def __init__(self, host: HostView) -> None:
        self.host = host
        self.title = NAME
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe = host.subscribe(self._on_event)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._recount_every())

    async def close(self) -> None:
        self._unsubscribe()
        if self._task is not None:
            self._task.cancel()
        self._changed.set()  # the streams end

    def _on_event(self, event: Event) -> None:
        if event.kind != EventKind.OUTPUT:
            self.recount()

    def recount(self) -> None:
        waiting = sum(1 for s in self.host.sessions() if s.waiting_for_input)
        title = title_for(waiting, len(self.host.pending_approvals()))
        if title != self.title:
            self.title = title
            self._changed.set()
            self._changed = asyncio.Event()

    async def _recount_every(self) -> None:
        while True:
            await asyncio.sleep(RECOUNT_S)
            self.recount()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """``/title``: the title now, then each new one, until the page goes."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        try:
            while self._task is not None and not self._task.done():
                changed = self._changed
                await response.write(f"data: {self.title}\n\n".encode())
                await changed.wait()
        except ConnectionError:  # the page went: its next write found the connection closed
            pass
        return response
