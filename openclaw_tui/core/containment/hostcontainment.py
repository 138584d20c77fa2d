"""A host's containment: how its gateway sessions are held, what outlives a host's death, and who is calling.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from collections.abc import Iterable
from typing import Any

from ..config import ContainmentMode
from ..procs import cgroups, proctable, subreaper
from . import liverecord
from .enclosures import (
    CgroupEnclosure,
    ContainmentKind,
    Enclosure,
    SandboxEnclosure,
    SubreaperEnclosure,
    enclosure_from_json,
    marked_scan,
)
from .leftovers import trusted_groups
from .watchdog import Watchdog

REAP_EVERY_S = 1.0
_numbers = itertools.count(1)
log = logging.getLogger(__name__)


class Containment:
    """One per host. ``kind`` is ``cgroup`` or ``subreaper`` (what gateway sessions get); ``reason`` says why."""

    def __init__(self, mode: ContainmentMode = ContainmentMode.AUTO, state_dir: str | None = None, grace_s: float = 3.0) -> None:
        self.id = f"{os.getpid()}.{proctable.start_time(os.getpid()) or 0}.{next(_numbers)}"
        self.grace_s = grace_s
        self.state_dir = liverecord.state_dir(state_dir)
        self.record = liverecord.LiveRecord(self.state_dir, self.id)
        self._parent: str | None = None
        self.base: str | None = None
        self._inside: str | None = None  # the host's cgroup path as /proc/<pid>/cgroup shows it, plus "/"
        self.kind, self.reason = self._choose(mode)
        self._enclosures: dict[str, Enclosure] = {}
        self._ready = False
        self.watchdog: Watchdog | None = None
        self._reaper: subreaper.Reaper | None = None
        self._reaping: asyncio.Task[None] | None = None

    def _choose(self, mode: ContainmentMode) -> tuple[ContainmentKind, str]:
        try:
            self._parent = cgroups.host_parent()
        except cgroups.Unavailable as exc:
            return ContainmentKind.SUBREAPER, f"no cgroup: {exc}"
        if mode == ContainmentMode.SUBREAPER:
            return ContainmentKind.SUBREAPER, f"host.containment is \"{mode}\" in the configuration"
        return ContainmentKind.CGROUP, f"a cgroup per session under {self._parent}"

    # -- sessions -------------------------------------------------------------------------------
    def enclose(self, session_id: str, sandboxed: bool) -> Enclosure:
        """The container for a session about to be spawned (raises OSError if it cannot be made)."""
        marker = f"{self.id}/{session_id}"
        if sandboxed:
            enclosure: Enclosure = SandboxEnclosure(marker)
        else:
            self._prepare()
            if self.kind == ContainmentKind.CGROUP and self.base is not None:
                enclosure = CgroupEnclosure(marker, os.path.join(self.base, session_id))
            else:
                enclosure = SubreaperEnclosure(marker, marked_scan)
        self._enclosures[session_id] = enclosure
        return enclosure

    def enclosure(self, session_id: str) -> Enclosure | None:
        """The container of a session this host still holds (running, or ended with processes left)."""
        return self._enclosures.get(session_id)

    def started(self, session_id: str, pid: int) -> None:
        enclosure = self._enclosures[session_id]
        enclosure.started(pid)
        if not isinstance(enclosure, SandboxEnclosure):
            self.record.add(session_id, enclosure.describe())

    def ended(self, session_id: str) -> None:
        """The session ended (or never started): free its container unless processes remain in it."""
        enclosure = self._enclosures.get(session_id)
        if enclosure is None or not enclosure.release():
            return  # still holds processes: kept (and recorded) for close, the watchdog or a sweep
        del self._enclosures[session_id]
        self.record.drop(session_id)
        if self._reaper is not None:
            self._reaper.reap()

    def _prepare(self) -> None:
        """With the first gateway session: the host's cgroup (or the subreaper), the watchdog, the record."""
        if self._ready:
            return
        self._ready = True
        if self.kind == ContainmentKind.CGROUP and self._parent is not None:
            base = os.path.join(self._parent, cgroups.PREFIX + self.id)
            try:
                cgroups.make(base)
                if not os.path.exists(os.path.join(base, "cgroup.kill")):
                    os.rmdir(base)
                    raise OSError("it has no cgroup.kill (Linux 5.14 or later is needed)")
                self.base = base
                self._inside = os.path.join(cgroups.own_path() or "/", cgroups.PREFIX + self.id) + "/"
            except OSError as exc:
                self.kind, self.reason = ContainmentKind.SUBREAPER, f"no cgroup: cannot create {base}: {exc}"
        if self.kind == ContainmentKind.SUBREAPER:
            self._start_reaping()
        self.record.update(containment=self.kind, cgroup=self.base, watchdog=None)
        try:
            self.watchdog = Watchdog(self.id, self.base, str(self.record.path), self.grace_s)
            self.record.update(watchdog={"pid": self.watchdog.pid, "start": proctable.start_time(self.watchdog.pid)})
        except OSError as exc:
            log.warning("openclaw-tui: no watchdog (sessions would outlive a killed host): %s", exc)

    def _start_reaping(self) -> None:
        subreaper.acquire()
        self._reaper = subreaper.Reaper(self._adopted, self._groups, self._leaders)
        self._reaping = asyncio.get_running_loop().create_task(self._reap_forever())

    def _adopted(self, proc: proctable.Proc) -> bool:
        return bool(proc.marker and proc.marker.startswith(self.id + "/")) or bool(
            {proc.pgrp, proc.sid} & self._groups())

    def _groups(self) -> set[int]:
        return {e.pid for e in self._enclosures.values() if e.pid}

    def _leaders(self) -> set[int]:
        return self._groups() | ({self.watchdog.pid} if self.watchdog is not None else set())

    async def _reap_forever(self) -> None:
        assert self._reaper is not None
        while True:
            await asyncio.sleep(REAP_EVERY_S)
            self._reaper.reap()

    def force_kill(self) -> None:
        for enclosure in list(self._enclosures.values()):
            enclosure.force_kill()

    async def close(self) -> None:
        """After the host ended its sessions: end anything still held, remove the cgroups, stop the
        watchdog, drop the record, stop being a subreaper."""
        for session_id, enclosure in list(self._enclosures.items()):
            if not isinstance(enclosure, SandboxEnclosure) and await enclosure.members():
                await enclosure.end(self.grace_s)
            self.ended(session_id)
        if self.base is not None and cgroups.remove(self.base):
            self.base = None
        if self.watchdog is not None:
            await self.watchdog.close()
            self.watchdog = None
        if self._ready and not self._enclosures:
            self.record.remove()
        if self._reaping is not None:
            self._reaping.cancel()
            self._reaping = None
        if self._reaper is not None:
            self._reaper.reap()
            self._reaper = None
            subreaper.release()

    # -- a re-exec in place ----------------------------------------------------------------------
    def handover(self) -> dict[str, Any]:
        """Everything the next image of this host needs to go on holding its sessions: the same id (every
        session's marker and cgroup name it), the containers, the live record, and the watchdog, whose pipe
        is kept open across the exec so it sees no end of file."""
        dog = self.watchdog
        return {"id": self.id, "kind": self.kind, "reason": self.reason, "parent": self._parent, "base": self.base,
                "inside": self._inside, "ready": self._ready, "record": self.record.data,
                "enclosures": {sid: e.to_json() for sid, e in self._enclosures.items()},
                "watchdog": None if dog is None else {"pid": dog.pid, "fd": dog.keep_across_exec()}}

    def adopt(self, d: dict[str, Any]) -> None:
        """Go on as the containment :meth:`handover` described (on the loop: a subreaper reaps again)."""
        self.id, self.kind, self.reason = d["id"], ContainmentKind(d["kind"]), d["reason"]
        self._parent, self.base, self._inside, self._ready = d["parent"], d["base"], d["inside"], d["ready"]
        self._enclosures = {sid: enclosure_from_json(e) for sid, e in d["enclosures"].items()}
        self.record = liverecord.LiveRecord(self.state_dir, self.id)
        self.record.data = d["record"]
        if d["watchdog"] is not None:
            self.watchdog = Watchdog.adopt(d["watchdog"]["pid"], d["watchdog"]["fd"])
        if self._ready:
            self.record.update()  # writes the old image still had queued may not have happened
            if self.kind == ContainmentKind.SUBREAPER:
                self._start_reaping()

    async def sweep(self) -> list[liverecord.Swept]:
        """End what dead hosts left behind (in a thread); returns one report per such host."""
        found = await asyncio.to_thread(liverecord.sweep, self.state_dir, self._parent, self.grace_s)
        for report in found:  # serve prints these; an embedding program sees them if it logs at INFO
            log.info("openclaw-tui: %s", report.describe())
        return found

    # -- callers --------------------------------------------------------------------------------
    def session_of(self, pid: int) -> str | None:
        """The id of the session (of this host) that process ``pid`` runs in, or None (a few small reads)."""
        if self._inside is not None:
            path = cgroups.own_path(pid)
            if path is not None and path.startswith(self._inside):
                return path[len(self._inside):].split("/")[0]
        chain = proctable.ancestry(pid)
        return self._by_family(chain) or self._by_marker(chain)

    def _by_family(self, chain: Iterable[proctable.Proc]) -> str | None:
        leaders = {e.pid: (sid, e.start) for sid, e in self._enclosures.items() if e.pid}
        table = {p.pid: p for p in chain}
        now = {pid: proc for pid in leaders if (proc := proctable.read(pid)) is not None}
        trusted = trusted_groups(now, [(pid, start) for pid, (_, start) in leaders.items()])
        for proc in table.values():
            if proc.pid in leaders and leaders[proc.pid][1] == proc.start:
                return leaders[proc.pid][0]
            for group in (proc.pgrp, proc.sid):
                if group in leaders and group in trusted:
                    return leaders[group][0]
        return None

    def _by_marker(self, chain: Iterable[proctable.Proc]) -> str | None:
        for proc in chain:
            if proc.marker and proc.marker.startswith(self.id + "/"):
                return proc.marker[len(self.id) + 1:]
        return None
