"""What a live terminal view needs from a session: its raw output ring and its window size.

The core's ``Session`` provides exactly this; the view codes against the protocol so it can be tested with an
in-memory source or a real PTY, and so the terminal package never imports the core's classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from openclaw_tui.core.session import RawRing


class ScreenSource(Protocol):
    """What a screen needs from a session: its raw output and its window size (read, never set)."""

    @property
    def raw(self) -> RawRing:
        """The session's raw output ring."""
        ...

    @property
    def pty_size(self) -> tuple[int, int]:
        """(cols, rows) of the PTY now (the newest size mark in ``raw``); used when ``raw`` has no marks."""
        ...


class RawSource(ScreenSource, Protocol):
    """A session as seen by :class:`~openclaw_tui.terminal.liveview.LiveView`: a screen source to follow."""

    def add_raw_listener(self, cb: Callable[[], None]) -> Callable[[], None]:
        """Call ``cb`` on the asyncio loop after new bytes were appended; returns an unsubscribe function."""
        ...

    def resize(self, cols: int, rows: int) -> None:
        """Set the PTY window size (the program gets SIGWINCH); recorded in ``raw`` as a size mark, and raw
        listeners are called. Views never call it: only the operator's type-through or fit does."""
        ...
