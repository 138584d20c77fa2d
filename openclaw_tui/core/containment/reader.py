"""A blocking reader thread for one flooding output fd: it reads at the speed of a plain read loop and hands
the event loop whole batches, each with the times its reads arrived.

The loop's own reader pays for a wake-up per read; a thread pays for it once per batch, so a flood drains
at the limit while the loop stays free. The thread gives the fd back to the loop once the flood pauses.
"""

from __future__ import annotations

import asyncio
import errno
import os
import select
import threading
import time
from collections.abc import Callable

READ_SIZE = 65536
BATCH_MAX = 1 << 20  # bytes held for the loop at most: then the thread waits, and so does the child
IDLE_S = 0.25  # a pause this long ends the flood: the fd goes back to the loop

Stamps = list[tuple[int, float]]
"""When parts of a batch were read: (position in the batch, monotonic time), one per millisecond."""


def read_some(fd: int, into: memoryview) -> int:
    """Read what waits on ``fd`` into ``into``: the byte count, 0 at the end (EIO on a PTY master means its
    slave side is gone, an end too); BlockingIOError when nothing waits."""
    try:
        return os.readv(fd, [into])
    except OSError as exc:
        if isinstance(exc, BlockingIOError) or exc.errno not in (errno.EIO, errno.EBADF):
            raise
        return 0


class ReaderThread:
    """Reads ``fd`` (non-blocking) on a thread of its own until end of file, a pause, or :meth:`stop`.

    Args:
        deliver: called on the loop with each batch and its stamps.
        ended: called on the loop once, after the last batch: True at end of file, False when the thread
            handed the fd back (a pause, or ``stop``).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, fd: int, deliver: Callable[[bytes, Stamps], None],
                 ended: Callable[[bool], None]) -> None:
        self._loop, self._fd, self._deliver, self._ended = loop, fd, deliver, ended
        self._lock = threading.Condition()
        self._parts: list[bytes | bytearray] = []
        self._stamps: Stamps = []
        self._size = 0
        self._scheduled = False
        self._stopping = False
        self._closed = False
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name=f"reader-{fd}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the thread and deliver what it read (on the loop: it returns once the thread is gone)."""
        if self._closed:
            return
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        os.write(self._wake_w, b"x")
        self._thread.join()
        self._close()
        self._take()

    def _close(self) -> None:
        self._closed = True
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        poller.register(self._wake_r, select.POLLIN)
        buf = bytearray(READ_SIZE)
        view = memoryview(buf)
        eof = False
        last_ms = -1
        idle_since = time.monotonic()
        while not self._stopping:
            try:
                n = read_some(self._fd, view)
            except BlockingIOError:
                now = time.monotonic()
                if now - idle_since >= IDLE_S:
                    break
                poller.poll(IDLE_S * 1000)
                continue
            if not n:
                eof = True
                break
            now = time.monotonic()
            idle_since = now
            ms = int(now * 1000)
            with self._lock:
                if ms != last_ms:
                    self._stamps.append((self._size, now))
                    last_ms = ms
                self._parts.append(buf[:n])
                self._size += n
                if not self._scheduled:
                    self._scheduled = True
                    self._loop.call_soon_threadsafe(self._take)
                while self._size >= BATCH_MAX and not self._stopping:
                    self._lock.wait()
        if not self._stopping:
            self._loop.call_soon_threadsafe(self._finish, eof)

    def _take(self) -> None:
        with self._lock:
            parts, stamps, self._parts, self._stamps = self._parts, self._stamps, [], []
            self._size, self._scheduled = 0, False
            self._lock.notify_all()
        if parts:
            self._deliver(b"".join(parts), stamps)

    def _finish(self, eof: bool) -> None:
        if self._closed:  # stopped meanwhile: its owner already took the rest
            return
        self._thread.join()  # it has left its loop: this returns at once
        self._close()
        self._take()
        self._ended(eof)
