"""Raw output for live views and terminal replies: two real ``RawSource`` kinds, and terminal queries.

``MemorySource`` holds a real ``RawRing`` that the test appends to, and records resizes (as size marks in
the ring, the way a session does, and in ``resizes``).
``PtySource`` runs a real child in a PTY and drains it on the asyncio loop the way the core does
(``loop.add_reader`` + ``os.read``, ``EIO`` meaning end of file); it is test code, not product code.
``ANSWERS`` pairs each query with xterm's answer, and ``ASKER`` is a program that asks four of them.
"""

from __future__ import annotations

import asyncio
import errno
import os
from collections.abc import Callable

import ptyprocess

from openclaw_tui.core.session.rawring import RawRing

ANSWERS_AFTER = b"\r\nabc"
"""Output that leaves the cursor on row 2, column 4, where ``ANSWERS`` are given."""
ANSWERS = [
    (b"\x1b[6n", b"\x1b[2;4R"),
    (b"\x1b[?6n", b"\x1b[?2;4;1R"),
    (b"\x1b[5n", b"\x1b[0n"),
    (b"\x1b[c", b"\x1b[?62;22c"),
    (b"\x1b[0c", b"\x1b[?62;22c"),
    (b"\x1b[>c", b"\x1b[>1;10;0c"),
    (b"\x1b[>0c", b"\x1b[>1;10;0c"),
]
"""Each query a terminal answers, with the answer xterm gives."""

ASKER = r"""
import os, sys, tty
fd = sys.stdin.fileno()
tty.setraw(fd)
def ask(query, last):
    os.write(1, query)
    got = b""
    while not got.endswith(last):
        got += os.read(fd, 1)
    return got.replace(b"\x1b", b"ESC")
os.write(1, b"abc")
answers = [ask(b"\x1b[6n", b"R"), ask(b"\x1b[c", b"c"), ask(b"\x1b[5n", b"n"), ask(b"\x1b[?6n", b"R")]
os.write(1, b"\r\n" + b" ".join(answers) + b"\r\n")
"""
"""A program (``python -c ASKER`` in a PTY) that asks four of them, one at a time, and prints the answers."""


class _Listeners:
    def __init__(self) -> None:
        self.listeners: list[Callable[[], None]] = []

    def add_raw_listener(self, cb: Callable[[], None]) -> Callable[[], None]:
        self.listeners.append(cb)
        return lambda: self.listeners.remove(cb)

    def _notify(self) -> None:
        for cb in list(self.listeners):
            cb()


class _Sized(_Listeners):
    raw: RawRing

    @property
    def pty_size(self) -> tuple[int, int]:
        size = self.raw.size
        assert size is not None
        return size


class MemorySource(_Sized):
    def __init__(self, cols: int = 80, rows: int = 24, capacity: int = 1 << 20) -> None:
        super().__init__()
        self.raw = RawRing(capacity)
        self.raw.resize(cols, rows)
        self.resizes: list[tuple[int, int]] = []

    def emit(self, data: bytes) -> None:
        """The child printed ``data``."""
        self.raw.append(data)
        self._notify()

    def resize(self, cols: int, rows: int) -> None:
        self.raw.resize(cols, rows)
        self.resizes.append((cols, rows))
        self._notify()


class PtySource(_Sized):
    def __init__(self, argv: list[str], cols: int = 80, rows: int = 24) -> None:
        super().__init__()
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
        self.child = ptyprocess.PtyProcess.spawn(argv, dimensions=(rows, cols), env=env)
        self.raw = RawRing()
        self.raw.resize(cols, rows)
        self.eof = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.child.fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.child.fd, 65536)
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise
            data = b""
        if not data:
            self._loop.remove_reader(self.child.fd)
            self.eof.set()
            return
        self.raw.append(data)
        self._notify()

    def resize(self, cols: int, rows: int) -> None:
        self.raw.resize(cols, rows)
        self.child.setwinsize(rows, cols)  # the kernel sends SIGWINCH to the child's process group
        self._notify()

    def close(self) -> None:
        if not self.eof.is_set():
            self._loop.remove_reader(self.child.fd)
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close(force=True)
