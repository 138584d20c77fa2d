"""What launching a session found out, and the handles its launcher keeps while the run lives."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .enclosures import Enclosure
from .runner import Child


@dataclass
class SessionRun:
    """A started run: facts for the session, handles for the launcher."""

    child: Child
    placement: str  # sandbox or gateway
    enclosure: Enclosure
    pty_size: tuple[int, int] | None  # (cols, rows) the PTY was opened with; None for pipes
    program_started: bool = False  # sandboxed: the program inside can hear signals (known once, remembered)
    ending: asyncio.Future[None] | None = None  # the one termination every kill of the run shares
    ending_since: float | None = None  # when that termination began (monotonic): a re-exec resumes its grace
    deadline: float | None = None  # when the run times out (monotonic; None: never): a re-exec keeps it
