"""One frame clock for every terminal view of an app, so four tiles cost what one view costs.

The clock ticks at most ``FPS`` times a second whatever the number of views, and only while one of them has
something to draw (an idle dashboard never wakes, PERF P8). A tick gives each waiting view its share of one
frame's parse budget, so three flooding tiles together parse what one flooding view would, and the loop keeps
its time for keystrokes and painting (PERF P2, P3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from textual.app import App
from textual.timer import Timer

FPS = 40  # frame cap; headroom above the 30 paints/s the dashboard must keep during a flood
BUDGET_MS = 8.0  # parse time per frame, shared by the views that have output waiting


class Framed(Protocol):
    def frame(self, budget_ms: float) -> bool:
        """Draw what waits within ``budget_ms`` of parsing; True if more still waits (call again next tick)."""
        ...


_CLOCKS: WeakKeyDictionary[App[Any], FrameClock] = WeakKeyDictionary()


class FrameClock:
    """Calls :meth:`Framed.frame` of each view that said it has something to draw, once per tick."""

    def __init__(self, schedule: Callable[[float, Callable[[], None]], Timer]) -> None:
        self._timer = schedule(1 / FPS, self._tick)
        self._timer.pause()
        self._waiting: dict[Framed, None] = {}  # in the order they asked, without repeats

    @classmethod
    def of(cls, app: App[Any]) -> FrameClock:
        """The app's clock, made on first use."""
        clock = _CLOCKS.get(app)
        if clock is None:
            clock = _CLOCKS[app] = cls(lambda every, tick: app.set_interval(every, tick, pause=True))
        return clock

    def wake(self, view: Framed) -> None:
        """``view`` has something to draw: tick until it says it is done."""
        self._waiting[view] = None
        self._timer.resume()

    def forget(self, view: Framed) -> None:
        self._waiting.pop(view, None)

    def _tick(self) -> None:
        if not self._waiting:
            self._timer.pause()
            return
        views = list(self._waiting)
        share = BUDGET_MS / len(views)
        for view in views:
            if not view.frame(share):
                self._waiting.pop(view, None)
