"""One supervised command: what it is, where it runs, and its parts — output, input log, exit record.

It writes only its own state, and ``to_json``/``from_json`` are its one record.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..config import PTY_SIZE, ExecSettings
from ..containment import Child, ContainmentKind, Placement, SessionRun
from ..procs import echo_hidden
from ..vt import ModeTracker, QueryScanner
from .buffers import Output
from .capture import OutputCapture, now_ms
from .events import ExitNotice
from .exitrecord import ExitRecord
from .inputlog import InputLog
from .rawring import RawRing
from .redact import MASK, looks_secret
from .status import Status

if TYPE_CHECKING:
    from .record import SessionRecord

FORMAT = 1  # of Session.to_json
LAST_DATE_MS = 253_402_300_799_000  # 9999-12-31T23:59:59Z, the last time a date can name

Replier = Callable[[int, bytes], bytes]
"""The reply to a terminal query that ends at a raw-ring offset (see :mod:`openclaw_tui.core.vt.queries`)."""

_order = 0


def _next_order(at_least: int = 0) -> int:
    """Start order: two sessions may share a millisecond (a restored one keeps its own, and later ones follow)."""
    global _order
    _order = max(_order, at_least) + 1
    return _order


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


class Session:
    """A command started by ``exec``; owned by the registry."""

    node: str | None = None  # runs on this host (a dashboard across nodes shows others' sessions beside it)

    def __init__(self, session_id: str, command: str, name: str, agent: str | None, cwd: str, pty: bool,
                 settings: ExecSettings, on_change: Callable[[str, Session], None],
                 replier: Callable[[Session], Replier] | None = None) -> None:
        self.id = session_id
        self.command = command
        self.name = name
        self.agent = agent
        self.cwd = cwd
        self.pty = pty
        self.settings = settings
        self.elevated = settings.elevated  # admitted to run outside the sandbox (its placement is then gateway)
        self.order = _next_order()
        self.started_ms = now_ms()
        self._started_mono = time.monotonic()
        self._ended_mono: float | None = None
        self.backgrounded = False
        # where it runs: facts kept for good, and the launcher's handles while it runs
        self.placement = Placement.GATEWAY  # until the launcher says (``details.host``)
        self.pid: int | None = None
        self.containment: ContainmentKind | None = None  # the kind of container it runs in
        self.run: SessionRun | None = None
        # its parts
        self._on_change = on_change
        self.capture = OutputCapture(settings.max_output_chars, settings.pending_max_chars, settings.raw_ring_bytes,
                                     lambda: on_change("output", self))
        self.inputs = InputLog()
        self.exit = ExitRecord()
        # the terminal side, and waiting for input
        self.tracked_modes = ModeTracker()  # what key encoding and paste need (the screen has its own)
        self.queries = QueryScanner()
        # answers a PTY program's terminal queries (the host's terminal engine makes it for this session)
        self.replier: Replier | None = replier(self) if pty and replier is not None else None
        self.waiting_reason: str | None = None  # the kernel's evidence that it waits (see update_waiting)
        self.prompt: str | None = None  # what it waits at: its last screen line, masked (the host sets it)
        self.muted = False  # the operator asked for no notifications of it (the host keeps the mutes)
        self._waiting_told: tuple[bool, str | None] = (False, None)  # the verdict the last check reported
        self.done = asyncio.Event()
        self._raw_listeners: list[Callable[[], None]] = []
        # its journal record (None: kept in memory only), and whether its agent was told how it ended
        self.journal: SessionRecord | None = None
        self.told = False
        # a run reserved for the operator's approval: where its request stands (see ``core/approvals``)
        self.approval: dict[str, Any] | None = None
        self.env: dict[str, str] = {}  # the call's own overrides (what a re-run starts with again)
        self.rerun_of: str | None = None  # the session the operator re-ran as this one
        self.resources: dict[str, Any] | None = None  # its last figures (the host reads them: ``host/figures``)

    def launched(self, run: SessionRun) -> None:
        """What the launcher learned: the child, where and in what it runs, the PTY's first size."""
        self.run = run
        self.pid = run.child.pid
        self.placement = run.placement
        self.containment = run.enclosure.kind
        if run.pty_size is not None:
            self.capture.resize(*run.pty_size)

    def reserve(self, approval: dict[str, Any]) -> None:
        """It waits for the operator's approval: not started, listed as ``approval-pending``."""
        self.approval = approval
        self.exit.started = False

    def begin(self) -> None:
        """Approved: it starts now (its run is launched next), and its runtime counts from now."""
        self.exit.started = True
        self.started_ms = now_ms()
        self._started_mono = time.monotonic()

    def mark_never_ran(self, failure: str, reason: str | None = None) -> None:
        """It ended before it started (denied, not answered in time, withdrawn, refused at launch)."""
        self.exit.never_ran(failure, reason)
        self._ended_mono = self._started_mono
        self.done.set()

    @property
    def child(self) -> Child | None:
        """The running child (None before launch, and for a session rebuilt from its record)."""
        return self.run.child if self.run is not None else None

    # -- output ---------------------------------------------------------------------------------
    def on_data(self, stream: str, data: bytes, stamps: list[tuple[int, float]] | None = None) -> None:
        """Runner callback: raw bytes from the child, on the loop (``stamps``: when the runner read
        them). The capture and the mode scan see every byte at once; a PTY program's terminal queries are
        answered as they arrive."""
        self.capture.ingest(stream, data, stamps)
        if self.pty:
            self.tracked_modes.feed(data)
            if self.replier is not None:
                for back, query in self.queries.feed(data):
                    self.write_reply(self.replier(self.raw.end - back, query))
        self.waiting_reason = None  # output: the program is working again; the next check looks anew
        self.prompt = None
        for listener in list(self._raw_listeners):
            listener()

    @property
    def output(self) -> Output:
        """The text output agents read (head, tail, pending), up to date with every byte received."""
        return self.capture.text

    @property
    def raw(self) -> RawRing:
        """The raw output ring, with the PTY's sizes (what terminal views draw from)."""
        return self.capture.raw

    # -- the raw view (terminal engine's RawSource) ---------------------------------------------
    def add_raw_listener(self, cb: Callable[[], None]) -> Callable[[], None]:
        self._raw_listeners.append(cb)
        return lambda: self._raw_listeners.remove(cb) if cb in self._raw_listeners else None

    def write_reply(self, data: bytes) -> None:
        """Terminal query replies go straight to the child; not recorded as anyone's input."""
        if data and self.child is not None and self.child.stdin_open:
            self.child.write(data)

    @property
    def pty_size(self) -> tuple[int, int]:
        """(cols, rows) of the PTY now: the newest size recorded in the raw ring."""
        return self.raw.size or PTY_SIZE  # (before the launcher records the size it opened the PTY with)

    def resize(self, cols: int, rows: int, by: str = "operator") -> None:
        """Set the PTY's window size (the program gets SIGWINCH), recorded in the raw ring where it happened,
        with when and ``by`` whom (the audit lists it).

        Raw listeners hear of it as of new output: a view must redraw at the new size.
        """
        if (cols, rows) == self.pty_size:
            return  # the kernel would not signal the program either
        self.capture.resize(cols, rows, by)
        if self.child is not None:
            self.child.resize(cols, rows)
        for listener in list(self._raw_listeners):
            listener()

    # -- input ----------------------------------------------------------------------------------
    @property
    def stdin_writable(self) -> bool:
        return self.running and self.child is not None and self.child.stdin_open

    def send(self, data: bytes, source: str, action: str) -> int:
        """Queue input for the child and record who sent it (see :mod:`.inputlog`: input typed with the
        terminal's echo off is recorded as ``•••``); returns bytes written at once."""
        assert self.child is not None
        fd = self.child.stdin_fd
        hidden = self.pty and fd is not None and echo_hidden(fd)
        sent = self.child.write(data)
        self.inputs.record(data, source, action, hidden)
        self._on_change("input", self)
        return sent

    # -- state ----------------------------------------------------------------------------------
    def background(self) -> None:
        """It left its exec call's yield window: listed, kept after it ends, its agent notified of the exit."""
        self.backgrounded = True

    @property
    def running(self) -> bool:
        return self.exit.ended_ms is None

    @property
    def status(self) -> Status:
        return self.exit.status

    def runtime_ms(self) -> int:
        if not self.exit.started:
            return 0  # it has not run (waiting for the operator), or never did
        end = self._ended_mono if self._ended_mono is not None else time.monotonic()
        return round((end - self._started_mono) * 1000)  # round: a rebuilt session gives back its own count

    def idle_ms(self) -> int:
        return self.capture.idle_ms()

    @property
    def waiting_for_input(self) -> bool:
        """Stdin still writable, and either the kernel showing the program blocked reading its terminal
        (``waiting_reason``, cleared by output) or no output for longer than the idle threshold."""
        return self.stdin_writable and (
            self.waiting_reason is not None or self.idle_ms() > self.settings.input_wait_ms)

    def update_waiting(self, reason: str | None) -> bool:
        """The host's periodic check: record the kernel's evidence (``reading-terminal``,
        ``password-prompt``, or None without any); True when the verdict or its reason changed since the
        last check, so that watchers hear of it (a session that stops waiting included)."""
        self.waiting_reason = reason
        verdict = (self.waiting_for_input, reason)
        changed, self._waiting_told = verdict != self._waiting_told, verdict
        return changed

    def mark_exited(self, wait_status: int) -> None:
        """The run is over and nothing of it survives: record the leader's wait status."""
        self.exit.exited(wait_status)
        self._ended_mono = time.monotonic()
        self.waiting_reason = None

    def mark_host_died(self, found_ms: int, leftover: list[int]) -> None:
        """A session rebuilt from its record that was running when its host died: ended, as the next host
        found it at ``found_ms`` (see ``ExitRecord.host_died``)."""
        self.exit.host_died(found_ms, leftover)
        self._ended_mono = time.monotonic()
        self.done.set()

    @property
    def timeout_at_ms(self) -> int | None:
        """When it is killed for running too long (None: no timeout, or it is not running)."""
        deadline = self.run.deadline if self.run is not None and self.running else None
        at = None if deadline is None else now_ms() + (deadline - time.monotonic()) * 1000
        return None if at is None or at > LAST_DATE_MS else round(at)  # past year 9999: as good as none

    def details(self) -> dict[str, Any]:
        """The machine-readable state shared by every result about this session (``failureKind`` only for
        one that ended without an exit status: ``host-died``, or that never ran; ``approvalId`` and
        ``approval`` only for a run that asked for the operator's approval)."""
        out = self.output
        extra: dict[str, Any] = {"failureKind": self.exit.failure} if self.exit.failure else {}
        if self.rerun_of is not None:
            extra["rerunOf"] = self.rerun_of
        if self.approval is not None:
            extra.update(approvalId=self.approval.get("approvalId"), approval=dict(self.approval))
            if not self.exit.started and not self.running:
                extra["neverRan"] = True
        return {
            "sessionId": self.id,
            "status": self.status,
            "name": self.name,
            "command": self.command,
            "agent": self.agent,
            "pid": self.pid,
            "pty": self.pty,
            "backgrounded": self.backgrounded,
            "cwd": self.cwd,
            "host": self.placement,
            "elevated": self.elevated,
            "startedAt": iso(self.started_ms),
            "endedAt": iso(self.exit.ended_ms),
            "durationMs": self.runtime_ms(),  # how long it has run: until now, or until it ended
            "exitCode": self.exit.code,
            "exitSignal": self.exit.signal,
            "timedOut": self.exit.timed_out,
            "killedBy": self.exit.killed_by,
            "cleanup": self.exit.cleanup,
            "leftoverPids": self.exit.leftover,
            "containment": self.containment,
            "cgroup": self.run.enclosure.cgroup if self.run is not None else None,
            "truncated": out.truncated,
            "droppedChars": out.gap(),
            "stdinWritable": self.stdin_writable,
            "waitingForInput": self.waiting_for_input,
            "waitingReason": self.waiting_reason,
            "prompt": self.prompt if self.waiting_for_input else None,
            "muted": self.muted,
            "idleMs": self.idle_ms(),
            "lastOutputAt": iso(self.capture.last_ms),
            "ptySize": {"cols": self.pty_size[0], "rows": self.pty_size[1]} if self.pty else None,
            "resources": self.resources if self.running else None,
            "env": {name: MASK if looks_secret(name) else value for name, value in self.env.items()},
            "timeoutAt": iso(self.timeout_at_ms),
            "expiresAt": iso(self.exit.ended_ms + self.settings.ttl_ms) if self.exit.ended_ms is not None else None,
            **extra,
        }

    # -- the journal ----------------------------------------------------------------------------
    def keep_record(self, journal: SessionRecord, catch_up: bool = True) -> None:
        """Journal this session from now on: its metadata, what its parts hold now (unless the record
        already has it: ``catch_up`` false), then every change."""
        if catch_up:
            self.capture.keep_record(journal)
            self.inputs.keep_record(journal)
        self.record_to(journal)
        self.record_meta()  # last: reading the output's state converts the bytes waiting, into the record

    def record_to(self, journal: SessionRecord | None) -> None:
        """Hand every change to ``journal`` from now on, as it is (None: to no record)."""
        self.journal = self.capture.journal = self.inputs.journal = journal

    def mark_told(self) -> None:
        """Its agent has been told how it ended (kept in the record, so a restart does not tell it again)."""
        if not self.told:
            self.told = True
            self.record_meta()

    def record_meta(self) -> None:
        """Hand the journal the metadata as it stands: what ``to_json`` says of the session besides its
        parts, how much of its output a poll has returned, and whether its agent was told how it ended."""
        if self.journal is not None:
            pending = self.output.pending
            polled = self.output.total_chars - sum(pending.sizes.values()) - pending.dropped
            self.journal.meta({**self._identity(), "polled": polled, "told": self.told})

    def record_exit(self, notice: ExitNotice | None) -> None:
        """Hand the journal how the session ended (written at once), with the exit notice queued for it."""
        if self.journal is not None:
            self.journal.exit({"exit": self.exit.to_json(), "durationMs": self.runtime_ms(),
                               "lastOutputMs": self.capture.last_ms,
                               "notice": None if notice is None else notice.to_json()})

    # -- as data --------------------------------------------------------------------------------
    def _identity(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "sessionId": self.id, "command": self.command, "name": self.name,
            "agent": self.agent, "cwd": self.cwd, "pty": self.pty, "settings": asdict(self.settings),
            "order": self.order, "startedMs": self.started_ms, "backgrounded": self.backgrounded,
            "placement": self.placement, "pid": self.pid, "containment": self.containment,
            "approval": self.approval, "started": self.exit.started, "env": self.env, "rerunOf": self.rerun_of,
        }

    def to_json(self) -> dict[str, Any]:
        """Everything a restarted host needs to show this session again, in one JSON shape: what it is,
        where it ran, its output (text and raw), inputs, end, and the settings it was admitted with."""
        return {
            **self._identity(), "durationMs": self.runtime_ms(), "output": self.capture.to_json(),
            "inputs": self.inputs.to_json(), "exit": self.exit.to_json(), "modes": self.tracked_modes.to_json(),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], on_change: Callable[[str, Session], None]) -> Session:
        """The session ``to_json`` wrote, without its live child: a finished one as it ended, a running one
        as it stood (until a launcher hands it a child again, it has no writable stdin)."""
        if d.get("format") != FORMAT:
            raise ValueError(f"not a session record of format {FORMAT}: {d.get('format')!r}")
        fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in d["settings"].items()}
        settings = ExecSettings(**fields)  # JSON turned its tuples (secrets, PATH entries) into lists
        session = cls(d["sessionId"], d["command"], d["name"], d["agent"], d["cwd"], d["pty"], settings, on_change)
        _next_order(d["order"])  # sessions started later come after it
        session.order = d["order"]
        session.started_ms = d["startedMs"]
        session.backgrounded = d["backgrounded"]
        session.placement, session.pid = Placement(d["placement"]), d["pid"]
        session.containment = None if d["containment"] is None else ContainmentKind(d["containment"])
        session.capture = OutputCapture.from_json(d["output"], lambda: on_change("output", session))
        session.inputs = InputLog.from_json(d["inputs"])
        session.exit = ExitRecord.from_json(d["exit"])
        session.approval = d.get("approval")
        session.env, session.rerun_of = dict(d.get("env") or {}), d.get("rerunOf")
        if session.exit.ended_ms is None and "started" in d:  # waiting for approval when its host died
            session.exit.started = bool(d["started"])
        session.tracked_modes = ModeTracker.from_json(d["modes"])
        now = time.monotonic()  # monotonic times do not survive a restart: rebuilt from the wall clock
        if session.exit.ended_ms is None:
            session._started_mono = now - max(0, now_ms() - session.started_ms) / 1000
        else:
            session._ended_mono = now - max(0, now_ms() - session.exit.ended_ms) / 1000
            session._started_mono = session._ended_mono - d["durationMs"] / 1000
            session.done.set()
        return session
