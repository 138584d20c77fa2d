"""The journal's files: one per session, one of issued ids, and a lock, under the state directory.

Everything here runs on the writer thread (or at load time with the writer held off) and raises ``OSError``
for the caller to turn into a degraded journal.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from . import records as rec
from .batch import Batch
from .limits import Caps, Limits
from .replay import header, replay, snapshot

SUFFIX = ".jnl"
MAX_OPEN = 32  # session files kept open between writes
APPROVALS_BYTES = 1 << 20  # the approvals file is cut back to its newest records beyond this
APPROVALS_KEPT = 1000
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")


class Busy(Exception):
    """Another live host holds the state directory."""


@dataclass
class Stats:
    bytes_written: int = 0
    compactions: int = 0
    evictions: int = 0
    fsyncs: int = 0


@dataclass
class SessionFile:
    path: str
    size: int
    finished_at: float | None = None
    compacted: int = 0  # its size right after the last compaction
    records: int = 0  # records appended since (what reading it back costs)


def file_name(session_id: str) -> str:
    """A session's file name: its id when the id is a plain slug, else the id in hex (never a path)."""
    if _PLAIN_ID.fullmatch(session_id):
        return session_id + SUFFIX
    return "x-" + session_id.encode("utf-8", "surrogatepass").hex()[:200] + SUFFIX


class Disk:
    """The files of one journal directory."""

    def __init__(self, state_dir: str, limits: Limits, name: str | None = None) -> None:
        self.root = os.path.join(state_dir, "journal", *([name] if name else []))
        self.dir = os.path.join(self.root, "sessions")
        self.ids_path = os.path.join(self.root, "issued.jnl")
        self.approvals_path = os.path.join(self.root, "approvals.jnl")
        self.limits = limits
        self.files: dict[str, SessionFile] = {}
        self.ids_size = 0
        self.approvals_size = 0
        self.stats = Stats()
        self.gone: set[str] = set()  # forgotten or evicted: never written again
        self._fds: OrderedDict[str, int] = OrderedDict()
        self._unsynced: set[str] = set()
        self._dir_changed = False
        self._lock_fd = -1
        self._dir_id = (0, 0)

    def open(self) -> None:
        """Make the directories and take the lock; raises ``Busy`` or ``OSError``."""
        os.makedirs(self.root, mode=0o700, exist_ok=True)  # private: records hold what commands printed
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        fd = os.open(os.path.join(self.root, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise Busy(f"state directory {self.root} is in use by another host (pid {holder})") from None
        self._lock_fd = fd
        pid = f"{os.getpid()}\n".encode()
        try:  # only for the message another host shows; a full disk must not stop us here
            os.pwrite(fd, pid, 0)
            os.ftruncate(fd, len(pid))
        except OSError:
            pass
        st = os.stat(self.dir)
        self._dir_id = (st.st_dev, st.st_ino)

    def check(self) -> None:
        """Raise if the sessions directory is gone or was replaced (writes would go nowhere anyone reads)."""
        try:
            st = os.stat(self.dir)
        except FileNotFoundError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != self._dir_id:
            raise FileNotFoundError(errno.ENOENT, "the state directory disappeared", self.dir)

    # -- writing ---------------------------------------------------------------------------------
    def write_round(self, batches: list[tuple[str, Caps, Batch]], ids: list[str], forgets: list[str],
                    approvals: list[bytes] | None = None) -> list[str]:
        """Append each batch, compact what outgrew its bound, record ids and approvals, delete forgotten
        sessions, evict over the total bound; returns the evicted ids. Raises ``OSError``."""
        self.check()
        for sid, caps, batch in batches:
            if sid in self.gone:
                continue
            data, count = batch.encode()
            if self.needs_compaction(sid, len(data), count):
                self.compact(sid, data)
            elif data:
                self.append(sid, caps, data, sync=batch.exit is not None)
                self.files[sid].records += count
            if batch.exit is not None:
                self.files[sid].finished_at = batch.exit[0]
        if ids:
            self.add_ids(ids)
        if approvals:
            self.add_approvals(approvals)
        for sid in forgets:
            self.forget(sid)
        evicted = self.evict()
        self.settle()
        return evicted

    def append(self, session_id: str, caps: Caps, data: bytes, sync: bool) -> None:
        fd = self._fd(session_id, caps)
        self._write(fd, data)
        self.files[session_id].size += len(data)
        if sync:
            self._fsync(fd)
            self._unsynced.discard(session_id)
        else:
            self._unsynced.add(session_id)

    def add_ids(self, ids: list[str]) -> None:
        fd = os.open(self.ids_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            data = rec.frame(rec.IDS, "\n".join(ids).encode("utf-8", "surrogatepass"))
            if os.fstat(fd).st_size == 0:
                data = rec.MAGIC + data
                self._dir_changed = True
            self._write(fd, data)
            self._fsync(fd)  # ids are few and must outlive a power cut: a reissued id names two jobs
            self.ids_size += len(data)
        finally:
            os.close(fd)

    def add_approvals(self, records: list[bytes]) -> None:
        """Append approval records (JSON payloads), fsynced: who decided what must outlive a power cut. The
        file keeps its newest ``APPROVALS_KEPT`` records once it outgrows ``APPROVALS_BYTES``."""
        data = b"".join(rec.frame(rec.APPROVAL, r) for r in records)
        if self.approvals_size + len(data) > APPROVALS_BYTES:
            kept = [p for kind, p, _ in rec.scan(_read(self.approvals_path)).records if kind == rec.APPROVAL]
            data = rec.MAGIC + b"".join(rec.frame(rec.APPROVAL, r) for r in (kept + records)[-APPROVALS_KEPT:])
            tmp = self.approvals_path + ".tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                self._write(fd, data)
                self._fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.approvals_path)
            self.approvals_size, self._dir_changed = len(data), True
            return
        fd = os.open(self.approvals_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size == 0:
                data = rec.MAGIC + data
                self._dir_changed = True
            self._write(fd, data)
            self._fsync(fd)
            self.approvals_size += len(data)
        finally:
            os.close(fd)

    def needs_compaction(self, session_id: str, more: int, records: int) -> bool:
        """Appending ``more`` bytes would take the file past its bound (and it grew enough since its last
        compaction for one to pay: the caps keep a snapshot well under the bound), or ``records`` more
        would make it slow to read back (a slow logger writes a record a line)."""
        f = self.files.get(session_id)
        if f is None:
            return False
        bound = self.limits.session_bytes
        too_big = f.size + more > bound and f.size + more - f.compacted > bound // 4
        return too_big or f.records + records > self.limits.session_records

    def compact(self, session_id: str, more: bytes = b"") -> None:
        """Replace the session's file, with ``more`` records appended, by a snapshot of what it retains:
        written to a new file, fsynced, renamed over the old one; the file never outgrows its bound."""
        f = self.files[session_id]
        with open(f.path, "rb") as fh:
            data = fh.read() + more
        s, _ = replay(rec.scan(data).records)
        if s is None:
            return
        snap = snapshot(s)
        tmp = f.path + ".tmp"
        write_new(tmp, snap, self._write, self._fsync)
        self._close_fd(session_id)
        os.replace(tmp, f.path)
        self._sync_dir()
        f.size, f.compacted, f.records = len(snap), len(snap), 0
        self._unsynced.discard(session_id)
        self.stats.compactions += 1

    def forget(self, session_id: str) -> None:
        self.gone.add(session_id)
        self._close_fd(session_id)
        self._unsynced.discard(session_id)
        f = self.files.pop(session_id, None)
        unlink(f.path if f is not None else os.path.join(self.dir, file_name(session_id)))

    def evict(self) -> list[str]:
        """Delete the oldest finished sessions while the total is over its bound; returns their ids."""
        total = sum(f.size for f in self.files.values()) + self.ids_size
        if total <= self.limits.total_bytes:
            return []
        done = sorted((f.finished_at, sid) for sid, f in self.files.items() if f.finished_at is not None)
        evicted: list[str] = []
        for _, sid in done[:-1]:  # the most recently finished keeps its record
            if total <= self.limits.total_bytes:
                break
            total -= self.files[sid].size
            self.forget(sid)
            evicted.append(sid)
        self.stats.evictions += len(evicted)
        return evicted

    def settle(self) -> None:
        """End of a round of writes: make new directory entries durable."""
        if self._dir_changed:
            self._sync_dir()

    def close(self) -> None:
        """Flush what was written to stable storage, close every file and release the lock."""
        try:
            for sid in list(self._unsynced):
                f = self.files.get(sid)
                fd = self._fds.get(sid)
                if fd is not None:
                    self._fsync(fd)
                elif f is not None:  # closed to keep few files open: fsync through a new descriptor
                    fd = os.open(f.path, os.O_RDONLY)
                    try:
                        self._fsync(fd)
                    finally:
                        os.close(fd)
            self._unsynced.clear()
            self.settle()
        finally:
            for sid in list(self._fds):
                self._close_fd(sid)
            if self._lock_fd >= 0:
                os.close(self._lock_fd)
                self._lock_fd = -1

    def _fd(self, session_id: str, caps: Caps) -> int:
        fd = self._fds.get(session_id)
        if fd is not None:
            self._fds.move_to_end(session_id)
            return fd
        f = self.files.get(session_id)
        path = f.path if f is not None else os.path.join(self.dir, file_name(session_id))
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._fds[session_id] = fd
        if len(self._fds) > MAX_OPEN:
            self._close_fd(next(iter(self._fds)))
        if f is None:
            size = os.fstat(fd).st_size
            if size == 0:
                start = header(session_id, caps)
                self._write(fd, start)
                size, self._dir_changed = len(start), True
            self.files[session_id] = SessionFile(path, size)
        return fd

    def _close_fd(self, session_id: str) -> None:
        fd = self._fds.pop(session_id, None)
        if fd is not None:
            os.close(fd)

    def _write(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            self.stats.bytes_written += n
            view = view[n:]

    def _fsync(self, fd: int) -> None:
        os.fsync(fd)
        self.stats.fsyncs += 1

    def _sync_dir(self) -> None:
        fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            self._fsync(fd)
        finally:
            os.close(fd)
        self._dir_changed = False


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return b""
def write_new(path: str, data: bytes, write: Callable[[int, bytes], None] | None = None,
              fsync: Callable[[int], None] = os.fsync) -> None:
    """A new private file at ``path`` holding ``data``, fsynced (the step before a rename over the old one);
    nothing of it is left when that fails."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        (write or _write_all)(fd, data)
        fsync(fd)
    except OSError:
        os.close(fd)
        unlink(path)
        raise
    os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
