"""One supervised command: its process, its output, its input history and its state.

A session is what both an agent (through ``process``) and the operator (through the dashboard) look at.
It turns the runner's raw bytes into three things at once — the raw ring for the terminal view, the
terminal modes that key encoding needs, and the plain text agents read — and answers the questions both
sides ask: is it still running, how did it end, is it waiting for input, who typed what into it.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .buffers import STDERR, STDOUT, Output
from .config import ExecSettings
from .inputwait import echo_hidden
from .modes import ModeTracker
from .queries import QueryScanner
from .rawring import RawRing
from .runner import Child
from .sandbox import GATEWAY
from .text import StreamText

if TYPE_CHECKING:
    from .enclosure import Enclosure

RUNNING = "running"
COMPLETED = "completed"
FAILED = "failed"
INPUT_HISTORY = 200
HIDDEN_PREVIEW = "•••"  # what an input record shows of input typed with echo off
PREVIEW_CHARS = 120  # of each input kept in its record
TYPED_LINE_GAP_S = 5.0  # keystrokes further apart than this start a new record
_ORDER = itertools.count()
TEXT_DELAY_S = 0.05  # how long raw bytes may wait before they are turned into text
BACKLOG_MAX = 4 << 20  # raw bytes waiting for conversion before it happens at once
DEFAULT_PTY_SIZE = (120, 30)  # until the runner records the size it opened the PTY with

Replier = Callable[[int, bytes], bytes]
"""The reply to a terminal query that ends at a raw-ring offset (see :mod:`.queries`)."""


@dataclass(frozen=True)
class InputRecord:
    """One piece of input and who sent it (an agent's name, or ``operator``)."""

    at: float
    source: str
    action: str
    preview: str
    nbytes: int

    def to_json(self) -> dict[str, Any]:
        """As ``log`` results and the host protocol give it (``bytes`` for ``nbytes``)."""
        return {"at": self.at, "source": self.source, "action": self.action, "preview": self.preview,
                "bytes": self.nbytes}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> InputRecord:
        return cls(d["at"], d["source"], d["action"], d["preview"], d["bytes"])


def now_ms() -> int:
    return int(time.time() * 1000)


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


class Session:
    """A command started by ``exec``; owned by the registry."""

    def __init__(
        self,
        session_id: str,
        command: str,
        name: str,
        agent: str | None,
        cwd: str,
        pty: bool,
        settings: ExecSettings,
        on_change: Callable[[str, Session], None],
    ) -> None:
        self.id = session_id
        self.command = command
        self.name = name
        self.agent = agent
        self.cwd = cwd
        self.pty = pty
        self.settings = settings
        self.placement = GATEWAY  # or SANDBOX: where it runs (``details.host``), set when launched
        self._on_change = on_change
        self.child: Child | None = None
        self.pid: int | None = None
        self.started_ms = now_ms()
        self.order = next(_ORDER)  # start order: two sessions may share a millisecond
        self._started_mono = time.monotonic()
        self.ended_ms: int | None = None
        self._ended_mono: float | None = None
        self.backgrounded = False
        self.elevated = settings.elevated  # admitted to run outside the sandbox (its placement is then gateway)
        self.exit_code: int | None = None
        self.exit_signal: str | None = None
        self.timed_out = False
        self.killed_by: str | None = None
        self.cleanup = "pending"
        self.enclosure: Enclosure | None = None  # how it is contained (set when spawned)
        self.leftover: list[int] = []  # pids still there when its cleanup could not be confirmed
        self.ending: asyncio.Future[None] | None = None
        self.program_started = False  # sandboxed runs: the program inside can hear signals
        self._output = Output(settings.max_output_chars, settings.pending_max_chars)
        self._backlog: list[tuple[str, bytes]] = []  # raw bytes not yet turned into text
        self._backlog_size = 0
        self.raw = RawRing(settings.raw_ring_bytes)
        self.tracked_modes = ModeTracker()  # what key encoding and paste need (the screen has its own)
        self.queries = QueryScanner()
        self.replier: Replier | None = None  # answers terminal queries (set by the host for PTY runs)
        self._text = {STDOUT: StreamText(), STDERR: StreamText()}
        self.last_output_ms: int | None = None
        self._last_output_mono = self._started_mono
        self.inputs: deque[InputRecord] = deque(maxlen=INPUT_HISTORY)
        self._typed_line_open = False  # the last input was a keystroke typed through, mid-line
        self.waiting_reason: str | None = None  # the kernel's evidence that it waits (see update_waiting)
        self._waiting_told: tuple[bool, str | None] = (False, None)  # the verdict the last check reported
        self.done = asyncio.Event()
        self.output_event = asyncio.Event()
        self._raw_listeners: list[Callable[[], None]] = []

    # -- ingest ---------------------------------------------------------------------------------
    def on_data(self, stream: str, data: bytes) -> None:
        """Runner callback: raw bytes from the child, on the loop.

        The raw ring and the mode scan see every byte at once; turning bytes into text waits a moment
        (or until someone reads the output), so that a flood is converted once per batch and only the
        part that the retention caps would keep is converted at all.
        """
        self.raw.append(data)
        if self.pty:
            self.tracked_modes.feed(data)
            if self.replier is not None:
                for back, query in self.queries.feed(data):
                    self.write_reply(self.replier(self.raw.end - back, query))
        if not self._backlog:
            asyncio.get_running_loop().call_later(TEXT_DELAY_S, self._convert_backlog)
        self._backlog.append((stream, data))
        self._backlog_size += len(data)
        if self._backlog_size > BACKLOG_MAX:  # a pipe can outrun the timer by far: bound the memory
            self._convert_backlog()
        self.last_output_ms = now_ms()
        self._last_output_mono = time.monotonic()
        self.waiting_reason = None  # output: the program is working again; the next check looks anew
        for listener in list(self._raw_listeners):
            listener()

    @property
    def output(self) -> Output:
        """The session's text output, brought up to date with every byte received so far."""
        if self._backlog:
            self._convert_backlog()
        return self._output

    def _convert_backlog(self) -> None:
        if not self._backlog:
            return
        backlog, self._backlog, size, self._backlog_size = self._backlog, [], self._backlog_size, 0
        keep = self._output.max_chars + 65536  # bytes enough to refill the tail (less if much is stripped)
        if size > keep and len(self._output.head) >= self._output.head_max:
            backlog = self._skip_to_tail(backlog, size - keep)
        for stream, data in backlog:
            self._append_text(stream, self._text[stream].feed(data))

    def _skip_to_tail(self, backlog: list[tuple[str, bytes]], skip: int) -> list[tuple[str, bytes]]:
        """Drop the oldest ``skip`` bytes unconverted: the caps would discard their text anyway.

        The cut is moved to just after a newline so it never splits a UTF-8 character or (in practice)
        an escape sequence; what was held and retained before the cut is dropped too, so the tail stays
        one continuous stretch of output. Dropped characters are counted as bytes (close for text).
        """
        dropped = 0
        while backlog and skip >= len(backlog[0][1]):
            skip -= len(backlog[0][1])
            dropped += len(backlog.pop(0)[1])
        if backlog:
            stream, data = backlog[0]
            cut = data.find(b"\n", skip)
            cut = len(data) if cut < 0 else cut + 1
            dropped += cut
            backlog[0] = (stream, data[cut:])
        self._text = {STDOUT: StreamText(), STDERR: StreamText()}
        self._output.skip(dropped)
        return backlog

    def _append_text(self, stream: str, text: str) -> None:
        if text:
            self._output.append(stream, text)
            self.output_event.set()
            self._on_change("output", self)

    def flush_text(self) -> None:
        """End of stream: decode whatever the per-stream decoders held back."""
        self._convert_backlog()
        for stream, decoder in self._text.items():
            self._append_text(stream, decoder.flush())

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
        return self.raw.size or DEFAULT_PTY_SIZE

    @pty_size.setter
    def pty_size(self, size: tuple[int, int]) -> None:
        self.raw.resize(*size)

    def resize(self, cols: int, rows: int) -> None:
        """Set the PTY's window size (the program gets SIGWINCH), recorded in the raw ring where it happened.

        Raw listeners hear of it as of new output: a view must redraw at the new size.
        """
        if (cols, rows) == self.pty_size:
            return  # the kernel would not signal the program either
        self.raw.resize(cols, rows)
        if self.child is not None:
            self.child.resize(cols, rows)
        for listener in list(self._raw_listeners):
            listener()

    # -- input ----------------------------------------------------------------------------------
    @property
    def stdin_writable(self) -> bool:
        return self.running and self.child is not None and self.child.stdin_open

    def send(self, data: bytes, source: str, action: str) -> int:
        """Queue input for the child and record who sent it; returns bytes written at once.

        Input typed at a password prompt (the terminal's echo off) is recorded as ``•••``: the transcript
        says who answered, never the secret, which agents and dashboards could read back. Keystrokes typed
        through (action ``type``) join the record of the line they belong to, so a typed answer is one
        record, as a written one is, and a hidden one does not show its length keystroke by keystroke.
        """
        assert self.child is not None
        fd = self.child.stdin_fd
        hidden = self.pty and fd is not None and echo_hidden(fd)
        sent = self.child.write(data)
        preview = HIDDEN_PREVIEW if hidden else data[: PREVIEW_CHARS * 4].decode("utf-8", "replace")  # not a 10 MB paste
        now = time.time()
        last = self.inputs[-1] if self.inputs else None
        if (action == "type" and self._typed_line_open and last is not None
                and (last.source, last.action) == (source, action) and now - last.at < TYPED_LINE_GAP_S
                and len(last.preview) < PREVIEW_CHARS):
            if HIDDEN_PREVIEW in (preview, last.preview):
                preview = HIDDEN_PREVIEW
            else:
                preview = last.preview + preview
            self.inputs[-1] = InputRecord(now, source, action, preview[:PREVIEW_CHARS], last.nbytes + len(data))
        else:
            self.inputs.append(InputRecord(now, source, action, preview[:PREVIEW_CHARS], len(data)))
        self._typed_line_open = action == "type" and not data.endswith((b"\r", b"\n"))
        self._on_change("input", self)
        return sent

    # -- state ----------------------------------------------------------------------------------
    def background(self) -> None:
        """It left its exec call's yield window: listed, kept after it ends, its agent notified of the exit."""
        self.backgrounded = True

    @property
    def running(self) -> bool:
        return self.ended_ms is None

    @property
    def status(self) -> str:
        if self.running:
            return RUNNING
        if self.timed_out or self.exit_signal is not None or self.exit_code in (126, 127):
            return FAILED
        return COMPLETED

    def runtime_ms(self) -> int:
        end = self._ended_mono if self._ended_mono is not None else time.monotonic()
        return int((end - self._started_mono) * 1000)

    def idle_ms(self) -> int:
        return int((time.monotonic() - self._last_output_mono) * 1000)

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
        code = os.waitstatus_to_exitcode(wait_status)
        if code < 0:
            self.exit_signal = signal.Signals(-code).name
        else:
            self.exit_code = code
        self.ended_ms = now_ms()
        self._ended_mono = time.monotonic()
        self.waiting_reason = None

    def details(self) -> dict[str, Any]:
        """The machine-readable state shared by every result about this session."""
        idle = self.idle_ms()
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
            "endedAt": iso(self.ended_ms),
            "durationMs": self.runtime_ms(),  # how long it has run: until now, or until it ended
            "exitCode": self.exit_code,
            "exitSignal": self.exit_signal,
            "timedOut": self.timed_out,
            "killedBy": self.killed_by,
            "cleanup": self.cleanup,
            "leftoverPids": self.leftover,
            "containment": self.enclosure.kind if self.enclosure is not None else None,
            "truncated": self.output.truncated,
            "droppedChars": self.output.gap(),
            "stdinWritable": self.stdin_writable,
            "waitingForInput": self.waiting_for_input,
            "waitingReason": self.waiting_reason,
            "idleMs": idle,
            "lastOutputAt": iso(self.last_output_ms),
            "ptySize": {"cols": self.pty_size[0], "rows": self.pty_size[1]} if self.pty else None,
        }
