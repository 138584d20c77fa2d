"""What a frontend sees of a host and its sessions: the :class:`HostView` and :class:`SessionView` seams.

A host in this process and a mirror of one (:class:`~.remotehost.RemoteHost`) both provide them, so the
dashboard never asks which it has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from openclaw_tui.core.session import ExitRecord, InputLog, Listener, Output
from openclaw_tui.core.tools import InputSent
from openclaw_tui.core.vt import ModeTracker
from openclaw_tui.terminal import RawSource


class SessionView(RawSource, Protocol):
    """One session as a frontend reads it: what it is, its state, its output and who typed what.

    Its raw output and size come from :class:`~openclaw_tui.terminal.source.RawSource` (what a terminal
    view follows). Input goes through the host (:meth:`HostView.send_input`), never straight to the session.
    """

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def command(self) -> str: ...
    @property
    def agent(self) -> str | None:
        """Who started it (None: the operator)."""
    @property
    def cwd(self) -> str: ...
    @property
    def node(self) -> str | None:
        """The node it runs on (its id is then ``NODE/ID``); None: the host the dashboard runs on."""
    @property
    def started_ms(self) -> int:
        """When it started (ms since the epoch): sessions of several hosts are listed newest first by it."""
    @property
    def pty(self) -> bool: ...
    @property
    def placement(self) -> str:
        """Where it runs: ``sandbox`` or ``gateway``."""
    @property
    def elevated(self) -> bool: ...
    @property
    def backgrounded(self) -> bool:
        """Listed, and kept after it ends (a foreground exec's run is not, until it leaves its yield window)."""
    @property
    def running(self) -> bool: ...
    @property
    def status(self) -> str:
        """``running``, ``completed``, ``failed`` or ``approval-pending``, as agents read it."""
    @property
    def exit(self) -> ExitRecord: ...
    @property
    def stdin_writable(self) -> bool: ...
    @property
    def waiting_for_input(self) -> bool:
        """Waiting by any evidence: the kernel's (``waiting_reason``) or the idle rule's."""
    @property
    def waiting_reason(self) -> str | None: ...
    @property
    def prompt(self) -> str | None:
        """What a waiting session asks: its last screen line, masked (None unless it waits)."""
    @property
    def muted(self) -> bool:
        """The operator muted it (or its agent): no notification of it."""
    @property
    def resources(self) -> dict[str, Any] | None:
        """Its last figures (``details.resources``: CPU, memory, processes, ports); None before any reading."""
    @property
    def rerun_of(self) -> str | None:
        """The session the operator re-ran as this one."""
    @property
    def output(self) -> Output: ...
    @property
    def inputs(self) -> InputLog: ...
    @property
    def tracked_modes(self) -> ModeTracker:
        """The terminal modes key encoding and paste follow (cursor keys, bracketed paste)."""

    def runtime_ms(self) -> int: ...

    def details(self) -> dict[str, Any]:
        """Everything results say of it (``details``), as it stands."""
        ...


class HostView(Protocol):
    """A host as a frontend uses it: its sessions, their events, tool calls and the operator's input."""

    def start(self) -> None: ...

    async def close(self) -> None:
        """Let go of the host: a mirrored one only disconnects; one in this process (a test's) ends its sessions."""

    async def call(self, call: Mapping[str, Any] | str, agent: str | None = None) -> dict[str, Any]:
        """A tool call, answered as agents are answered (``agent`` None: the operator)."""
        ...

    def session(self, session_id: str, agent: str | None = None) -> SessionView | None: ...

    def sessions(self, agent: str | None = None) -> Sequence[SessionView]:
        """Every session in scope, newest first."""
        ...

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """A snapshot now, then every session event (:mod:`~openclaw_tui.core.session.events`); returns the
        unsubscribe function."""
        ...

    async def send_input(self, session_id: str, data: bytes, source: str, action: str) -> InputSent:
        """Input from this frontend, through the core's one input path; raises
        :class:`~openclaw_tui.core.tools.process_input.InputRefused` when none of it can be taken."""
        ...

    def send_input_now(self, session_id: str, data: bytes, source: str, action: str) -> InputSent | None:
        """The same input sent at once if nothing has to wait, sparing a keystroke a turn of the event loop;
        None, with nothing sent, when it must go by :meth:`send_input`."""
        ...

    async def mute(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """Mute (or unmute) a session or an agent's sessions: the host's notifications leave them out; the
        result is a tool result (``failed`` naming the problem)."""
        ...

    @property
    def node_states(self) -> Mapping[str, str | None]:
        """The nodes whose sessions are shown beside this host's, each with why it does not answer now
        (None: it does); empty without nodes."""
        ...

    @property
    def journal_status(self) -> dict[str, Any]:
        """``{"saving": bool, "problem": str | None}``: whether the host saves its sessions to disk, and why
        not when it should."""
        ...

    def pending_approvals(self) -> Sequence[Mapping[str, Any]]:
        """The exec approval requests waiting for the operator, oldest first (a node's with ``NODE/`` ids)."""
        ...

    async def decide_approval(self, approval_id: str, decision: str, reason: str | None = None,
                              patterns: list[dict[str, Any]] | None = None,
                              where: dict[str, Any] | None = None) -> dict[str, Any]:
        """The operator's decision on a request (``allow-once``, ``allow-always``, ``deny``), answered as a
        tool result: a failed one says why it could not be taken."""
        ...

    def watch_figures(self) -> Callable[[], None]:
        """This frontend shows the sessions' figures (``details.resources``): the host reads them every 2 s
        until the returned function is called (and not at all while no frontend does)."""
        ...

    def attend(self) -> Callable[[], None]:
        """This frontend answers approval requests (agents read ``operatorAttached``) until the returned
        function is called."""
        ...
