"""One session's container, one class per ``details.containment``: ``cgroup``, ``subreaper`` or ``sandbox``.

Each says which processes are the session's and ends them all with proof, reporting what it could not end.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar

from ..procs import cgroups, proctable, termination as lifecycle
from .leftovers import family, trusted_groups
from .preexec import Entry


class ContainmentKind(StrEnum):
    """What holds a session's processes (``details.containment``): one kind per enclosure below."""

    CGROUP = "cgroup"
    SUBREAPER = "subreaper"
    SANDBOX = "sandbox"


class Enclosure:
    """The base: a marker for the environment, and the leader once started."""

    kind: ClassVar[ContainmentKind]
    procs_file: bytes | None = None  # the cgroup.procs file the child joins before exec, if any

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.pid = 0
        self.start = 0

    @property
    def entry(self) -> Entry:
        """How the child enters this container (the sandbox's launcher has death with the host built in)."""
        return Entry(self.procs_file, die_with_host=self.kind != ContainmentKind.SANDBOX)

    def started(self, pid: int) -> None:
        self.pid = pid
        self.start = proctable.start_time(pid) or 0

    async def members(self) -> list[int]:
        """The session's live processes now (fresh)."""
        raise NotImplementedError

    def held(self, table: Callable[[], dict[int, proctable.Proc]]) -> list[int]:
        """The session's live processes, for its figures (blocking: off the loop); ``table`` gives every
        process with its marker, scanned once for all the sessions a refresh reads."""
        raise NotImplementedError

    @property
    def cgroup(self) -> str | None:
        """The session's own cgroup, whose files count what its processes used (None: it has none)."""
        return None

    def _send(self, pids: list[int], sig: int) -> None:
        lifecycle.signal_pids(pids, sig)

    async def end(self, grace_s: float) -> list[int]:
        """SIGTERM, grace, SIGKILL, proof; returns the pids still there (empty: confirmed)."""
        return await lifecycle.end_members(self.members, self._send, grace_s)

    def force_kill(self) -> None:
        """SIGKILL everything now (the operator insists); no waiting."""
        raise NotImplementedError

    def release(self) -> bool:
        """Free what the container holds once the session ended; False while processes remain in it."""
        return True

    def describe(self) -> dict[str, Any]:
        """What the live record keeps, so a later host can end what this one leaves if it dies."""
        return {"pid": self.pid, "start": self.start, "pgid": self.pid, "containment": self.kind}

    def to_json(self) -> dict[str, Any]:
        """All of it, for the next image of a host that re-executes in place (:func:`enclosure_from_json`)."""
        return {**self.describe(), "marker": self.marker}


class CgroupEnclosure(Enclosure):
    kind = ContainmentKind.CGROUP

    def __init__(self, marker: str, path: str, make: bool = True) -> None:
        super().__init__(marker)
        self.path = path
        if make:
            cgroups.make(path)
        self.procs_file = cgroups.joiner(path)

    async def members(self) -> list[int]:
        pids = cgroups.procs(self.path)
        if self.pid and self.pid not in pids and proctable.start_time(self.pid) is not None:
            pids.append(self.pid)  # the leader joins just after the spawn returns (before it starts anything)
        return pids

    def held(self, table: Callable[[], dict[int, proctable.Proc]]) -> list[int]:
        return cgroups.procs(self.path)

    @property
    def cgroup(self) -> str | None:
        return self.path

    def _send(self, pids: list[int], sig: int) -> None:
        if sig == signal.SIGKILL:
            cgroups.kill(self.path)  # atomic: also catches a process forking right now
        lifecycle.signal_pids(pids, sig)

    def force_kill(self) -> None:
        cgroups.kill(self.path)
        lifecycle.signal_pids([self.pid], signal.SIGKILL)

    def release(self) -> bool:
        return cgroups.remove(self.path)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "cgroup": self.path}


class SubreaperEnclosure(Enclosure):
    kind = ContainmentKind.SUBREAPER

    def __init__(self, marker: str, scan: Callable[[], dict[int, proctable.Proc]]) -> None:
        super().__init__(marker)
        self._scan = scan

    def _family(self, table: dict[int, proctable.Proc]) -> list[int]:
        groups = trusted_groups(table, [(self.pid, self.start)]) if self.pid else set()
        return list(family(table, lambda m: m == self.marker, groups))

    async def members(self) -> list[int]:
        return self._family(await lifecycle.shared(self._scan))

    def held(self, table: Callable[[], dict[int, proctable.Proc]]) -> list[int]:
        return self._family(table())

    def force_kill(self) -> None:
        lifecycle.signal_pids(self._family(self._scan()), signal.SIGKILL)


class SandboxEnclosure(Enclosure):
    kind = ContainmentKind.SANDBOX

    async def members(self) -> list[int]:
        return lifecycle.members(self.pid, await lifecycle.fresh_table())

    async def end(self, grace_s: float) -> list[int]:
        return await lifecycle.terminate_group(self.pid, grace_s)

    def held(self, table: Callable[[], dict[int, proctable.Proc]]) -> list[int]:
        """The launcher and everything below it: the PID namespace's processes, as the host sees them (an
        orphan inside is adopted by the namespace's first process, so all of them descend from the
        launcher); found through each process's children, without a scan of every process."""
        found, todo = [], [self.pid] if self.pid else []
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += [child for child in proctable.children_of(pid) if child not in found]
        return found

    def force_kill(self) -> None:
        lifecycle.signal_all(self.pid, signal.SIGKILL, lifecycle.scan())


def marked_scan() -> dict[int, proctable.Proc]:
    """Every process with its marker (one shared function, so concurrent enders share the scan)."""
    return proctable.snapshot(with_markers=True)


def enclosure_from_json(d: dict[str, Any]) -> Enclosure:
    """The container ``Enclosure.to_json`` described, with its processes (a cgroup is not made again)."""
    kind = d["containment"]
    if kind == ContainmentKind.CGROUP:
        enclosure: Enclosure = CgroupEnclosure(d["marker"], d["cgroup"], make=False)
    elif kind == ContainmentKind.SUBREAPER:
        enclosure = SubreaperEnclosure(d["marker"], marked_scan)
    elif kind == ContainmentKind.SANDBOX:
        enclosure = SandboxEnclosure(d["marker"])
    else:
        raise ValueError(f"unknown containment {kind!r}")
    enclosure.pid, enclosure.start = int(d["pid"]), int(d["start"])
    return enclosure
