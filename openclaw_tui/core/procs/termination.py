"""Ending a session's processes, and proving they are gone: SIGTERM, a grace period, SIGKILL, then looking
until the OS shows none remain.

Concurrent waiters share one scan of ``/proc``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from . import proctable

POLL_S = 0.02
CONFIRM_AFTER_KILL_S = 2.0

Table = dict[int, list[int]]  # process group or session id -> live pids in it
Finder = Callable[[], Awaitable[list[int]]]  # the live members of what is being ended, freshly looked up
Sender = Callable[[list[int], int], None]  # send a signal to those members (and to what contains them)
T = TypeVar("T")


def scan() -> Table:
    """Live (non-zombie) processes by process group and by session."""
    table: Table = {}
    for pid in proctable.pids():
        proc = proctable.read(pid)
        if proc is None or not proc.live:
            continue  # gone, or dead and only waiting for its parent to reap it
        table.setdefault(proc.pgrp, []).append(pid)
        if proc.sid != proc.pgrp:
            table.setdefault(proc.sid, []).append(pid)
    return table


def members(pgid: int, table: Table | None = None) -> list[int]:
    """Live processes in process group ``pgid`` or in the session it leads."""
    return sorted(set((table if table is not None else scan()).get(pgid, [])))


class SharedScan(Generic[T]):
    """Hands every waiter a result of ``fn`` (run in a thread) that started after it asked, running as
    few as possible."""

    def __init__(self, fn: Callable[[], T]) -> None:
        self._fn = fn
        self._task: asyncio.Future[T] | None = None
        self._started = 0.0

    async def fresh(self) -> T:
        asked = time.monotonic()
        while True:
            task = self._task
            if task is not None and self._started >= asked:
                return await asyncio.shield(task)
            if task is None or task.done():
                self._started = time.monotonic()
                self._task = asyncio.ensure_future(asyncio.to_thread(self._fn))
                continue
            try:
                await asyncio.shield(task)  # started before we asked: wait, then take the next one
            except Exception:
                pass


_shared: dict[tuple[asyncio.AbstractEventLoop, object], SharedScan[object]] = {}


async def shared(fn: Callable[[], T]) -> T:
    """A fresh result of the scan ``fn``, shared with concurrent callers on this loop."""
    key = (asyncio.get_running_loop(), fn)
    if key not in _shared:
        for old in [k for k in _shared if k[0] is not key[0]]:
            del _shared[old]  # one loop at a time in practice; drop scans of loops that are gone
        _shared[key] = SharedScan(fn)
    result: T = await _shared[key].fresh()  # type: ignore[assignment]
    return result


async def fresh_table() -> Table:
    return await shared(scan)


def signal_all(pgid: int, sig: int, table: Table) -> None:
    """Send ``sig`` to the group and to any process of the session that moved to another group."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    signal_pids(members(pgid, table), sig)


def signal_pids(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


async def _gone_within(find: Finder, seconds: float) -> bool:
    """Look until ``find`` finds nothing (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while True:
        if not await find():
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(POLL_S)


async def end_members(find: Finder, send: Sender, grace_s: float) -> list[int]:
    """SIGTERM, up to ``grace_s`` to go, then SIGKILL (repeated for anything new) until the OS shows none
    left or the confirmation time runs out; returns what is still there (empty: confirmed)."""
    pids = await find()
    if not pids:
        return []
    send(pids, signal.SIGTERM)
    if await _gone_within(find, grace_s):
        return []
    deadline = time.monotonic() + CONFIRM_AFTER_KILL_S
    while True:
        pids = await find()
        if not pids:
            return []
        if time.monotonic() >= deadline:
            return pids
        send(pids, signal.SIGKILL)
        await asyncio.sleep(POLL_S)


def holders(links: set[str], exclude: int) -> list[int]:
    """Live processes other than ``exclude`` with a file descriptor open on one of ``links`` (fd link
    targets as ``/proc`` shows them). Reads every process's fd table: for the rare case it is needed."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == exclude:
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
            if any(_link(f"/proc/{entry}/fd/{fd}") in links for fd in fds):
                found.append(int(entry))
        except OSError:
            continue
    return [pid for pid in found if proctable.start_time(pid) is not None]


def _link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


async def terminate_pids(pids: list[int], grace_s: float) -> list[int]:
    """SIGTERM, grace, SIGKILL for processes outside anything we contain; returns those still alive."""

    async def find() -> list[int]:
        return [pid for pid in pids if proctable.start_time(pid) is not None]

    return await end_members(find, signal_pids, grace_s)


async def terminate_group(pgid: int, grace_s: float) -> list[int]:
    """End a process group and the session it leads; returns what is left (empty: confirmed)."""

    async def find() -> list[int]:
        return members(pgid, await fresh_table())

    return await end_members(find, lambda pids, sig: signal_all(pgid, sig, {pgid: pids}), grace_s)
