"""The on-disk record of a host's live gateway sessions, and the sweep a new host makes of dead hosts'
records.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..procs import cgroups, proctable
from . import leftovers

log = logging.getLogger(__name__)
WATCHDOG_ENDED = "watchdogEnded"


def state_dir(configured: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The configured directory, else ``$XDG_STATE_HOME/openclaw-tui``, else ``~/.local/state/openclaw-tui``."""
    if configured:
        return Path(os.path.expanduser(configured))
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "openclaw-tui"


class LiveRecord:
    """This host's record; every change rewrites the file."""

    def __init__(self, directory: Path, host_id: str) -> None:
        self.path = directory / "live" / f"{host_id}.json"
        self.data: dict[str, Any] = {"version": 1, "id": host_id, "host": leftovers.this_process(),
                                     "sessions": {}}
        self._warned = False
        self._pending: asyncio.Handle | None = None

    def update(self, **fields: Any) -> None:
        self.data.update(fields)
        self._write()

    def add(self, session_id: str, entry: Mapping[str, Any]) -> None:
        self.data["sessions"][session_id] = dict(entry)
        self._soon()

    def drop(self, session_id: str) -> None:
        if self.data["sessions"].pop(session_id, None) is not None:
            self._soon()

    def remove(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        try:
            self.path.unlink()
        except OSError:
            pass

    def _soon(self) -> None:
        if self._pending is None:
            self._pending = asyncio.get_running_loop().call_soon(self._write)

    def _write(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        tmp = self.path.with_suffix(".tmp")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self.data), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                log.warning("openclaw-tui: cannot keep the record of live sessions at %s: %s", self.path, exc)


@dataclass
class Swept:
    """What was left of one dead host, and what became of it."""

    host_pid: int
    host_id: str
    sessions: list[str]
    ended: list[tuple[int, str]] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    by_watchdog: list[tuple[int, str]] = field(default_factory=list)

    def describe(self) -> str:
        """One line for an operator (``serve`` prints it; embedded hosts log it)."""
        parts = [f"a previous host (pid {self.host_pid}) died"]
        if self.sessions:
            parts.append(f"with sessions {', '.join(self.sessions)} running")
        text = " ".join(parts)
        if self.by_watchdog:
            text += f"; its watchdog ended {_listed(self.by_watchdog)}"
        text += f"; this host ended {_listed(self.ended)}" if self.ended else "; nothing was left for this host to end"
        if self.left:
            text += f"; STILL RUNNING (could not be ended): pids {', '.join(map(str, self.left))}"
        return text


def _listed(procs: list[tuple[int, str]]) -> str:
    shown = ", ".join(f"{pid} ({cmd[:40] or '?'})" for pid, cmd in procs[:5])
    more = f" and {len(procs) - 5} more" if len(procs) > 5 else ""
    return f"{len(procs)} process{'es' if len(procs) != 1 else ''}: {shown}{more}"


def sweep(directory: Path, cgroup_parent: str | None, grace_s: float) -> list[Swept]:
    """End what dead hosts left (blocking: run in a thread). Live hosts' records are left alone."""
    reports = []
    seen: set[str] = set()
    for path in sorted((directory / "live").glob("*.json")):
        record = _load(path)
        if record is None:
            continue
        host = record.get("host", {})
        seen.add(str(record.get("id")))
        if proctable.same(int(host.get("pid", 0)), int(host.get("start", -1))):
            continue  # its host is alive (in this process, or another)
        _await_watchdog(record, grace_s)
        record = _load(path) or record  # the watchdog may have added what it ended
        ended, left = leftovers.end_host(record, grace_s)
        reports.append(Swept(int(host.get("pid", 0)), str(record["id"]), sorted(record.get("sessions", {})),
                             ended, left, [(int(p), str(c)) for p, c in record.get(WATCHDOG_ENDED, [])]))
        path.unlink(missing_ok=True)
    if cgroup_parent is not None:
        reports += _stray_cgroups(cgroup_parent, seen, grace_s)
    return [r for r in reports if r.ended or r.left or r.by_watchdog]


def _load(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and "id" in record else None


def _await_watchdog(record: Mapping[str, Any], grace_s: float) -> None:
    """A dead host's watchdog may still be ending its sessions: let it finish, so nothing is done twice."""
    dog = record.get("watchdog") or {}
    pid, start = int(dog.get("pid", 0)), int(dog.get("start", -1))
    leftovers.wait(lambda: not proctable.same(pid, start), grace_s + leftovers.CONFIRM_S + 1)


def _stray_cgroups(parent: str, recorded: set[str], grace_s: float) -> list[Swept]:
    """Groups of dead hosts that never wrote a record (named ``openclaw-tui.<pid>.<start>.<n>``)."""
    reports = []
    try:
        names = [e.name for e in os.scandir(parent) if e.is_dir() and e.name.startswith(cgroups.PREFIX)]
    except OSError:
        return []
    for name in names:
        host_id = name[len(cgroups.PREFIX):]
        pid, _, rest = host_id.partition(".")
        start = rest.partition(".")[0]
        if host_id in recorded or not (pid.isdigit() and start.isdigit()) or proctable.same(int(pid), int(start)):
            continue
        record = {"id": host_id, "cgroup": os.path.join(parent, name), "sessions": {}}
        ended, left = leftovers.end_host(record, grace_s)
        reports.append(Swept(int(pid), host_id, [], ended, left))
    return reports
