"""What launching a session found out, and the handles its launcher keeps while the run lives."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import StrEnum

from .enclosures import Enclosure
from .runner import Child


class Placement(StrEnum):
    """Where a run executes (``details.host``): bubblewrap's sandbox, or the host itself. A node's session
    shows the placement it got on its node, and ``details.node`` names the node."""

    SANDBOX = "sandbox"
    GATEWAY = "gateway"


@dataclass
class SessionRun:
    """A started run: facts for the session, handles for the launcher."""

    child: Child
    placement: Placement
    enclosure: Enclosure
    pty_size: tuple[int, int] | None  # (cols, rows) the PTY was opened with; None for pipes
    program_started: bool = False  # sandboxed: the program inside can hear signals (known once, remembered)
    ending: asyncio.Future[None] | None = None  # the one termination every kill of the run shares
    ending_since: float | None = None  # when that termination began (monotonic): a re-exec resumes its grace
    deadline: float | None = None  # when the run times out (monotonic; None: never): a re-exec keeps it
