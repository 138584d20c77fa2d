"""What a set of processes costs and holds: CPU, resident memory, the process tree and listening ports.

A :class:`Meter` per session turns two readings into CPU % over the interval between them. Everything here
reads ``/proc`` and cgroup files: blocking for hundreds of processes, so it runs in a worker thread.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

TREE_MAX = 64  # processes listed per session; the count and sums still cover all of them
_LISTEN_TCP = "0A"  # /proc/net/tcp state of a listening socket
_UNCONNECTED_UDP = "07"  # a UDP socket bound, with no peer: it takes datagrams from anyone
_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")
_STATES = {b"R": "running", b"S": "sleeping", b"D": "disk-sleep", b"T": "stopped", b"t": "tracing-stop",
           b"I": "idle"}
_NET_FILES = (("tcp", "tcp", 4), ("tcp6", "tcp", 6), ("udp", "udp", 4), ("udp6", "udp", 6))


@dataclass(frozen=True, slots=True)
class ProcRow:
    """One process of a session as the info view lists it."""

    pid: int
    ppid: int
    command: str
    cpu_percent: float
    rss_bytes: int
    state: str


@dataclass(frozen=True, slots=True)
class Listening:
    """A port a session's process listens on (TCP) or is bound to unconnected (UDP)."""

    port: int
    proto: str
    pid: int
    command: str


@dataclass(frozen=True, slots=True)
class Figures:
    """A session's cost now: CPU % of one core over the last interval, resident bytes, processes, ports.

    ``source`` says where CPU and memory came from: ``cgroup`` (both from the cgroup's files), ``cgroup-cpu``
    (CPU from ``cpu.stat``, memory summed over the processes: no memory controller) or ``processes``.
    """

    cpu_percent: float
    rss_bytes: int
    processes: int
    listening: tuple[Listening, ...] = ()
    tree: tuple[ProcRow, ...] = ()
    source: str = "processes"


@dataclass
class Meter:
    """One session's previous reading: the CPU seconds it had used, per process and in all, and when."""

    at: float | None = None
    total_s: float = 0.0
    per_pid: dict[tuple[int, float], float] = field(default_factory=dict)

    def read(self, pids: list[int], cgroup: str | None = None, since: float | None = None) -> Figures:
        """Figures of ``pids`` (the session's processes), and of ``cgroup`` where its files say more.

        ``since``: when the session started (monotonic), the baseline of a first reading, which then gives
        the CPU % over its life so far.
        """
        now = time.monotonic()
        rows, seconds, rss, sockets = _processes(pids)
        interval = now - (self.at if self.at is not None else (since if since is not None else now))
        source = "processes"
        used = _cgroup_cpu_s(cgroup) if cgroup else None
        if used is not None:
            source, total = "cgroup-cpu", used
            memory = _cgroup_memory(cgroup) if cgroup else None
            if memory is not None:
                source, rss = "cgroup", memory
        else:
            # a process's own time plus its reaped children's: a child that ends moves its time to its
            # parent's account, so the sum does not drop when it goes
            total = sum(s for s, _ in seconds.values())
        delta = max(0.0, total - self.total_s) if self.at is not None else total
        cpu = 100.0 * delta / interval if interval > 0 else 0.0
        tree = []
        for row in rows[:TREE_MAX]:
            key = (row.pid, seconds[row.pid][1])
            before = self.per_pid.get(key)
            used_s = seconds[row.pid][0]
            share = (used_s - before) if before is not None else (used_s if self.at is None else 0.0)
            tree.append(_with_cpu(row, 100.0 * max(0.0, share) / interval if interval > 0 else 0.0))
        self.at, self.total_s = now, total
        self.per_pid = {(pid, created): s for pid, (s, created) in seconds.items()}
        return Figures(round(cpu, 1), rss, len(rows), tuple(_listening(sockets, rows)), tuple(tree), source)


def _with_cpu(row: ProcRow, cpu: float) -> ProcRow:
    return ProcRow(row.pid, row.ppid, row.command, round(cpu, 1), row.rss_bytes, row.state)


def _processes(pids: list[int]) -> tuple[list[ProcRow], dict[int, tuple[float, float]], int, dict[int, set[int]]]:
    """Each live process's row, CPU seconds (with its start as identity), the RSS sum, and its socket inodes.

    Read from ``stat`` and ``cmdline`` directly: two small reads a process, where psutil's own took about
    five times as long (it mattered for an idle host refreshing every 2 s).
    """
    rows: list[ProcRow] = []
    seconds: dict[int, tuple[float, float]] = {}
    sockets: dict[int, set[int]] = {}
    rss = 0
    for pid in sorted(set(pids)):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) < 22 or fields[0] in (b"Z", b"X"):
            continue
        comm = stat[stat.find(b"(") + 1: stat.rfind(b")")]
        command = (argv.rstrip(b"\0").replace(b"\0", b" ") or comm).decode(errors="replace")
        memory = int(fields[21]) * _PAGE
        rows.append(ProcRow(pid, int(fields[1]), command, 0.0, memory, _STATES.get(fields[0], fields[0].decode())))
        ticks = sum(int(f) for f in fields[11:15])  # utime, stime, and those of its reaped children
        seconds[pid] = (ticks / _TICKS, float(fields[19]))
        rss += memory
        sockets[pid] = _socket_inodes(pid)
    return rows, seconds, rss, sockets


def _socket_inodes(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            found.add(int(link[8:-1]))
    return found


def _listening(sockets: dict[int, set[int]], rows: list[ProcRow]) -> list[Listening]:
    """The ports behind the processes' sockets, read from the net tables of each network namespace they
    are in (a sandbox without network has its own)."""
    if not any(sockets.values()):
        return []
    commands = {row.pid: row.command.split(" ", 1)[0].rsplit("/", 1)[-1] for row in rows}
    tables: dict[str, dict[int, tuple[int, str]]] = {}
    found: dict[tuple[int, str], Listening] = {}
    for pid, inodes in sockets.items():
        if not inodes:
            continue
        try:
            namespace = os.readlink(f"/proc/{pid}/ns/net")
        except OSError:
            continue
        if namespace not in tables:
            tables[namespace] = _bound_ports(pid)
        for inode in inodes:
            bound = tables[namespace].get(inode)
            if bound is not None and bound not in found:
                found[bound] = Listening(bound[0], bound[1], pid, commands.get(pid, ""))
    return sorted(found.values(), key=lambda item: (item.port, item.proto))


def _bound_ports(pid: int) -> dict[int, tuple[int, str]]:
    """Socket inode -> (port, proto) for every listening TCP and unconnected UDP socket of ``pid``'s network
    namespace (``/proc/<pid>/net/*``, the kernel's own tables)."""
    ports: dict[int, tuple[int, str]] = {}
    for name, proto, _ in _NET_FILES:
        try:
            with open(f"/proc/{pid}/net/{name}", encoding="ascii") as fh:
                next(fh, None)
                lines = fh.readlines()
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10:
                continue
            state, inode = fields[3], int(fields[9])
            if inode and state == (_LISTEN_TCP if proto == "tcp" else _UNCONNECTED_UDP):
                ports[inode] = (int(fields[1].rsplit(":", 1)[1], 16), proto)
    return ports


def _cgroup_cpu_s(path: str) -> float | None:
    """CPU seconds the group has used, dead members included (``cpu.stat`` is there with or without the cpu
    controller)."""
    try:
        with open(os.path.join(path, "cpu.stat"), encoding="ascii") as fh:
            for line in fh:
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) / 1_000_000
    except (OSError, ValueError):
        return None
    return None


def _cgroup_memory(path: str) -> int | None:
    """``memory.current``: only where the memory controller is enabled for the group."""
    try:
        with open(os.path.join(path, "memory.current"), encoding="ascii") as fh:
            return int(fh.read())
    except (OSError, ValueError):
        return None

