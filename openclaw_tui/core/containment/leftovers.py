"""Finding a session's processes without a cgroup, and ending what a dead host left behind.

It imports only the standard library and two modules of ``procs``, so the watchdog can load it without the
rest of the product.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..procs import Proc, cgroups, proctable

POLL_S = 0.02
CONFIRM_S = 2.0


def family(table: Mapping[int, Proc], marked: Callable[[str], bool], groups: Iterable[int]) -> dict[int, int]:
    """Live processes of the family, as ``{pid: start time}``."""
    group_ids = set(groups)
    ours = {
        p.pid for p in table.values()
        if (p.marker is not None and marked(p.marker)) or p.pgrp in group_ids or p.sid in group_ids
    }
    children: dict[int, list[int]] = {}
    for p in table.values():
        children.setdefault(p.ppid, []).append(p.pid)
    stack = list(ours)
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in ours:
                ours.add(child)
                stack.append(child)
    return {pid: table[pid].start for pid in sorted(ours) if table[pid].live}


def trusted_groups(table: Mapping[int, Proc], leaders: Iterable[tuple[int, int]]) -> set[int]:
    """The process groups of leaders ``(pid, start)`` whose number still names their group."""
    out = set()
    for pgid, start in leaders:
        owner = table.get(pgid)
        if owner is None or owner.start == start:
            out.add(pgid)
    return out


def of_host(record: Mapping[str, Any]) -> dict[int, int]:
    """What is left of the host a record describes: ``{pid: start}`` (blocking: scans ``/proc``)."""
    table = proctable.snapshot(with_markers=True)
    prefix = f"{record['id']}/"
    leaders = [(int(s["pgid"]), int(s["start"])) for s in record.get("sessions", {}).values()]
    found = family(table, lambda m: m.startswith(prefix), trusted_groups(table, leaders))
    base = record.get("cgroup")
    if base:
        for pid in cgroups.procs(base):
            if pid in table and table[pid].live:
                found[pid] = table[pid].start
    return found


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return " ".join(fh.read().replace(b"\0", b" ").decode(errors="replace").split())
    except OSError:
        return ""


def end_host(record: Mapping[str, Any], grace_s: float) -> tuple[list[tuple[int, str]], list[int]]:
    """End everything of a dead host (SIGTERM, grace, SIGKILL, its cgroups removed). Returns what was
    found, as ``(pid, command line)``, and the pids still there at the end (none, normally). Blocking: for
    the watchdog and for a thread of the next host."""
    found = of_host(record)
    ended = {pid: command_line(pid) for pid in found}
    base = record.get("cgroup") or None
    left = list(found)
    if found:
        _send(found, signal.SIGTERM)
        wait(lambda: not any(proctable.same(pid, start) for pid, start in found.items()), grace_s)
        deadline = time.monotonic() + CONFIRM_S
        while True:
            now = of_host(record)  # again: anything forked meanwhile is found and ended too
            left = sorted(now)
            if not now or time.monotonic() >= deadline:
                break
            for pid in now:
                ended.setdefault(pid, command_line(pid))
            if base:
                cgroups.kill(base)
            _send(now, signal.SIGKILL)
            time.sleep(POLL_S * 5)
    if base:
        wait(lambda: not cgroups.populated(base), CONFIRM_S)
        cgroups.remove(base)
    return sorted(ended.items()), left


def _send(found: Mapping[int, int], sig: int) -> None:
    for pid, start in found.items():
        proctable.signal_exact(pid, start, sig)


def wait(done: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_S)
    return True


def this_process() -> dict[str, int]:
    """This process as a record names it: pid and start time."""
    return {"pid": os.getpid(), "start": proctable.start_time(os.getpid()) or 0}
