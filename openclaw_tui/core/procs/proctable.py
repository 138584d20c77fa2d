"""Processes as ``/proc`` shows them: identity (pid + start time), family, and the session marker."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

MARKER = "OPENCLAW_TUI_SESSION"
_MARKER_KEY = MARKER.encode() + b"="


@dataclass(frozen=True, slots=True)
class Proc:
    """One process: ``state`` is the one-letter ``stat`` state (``Z`` for a zombie)."""

    pid: int
    ppid: int
    pgrp: int
    sid: int
    start: int
    state: str
    marker: str | None = None

    @property
    def live(self) -> bool:
        return self.state not in ("Z", "X")


def read(pid: int, with_marker: bool = False) -> Proc | None:
    """The process now, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2 :].split()
    if len(rest) < 20:
        return None
    marker = marker_of(pid) if with_marker else None
    return Proc(pid, int(rest[1]), int(rest[2]), int(rest[3]), int(rest[19]), rest[0].decode(), marker)


def marker_of(pid: int) -> str | None:
    """The session marker in the process's environment (as it was at exec), if it has one."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            env = fh.read()
    except OSError:
        return None
    at = env.find(_MARKER_KEY)
    while at > 0 and env[at - 1] != 0:  # only at the start of an entry
        at = env.find(_MARKER_KEY, at + 1)
    if at < 0:
        return None
    end = env.find(b"\0", at)
    return env[at + len(_MARKER_KEY) : end if end >= 0 else len(env)].decode(errors="replace")


def pids() -> list[int]:
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def snapshot(with_markers: bool) -> dict[int, Proc]:
    """Every process (blocking: a few ms per thousand processes; call off the event loop)."""
    table = {}
    for pid in pids():
        proc = read(pid, with_markers)
        if proc is not None:
            table[pid] = proc
    return table


def start_time(pid: int) -> int | None:
    proc = read(pid)
    return proc.start if proc is not None and proc.live else None


def same(pid: int, start: int) -> bool:
    """Whether ``pid`` is still the process that started at ``start`` (and is not a zombie)."""
    return start_time(pid) == start


def signal_exact(pid: int, start: int, sig: int) -> bool:
    """Send ``sig`` to the process ``(pid, start)`` only; False when it is gone (or the pid is reused)."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return False
    try:
        if not same(pid, start):  # checked after the pidfd pins the process: no reuse in between
            return False
        signal.pidfd_send_signal(fd, sig)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def children_of(pid: int) -> list[int]:
    """Direct children of every thread of ``pid`` (``/proc/<pid>/task/*/children``)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as fh:
                found += [int(c) for c in fh.read().split()]
        except OSError:
            continue
    return found


def ancestry(pid: int, limit: int = 64) -> list[Proc]:
    """The process and its ancestors, nearest first (stops at pid 1 or after ``limit`` steps)."""
    chain: list[Proc] = []
    while pid > 1 and len(chain) < limit:
        proc = read(pid, with_marker=True)
        if proc is None:
            break
        chain.append(proc)
        pid = proc.ppid
    return chain
