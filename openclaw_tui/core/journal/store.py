"""``Journal``: the host's side of the durable record — cheap calls in, one writer thread to the disk."""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from .batch import Batch
from .disk import Busy, Disk
from .limits import Caps, Limits
from .mutefile import write_mutes
from .records import ACT_EVENT
from .recover import Recovered, load
from .sessionjournal import SessionJournal


class Journal:
    """A durable, bounded record of sessions under a state directory. Build with ``open`` or
    ``disabled``; ``writing`` is False once degraded (``problem`` says why) or when disabled."""

    def __init__(self, disk: Disk | None, limits: Limits, problem: str | None = None) -> None:
        self.limits = limits
        self.problem = problem
        self.writing = disk is not None
        self.lock = threading.Lock()
        self._wake = threading.Condition(self.lock)
        self._disk = disk
        self._disk_lock = threading.Lock()  # a write round and a load never overlap
        self._sessions: dict[str, SessionJournal] = {}
        self._dirty: dict[str, SessionJournal] = {}
        self._recovered: dict[str, tuple[Caps, int]] = {}
        self._ids: list[str] = []
        self._approvals: list[bytes] = []
        self._forgets: list[str] = []
        self._mutes: dict[str, Any] | None = None  # to write, when they changed
        self._urgent = self._closing = False
        self._held = 0
        self._asked = self._done = 0
        self.lost_chars = self.lost_bytes = 0
        self._thread: threading.Thread | None = None
        if disk is not None:
            self._thread = threading.Thread(target=self._run, name="openclaw-journal", daemon=True)
            self._thread.start()

    @classmethod
    def open(cls, state_dir: str | os.PathLike[str], limits: Limits | None = None, name: str | None = None) -> Journal:
        """The journal under ``state_dir`` (``journal/``, or ``journal/<name>/`` when named); degraded
        (never raising) when the directory cannot be used."""
        limits = limits or Limits()
        disk = Disk(os.fspath(state_dir), limits, name)
        try:
            disk.open()
        except Busy as e:
            return cls(None, limits, f"journal off: {e}")
        except (OSError, ValueError) as e:  # ValueError: a path the OS cannot take (a NUL byte)
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            return cls(None, limits, f"journal off: cannot use state directory {disk.root}: {reason}")
        return cls(disk, limits)

    @classmethod
    def disabled(cls) -> Journal:
        """A journal that keeps nothing (``tools.exec.persist = false``)."""
        return cls(None, Limits())

    # -- the host's calls --------------------------------------------------------------------------
    def session(self, session_id: str, caps: Caps | None = None) -> SessionJournal:
        """The record of ``session_id``, made on first use (a recovered session keeps its own caps)."""
        with self.lock:
            found = self._sessions.get(session_id)
            if found is None:
                kept_caps, head_len = self._recovered.pop(session_id, ((caps or Caps()).fitted(self.limits), 0))
                found = self._sessions[session_id] = SessionJournal(self, session_id, kept_caps, head_len)
            return found

    def issued(self, session_id: str) -> None:
        """Remember an issued id for good (written at once)."""
        if self.writing:
            with self.lock:
                self._ids.append(session_id)
                self._notify(urgent=True)

    def approval(self, record: dict[str, Any]) -> None:
        """Keep an approval request or decision for good (written and fsynced at once)."""
        if self.writing:
            payload = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
            with self.lock:
                self._approvals.append(payload)
                self._notify(urgent=True)

    def act(self, record: dict[str, Any]) -> None:
        """Keep an act of the host's that outlives the session's own file (a session removed, the host
        re-executed) for the audit: in the approvals file, which is fsynced and bounded the same way."""
        self.approval({"event": ACT_EVENT, **record})

    def mutes(self, mutes: dict[str, Any]) -> None:
        """Record the operator's mutes as they are now (written at once, replacing the last)."""
        if self.writing:
            with self.lock:
                self._mutes = mutes
                self._notify(urgent=True)

    def forget(self, session_id: str) -> None:
        """Delete a session's record (cleared, removed or expired); its id stays issued."""
        if not self.writing:
            return
        with self.lock:
            found = self._sessions.pop(session_id, None)
            if found is not None:
                found.dead = True
                if self._dirty.pop(session_id, None) is not None:
                    self._held -= found.take().weight
            self._recovered.pop(session_id, None)
            self._forgets.append(session_id)
            self._notify()

    def load(self) -> Recovered:
        """Every session recorded before this journal was opened, and every id ever issued. Blocking
        (reads the files): call it once at start, off the event loop, before new sessions are admitted."""
        if self._disk is None:
            return Recovered()
        with self.lock:
            skip = set(self._sessions)
        try:
            with self._disk_lock:
                loaded = load(self._disk, skip)
        except (OSError, ValueError) as e:
            where = getattr(e, "filename", None) or self._disk.root
            self.degrade(f"journal stopped: cannot read {where}: {getattr(e, 'strerror', None) or e}")
            return Recovered()
        with self.lock:
            for sid, s in loaded.sessions.items():
                self._recovered[sid] = (s.caps, len(s.output.head))
            if loaded.problems and self.problem is None:
                more = len(loaded.problems) - 1
                self.problem = loaded.problems[0] + (f" (and {more} more)" if more else "")
        return loaded

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything handed over so far is written; False if it could not be (or timed out)."""
        with self.lock:
            if not self.writing:
                return False
            self._asked += 1
            asked = self._asked
            self._notify(urgent=True)
            done = self._wake.wait_for(lambda: self._done >= asked or not self.writing, timeout)
            return done and self.writing

    def close(self, timeout: float = 10.0) -> None:
        """Write what is waiting, fsync it, stop the writer and release the directory."""
        with self.lock:
            self._closing = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._disk is not None and (self._thread is None or not self._thread.is_alive()):
            with self._disk_lock:
                try:
                    self._disk.close()
                except OSError as e:
                    self.problem = self.problem or f"journal: closing failed: {e.strerror or e}"
        self.writing = False

    @property
    def directory(self) -> str | None:
        """The journal's directory (None when it has none: disabled, or refused at open)."""
        return self._disk.root if self._disk is not None else None

    @property
    def stats(self) -> dict[str, int]:
        """Bytes written, compactions, evictions and fsyncs so far; output lost to a full buffer."""
        disk = self._disk.stats.__dict__ if self._disk is not None else {}
        return {**disk, "lost_chars": self.lost_chars, "lost_bytes": self.lost_bytes}

    # -- shared with SessionJournal (called under ``lock``) ----------------------------------------
    def edited(self, sj: SessionJournal, grew: int, urgent: bool = False) -> None:
        self._held += grew
        if sj.id not in self._dirty:
            self._dirty[sj.id] = sj
            self._notify(urgent)
        elif urgent:
            self._notify(urgent)
        if self._held > self.limits.buffer_bytes:  # the writer is far behind: this session gives way
            freed, chars, nbytes = sj.shed()
            self._held -= freed
            self.lost_chars += chars
            self.lost_bytes += nbytes

    def _notify(self, urgent: bool = False) -> None:
        self._urgent = self._urgent or urgent
        self._wake.notify_all()

    def degrade(self, reason: str) -> None:
        """Stop writing for good, keep the first reason."""
        with self.lock:
            if self.writing:
                self.writing = False
                self.problem = reason
                for sj in self._dirty.values():
                    sj.take()  # what waited will never be written: free it
                self._dirty.clear()
                self._held = 0
            self._wake.notify_all()

    # -- the writer thread -------------------------------------------------------------------------
    def _run(self) -> None:
        assert self._disk is not None
        next_at = 0.0
        while True:
            with self.lock:
                while not (self._closing or self._urgent or (self._dirty or self._ids or self._forgets or
                                                              self._approvals) and time.monotonic() >= next_at):
                    pending = (self._dirty or self._ids or self._forgets or self._approvals
                               or self._mutes is not None)
                    self._wake.wait(max(0.0, next_at - time.monotonic()) if pending else None)
                batches = [(sj.id, sj.caps, sj.take()) for sj in self._dirty.values()]
                self._dirty.clear()
                self._held = 0
                ids, self._ids = self._ids, []
                approvals, self._approvals = self._approvals, []
                forgets, self._forgets = self._forgets, []
                mutes, self._mutes = self._mutes, None
                asked, closing, self._urgent = self._asked, self._closing, False
            started = time.monotonic()
            before = self._disk.stats.bytes_written
            if self.writing:
                self._write_round(self._disk, batches, ids, forgets, approvals, mutes)
            with self.lock:
                self._done = asked
                self._wake.notify_all()
            if closing:
                return
            rate, written = self.limits.write_rate, self._disk.stats.bytes_written - before
            next_at = started + max(self.limits.flush_interval, written / rate if rate > 0 else 0.0)

    def _write_round(self, disk: Disk, batches: list[tuple[str, Caps, Batch]], ids: list[str],
                     forgets: list[str], approvals: list[bytes], mutes: dict[str, Any] | None) -> None:
        try:
            with self._disk_lock:
                evicted = disk.write_round(batches, ids, forgets, approvals)
                if mutes is not None:
                    write_mutes(disk.root, mutes)
        except OSError as e:
            where = e.filename or disk.root
            self.degrade(f"journal stopped: {e.strerror or e} ({where}); sessions are kept in memory only")
            return
        except Exception as e:  # noqa: BLE001  (a bug here must not end the host: stop journaling instead)
            self.degrade(f"journal stopped: the writer failed ({e!r}); sessions are kept in memory only")
            return
        with self.lock:
            for sid in evicted:
                found = self._sessions.pop(sid, None)
                if found is not None:
                    found.dead = True
