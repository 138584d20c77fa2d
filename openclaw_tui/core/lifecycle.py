"""Ending a session's processes, and proving they are gone.

Every session runs in its own process group and session (its leader calls ``setsid``), so everything it
started without escaping on purpose shares that group or session id. Ending it is: SIGTERM to all of
them, a grace period, SIGKILL to whatever is left, then scanning ``/proc`` until the OS shows none
remain. A closed pipe or a reaped leader proves nothing about descendants, so only the scan counts; if
it cannot confirm extinction the caller reports the cleanup as uncertain instead of clean.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time

POLL_S = 0.02
CONFIRM_AFTER_KILL_S = 2.0


def _stat_fields(pid: int) -> tuple[str, int, int] | None:
    """``(state, pgrp, session)`` of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2 :].split()
    return rest[0].decode(), int(rest[2]), int(rest[3])


def members(pgid: int) -> list[int]:
    """Live (non-zombie) processes in process group ``pgid`` or in the session it leads."""
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(int(entry))
        if fields is None:
            continue
        state, pgrp, sid = fields
        if state in ("Z", "X"):
            continue  # dead, only waiting for its parent to reap it
        if pgrp == pgid or sid == pgid:
            found.append(int(entry))
    return found


def group_alive(pgid: int) -> bool:
    """Cheap first check (one syscall) before the /proc scan."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return bool(members(pgid))  # members in the session may sit in other groups
    except PermissionError:
        return True
    return bool(members(pgid))


def signal_all(pgid: int, sig: int) -> None:
    """Send ``sig`` to the group and to any process of the session that moved to another group."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in members(pgid):
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


async def _gone_within(pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        if not await asyncio.to_thread(group_alive, pgid):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(POLL_S)


async def terminate_group(pgid: int, grace_s: float) -> bool:
    """SIGTERM, wait up to ``grace_s``, SIGKILL, then wait for the OS to confirm. True when confirmed."""
    if not await asyncio.to_thread(group_alive, pgid):
        return True
    await asyncio.to_thread(signal_all, pgid, signal.SIGTERM)
    if await _gone_within(pgid, grace_s):
        return True
    await asyncio.to_thread(signal_all, pgid, signal.SIGKILL)
    return await _gone_within(pgid, CONFIRM_AFTER_KILL_S)


def kill_group_now(pgid: int) -> None:
    """Last resort for a host that is exiting without a loop: SIGKILL everything at once."""
    signal_all(pgid, signal.SIGKILL)
