"""Each running session's cost (``details.resources``), read only while someone looks, at most every 2 s.

A dashboard that attends keeps a refresh going; a ``list``, ``poll`` or ``log`` call refreshes what it reads.
The reading is done in a worker thread, one refresh at a time; the loop only hands it the sessions and
takes back their figures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from ..containment import ContainmentKind, Enclosure
from ..procs import Figures, Meter, proctable
from ..session import Session, iso, masked, now_ms

REFRESH_S = 2.0

Job = tuple[Enclosure, Meter, float]


def once(release: Callable[[], None]) -> Callable[[], None]:
    """``release`` as a lease's end: calling it again does nothing (a frontend may leave twice)."""
    done = False

    def end() -> None:
        nonlocal done
        if not done:
            done = True
            release()

    return end


class FigureWatch:
    """The sessions' figures: kept fresh while anyone watches (:meth:`watch`), or on a call's read
    (:meth:`fresh`); ``publish`` hands watchers each refresh's figures, by session id."""

    def __init__(self, sessions: Callable[[], Iterable[Session]],
                 publish: Callable[[dict[str, dict[str, Any]]], None]) -> None:
        self._sessions = sessions
        self._publish = publish
        self._meters: WeakKeyDictionary[Session, Meter] = WeakKeyDictionary()
        self._read_at: WeakKeyDictionary[Session, float] = WeakKeyDictionary()
        self._turn = asyncio.Lock()
        self._watchers = 0
        self._task: asyncio.Task[None] | None = None
        self.loop_s = 0.0
        """Time the last refresh took on the event loop (the reading itself is off it), in seconds."""

    def watch(self) -> Callable[[], None]:
        """Someone looks (a dashboard) until the returned function is called: refresh every 2 s meanwhile."""
        self._watchers += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._keep())
        return once(self._leave)

    def _leave(self) -> None:
        self._watchers -= 1

    @property
    def watched(self) -> bool:
        return self._watchers > 0

    @property
    def refreshing(self) -> bool:
        """Whether the refresh every 2 s runs (it ends at its next turn once nobody watches)."""
        return self._task is not None and not self._task.done()

    async def _keep(self) -> None:
        while self._watchers > 0:
            read = await self.fresh(list(self._sessions()))
            if read:
                self._publish({s.id: s.resources for s in read if s.resources is not None})
            await asyncio.sleep(REFRESH_S)

    async def fresh(self, sessions: Sequence[Session]) -> list[Session]:
        """Read the figures of those ``sessions`` that run and were not read in the last 2 s; the ones read."""
        async with self._turn:
            began = time.monotonic()
            due = [s for s in sessions if s.running and s.run is not None
                   and began - self._read_at.get(s, float("-inf")) >= REFRESH_S]
            if not due:
                return []
            jobs = []
            for session in due:
                assert session.run is not None
                self._read_at[session] = began
                meter = self._meters.setdefault(session, Meter())
                jobs.append((session.run.enclosure, meter, began - session.runtime_ms() / 1000))
            self.loop_s = time.monotonic() - began
            read = await asyncio.to_thread(read_all, jobs)
            back = time.monotonic()
            for session, figures in zip(due, read, strict=True):
                session.resources = as_details(figures)
            self.loop_s += time.monotonic() - back
            return due

    async def close(self) -> None:
        self._watchers = 0
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def read_all(jobs: Sequence[Job]) -> list[Figures]:
    """Every job's figures (blocking), scanning ``/proc`` at most once, and only for sessions without a
    cgroup (with the markers only when a subreaper session needs them)."""
    markers = any(enclosure.kind == ContainmentKind.SUBREAPER for enclosure, _, _ in jobs)
    table: dict[int, proctable.Proc] | None = None

    def scanned() -> dict[int, proctable.Proc]:
        nonlocal table
        if table is None:
            table = proctable.snapshot(with_markers=markers)
        return table

    out = []
    for enclosure, meter, since in jobs:
        try:
            pids = enclosure.held(scanned)
        except OSError:
            pids = []
        out.append(meter.read(pids, enclosure.cgroup, since))
    return out


def as_details(f: Figures) -> dict[str, Any]:
    """``details.resources``: commands masked as a session's name is."""
    return {
        "cpuPercent": f.cpu_percent, "rssBytes": f.rss_bytes, "processes": f.processes,
        "listening": [{"port": p.port, "proto": p.proto, "pid": p.pid, "command": masked(p.command)}
                      for p in f.listening],
        "tree": [{"pid": r.pid, "ppid": r.ppid, "command": masked(r.command), "cpuPercent": r.cpu_percent,
                  "rssBytes": r.rss_bytes, "state": r.state} for r in f.tree],
        "source": f.source, "at": iso(now_ms()),
    }
