"""Ending a session's processes, and proving they are gone.

Every session runs in its own process group and session (its leader calls ``setsid``), so everything it
started without escaping on purpose shares that group or session id. Ending it is: SIGTERM to all of
them, a grace period, SIGKILL to whatever is left, then scanning ``/proc`` until the OS shows none
remain. A closed pipe or a reaped leader proves nothing about descendants, so only the scan counts; if
it cannot confirm extinction the caller reports the cleanup as uncertain instead of clean.

A scan reads every process's ``stat`` file, so concurrent waiters (a host closing 1000 sessions) share
one scan instead of each doing their own: a waiter takes the first scan that *started* after it asked,
which keeps the answer as fresh as a private scan would be.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable

POLL_S = 0.02
CONFIRM_AFTER_KILL_S = 2.0

Table = dict[int, list[int]]  # process group or session id -> live pids in it


def _stat_fields(pid: int) -> tuple[str, int, int] | None:
    """``(state, pgrp, session)`` of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2 :].split()
    return rest[0].decode(), int(rest[2]), int(rest[3])


def scan() -> Table:
    """Live (non-zombie) processes by process group and by session."""
    table: Table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(int(entry))
        if fields is None or fields[0] in ("Z", "X"):
            continue  # gone, or dead and only waiting for its parent to reap it
        pid, (_, pgrp, sid) = int(entry), fields
        table.setdefault(pgrp, []).append(pid)
        if sid != pgrp:
            table.setdefault(sid, []).append(pid)
    return table


def members(pgid: int, table: Table | None = None) -> list[int]:
    """Live processes in process group ``pgid`` or in the session it leads."""
    return sorted(set((table if table is not None else scan()).get(pgid, [])))


class _SharedScan:
    """Hands every waiter a scan that started after it asked, running as few scans as possible."""

    def __init__(self) -> None:
        self._task: asyncio.Task[Table] | None = None
        self._started = 0.0

    async def fresh(self) -> Table:
        asked = time.monotonic()
        while True:
            task = self._task
            if task is not None and self._started >= asked:
                return await asyncio.shield(task)
            if task is None or task.done():
                self._started = time.monotonic()
                self._task = asyncio.ensure_future(asyncio.to_thread(scan))
                continue
            try:
                await asyncio.shield(task)  # started before we asked: wait, then take the next one
            except Exception:
                pass


_shared: dict[asyncio.AbstractEventLoop, _SharedScan] = {}


async def fresh_table() -> Table:
    loop = asyncio.get_running_loop()
    if loop not in _shared:
        _shared.clear()  # one loop at a time in practice; drop scans of loops that are gone
        _shared[loop] = _SharedScan()
    return await _shared[loop].fresh()


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


async def group_alive(pgid: int) -> bool:
    return bool(members(pgid, await fresh_table()))


async def _gone_within(alive: Callable[[], Awaitable[bool]], seconds: float) -> bool:
    """Poll ``alive`` until it says no (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while True:
        if not await alive():
            return True
        if time.monotonic() >= deadline:
            return False
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
    return [pid for pid in found if _alive(pid)]


def _link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


async def terminate_pids(pids: list[int], grace_s: float) -> bool:
    """SIGTERM, grace, SIGKILL for processes outside any group we own; True once none is alive."""

    async def alive() -> bool:
        return any(_alive(pid) for pid in pids)

    signal_pids(pids, signal.SIGTERM)
    if await _gone_within(alive, grace_s):
        return True
    signal_pids(pids, signal.SIGKILL)
    return await _gone_within(alive, CONFIRM_AFTER_KILL_S)


async def terminate_group(pgid: int, grace_s: float) -> bool:
    """SIGTERM, wait up to ``grace_s``, SIGKILL, then wait for the OS to confirm. True when confirmed."""
    table = await fresh_table()
    if not members(pgid, table):
        return True
    signal_all(pgid, signal.SIGTERM, table)
    if await _gone_within(lambda: group_alive(pgid), grace_s):
        return True
    signal_all(pgid, signal.SIGKILL, await fresh_table())
    return await _gone_within(lambda: group_alive(pgid), CONFIRM_AFTER_KILL_S)
