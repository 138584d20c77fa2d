"""Starting a child under a pipe or a PTY and moving its bytes on the event loop.

Output is drained by ``loop.add_reader``, stdin by ``loop.add_writer``, and the exit is seen through a pidfd:
no thread per session and no blocking ``waitpid``. A wake-up reads until the fd is drained or its slice of
time is spent, into one shared buffer, stamping the reads once per millisecond.

A blocking reader thread per flooding stream was tried (one wake-up per batch instead of per read) and
measured slower on a 2-core machine, in drain and in keystroke latency alike: its reads wait for the GIL
while the loop handles the batch before, so the PTY's small buffer fills and the child blocks.
"""

from __future__ import annotations

import asyncio
import base64
import errno
import fcntl
import os
import struct
import subprocess
import termios
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ptyprocess

from .preexec import NO_ENTRY, Entry, in_child, launcher

READ_SIZE = 65536
MAX_BATCH = 1 << 20  # bytes read per wake-up at most
READ_SLICE_S = 0.002  # time one wake-up may spend reading: a flood never holds the loop for long
MAX_QUEUED_INPUT = 64 << 20

TIOCGPTN = getattr(termios, "TIOCGPTN", 0x80045430)  # the PTY number of a master; Python's termios lacks it
Stamps = list[tuple[int, float]]
"""When parts of a batch were read: (position in the batch, monotonic time), one per millisecond."""
DataCallback = Callable[[str, bytes, Stamps], None]
_READ_VIEW = memoryview(bytearray(MAX_BATCH))


def read_some(fd: int, into: memoryview) -> int:
    """Read what waits on ``fd`` into ``into``: the byte count, 0 at the end (EIO on a PTY master means its
    slave side is gone, an end too); BlockingIOError when nothing waits."""
    try:
        return os.readv(fd, [into])
    except OSError as exc:
        if isinstance(exc, BlockingIOError) or exc.errno not in (errno.EIO, errno.EBADF):
            raise
        return 0


class Child:
    """A running child process with its output fds registered on the loop.

    ``on_data(stream, data, stamps)`` receives raw bytes (``stream`` is "stdout" or "stderr"; a PTY merges
    both into "stdout") and when they were read (:data:`.reader.Stamps`). ``exited`` resolves to the wait status once the leader has been reaped;
    ``streams_closed`` is set when every output fd reached end of file.
    """

    def __init__(self, pid: int, pty: bool, on_data: DataCallback, keepalive: object = None,
                 status: int | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        self.pid = pid
        self.pgid = pid  # every child leads its own session and group
        self.pty = pty
        self.on_data = on_data
        self.exited: asyncio.Future[int] = self.loop.create_future()
        self.streams_closed = asyncio.Event()
        self.stdin_fd: int | None = None
        self._keepalive = keepalive  # the Popen/PtyProcess object; dropping it early may reap our child
        self._readers: dict[int, str] = {}
        self._queue: deque[memoryview] = deque()
        self.queued = 0
        self._pidfd = -1
        if status is not None:  # reaped already (by the image of the host before a re-exec)
            self.exited.set_result(status)
            return
        self._pidfd = os.pidfd_open(pid)
        self.loop.add_reader(self._pidfd, self._on_pidfd)

    # -- output ---------------------------------------------------------------------------------
    def watch(self, fd: int, stream: str) -> None:
        os.set_blocking(fd, False)
        self._readers[fd] = stream
        self.loop.add_reader(fd, self._on_readable, fd)

    def _on_readable(self, fd: int) -> None:
        # Reads land in one shared buffer (callbacks never overlap on the loop's thread), so a flood of
        # small PTY reads costs no allocation per read, only one copy per wake-up.
        view = _READ_VIEW
        total = 0
        eof = False
        stamps: Stamps = []
        now = time.monotonic()
        deadline = now + READ_SLICE_S
        while total < MAX_BATCH - READ_SIZE and (not total or now < deadline):
            try:
                n = read_some(fd, view[total : total + READ_SIZE])
            except BlockingIOError:
                break
            if not n:
                eof = True
                break
            if not stamps or int(now * 1000) != int(stamps[-1][1] * 1000):
                stamps.append((total, now))
            total += n
            now = time.monotonic()
        if total:
            self.on_data(self._readers[fd], bytes(view[:total]), stamps)
        if eof:
            self._close_reader(fd)

    def _close_reader(self, fd: int) -> None:
        if fd not in self._readers:
            return
        self.loop.remove_reader(fd)
        del self._readers[fd]
        if fd == self.stdin_fd:  # PTY: one fd for both directions
            self._drop_stdin()
        os.close(fd)
        if not self._readers:
            self.streams_closed.set()

    def stream_links(self) -> set[str]:
        """What ``/proc/<pid>/fd`` shows for the child's end of each output stream still open: the pipe
        (``pipe:[inode]``, the same for both ends) or the PTY's terminal (``/dev/pts/N``)."""
        links = set()
        for fd in self._readers:
            if self.pty:
                number = struct.unpack("I", fcntl.ioctl(fd, TIOCGPTN, b"\0\0\0\0"))[0]
                links.add(f"/dev/pts/{number}")
            else:
                links.add(f"pipe:[{os.fstat(fd).st_ino}]")
        return links

    def close_streams(self) -> None:
        """Stop reading (output still held open by an escaped descendant is abandoned)."""
        for fd in list(self._readers):
            self._close_reader(fd)

    # -- exit -----------------------------------------------------------------------------------
    def _on_pidfd(self) -> None:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # someone else reaped it; we cannot know how it ended
            pid, status = self.pid, 255 << 8
        if pid == 0:
            return
        self.loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        self._pidfd = -1
        keep = self._keepalive
        if isinstance(keep, subprocess.Popen):
            keep.returncode = os.waitstatus_to_exitcode(status)
        if not self.exited.done():
            self.exited.set_result(status)

    # -- input ----------------------------------------------------------------------------------
    @property
    def stdin_open(self) -> bool:
        return self.stdin_fd is not None

    def write(self, data: bytes) -> int:
        """Queue ``data`` for the child's stdin; returns how many bytes went out at once."""
        if self.stdin_fd is None:
            raise BrokenPipeError("stdin is closed")
        if self.queued + len(data) > MAX_QUEUED_INPUT:
            raise BufferError(f"input queue full ({self.queued} bytes still waiting for the program to read)")
        sent = 0
        if not self._queue:
            sent = self._try_write(memoryview(data))
        if sent < len(data):
            self._queue.append(memoryview(data)[sent:])
            self.queued += len(data) - sent
            self.loop.add_writer(self.stdin_fd, self._on_writable)
        return sent

    def _try_write(self, view: memoryview) -> int:
        assert self.stdin_fd is not None
        try:
            n = os.write(self.stdin_fd, view)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._drop_stdin()
            return 0
        return n

    def _on_writable(self) -> None:
        while self._queue and self.stdin_fd is not None:
            head = self._queue[0]
            n = self._try_write(head)
            self.queued -= n
            if n < len(head):
                self._queue[0] = head[n:]
                return
            self._queue.popleft()
        if self.stdin_fd is not None:
            self.loop.remove_writer(self.stdin_fd)

    def _drop_stdin(self) -> None:
        if self.stdin_fd is None:
            return
        self.loop.remove_writer(self.stdin_fd)
        if not self.pty:
            os.close(self.stdin_fd)
        self.stdin_fd = None
        self._queue.clear()
        self.queued = 0

    # -- control --------------------------------------------------------------------------------
    def resize(self, cols: int, rows: int) -> None:
        """Set the PTY window size; the kernel sends SIGWINCH to the foreground group."""
        if self.pty and self.stdin_fd is not None:
            fcntl.ioctl(self.stdin_fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def release(self) -> None:
        """Forget the process object once the leader is reaped and the streams are closed."""
        self._keepalive = None

    # -- handing over to the next image of the host (a re-exec in place) -------------------------
    def detach(self) -> None:
        """Stop watching the child, keeping every fd: its output waits in the kernel's buffers meanwhile."""
        for fd in self._readers:
            self.loop.remove_reader(fd)
        if self._pidfd >= 0:
            self.loop.remove_reader(self._pidfd)
        if self.stdin_fd is not None:
            self.loop.remove_writer(self.stdin_fd)

    def attach(self) -> None:
        """Watch it again after :meth:`detach` (a handover that did not happen)."""
        for fd in self._readers:
            self.loop.add_reader(fd, self._on_readable, fd)
        if self._pidfd >= 0:
            self.loop.add_reader(self._pidfd, self._on_pidfd)
        if self._queue and self.stdin_fd is not None:
            self.loop.add_writer(self.stdin_fd, self._on_writable)

    @property
    def fds(self) -> set[int]:
        """The fds the next image must keep: each output stream's, and stdin's (a PTY's master is both)."""
        return set(self._readers) | ({self.stdin_fd} if self.stdin_fd is not None else set())

    def handover(self) -> dict[str, Any]:
        """What the next image needs to adopt this child, once detached: its fds and the streams they carry,
        the input still queued, and its wait status if it was reaped already."""
        return {"pid": self.pid, "pty": self.pty, "readers": {str(fd): s for fd, s in self._readers.items()},
                "stdin": self.stdin_fd, "queued": base64.b64encode(b"".join(self._queue)).decode(),
                "status": self.exited.result() if self.exited.done() else None}

    @classmethod
    def adopt(cls, d: dict[str, Any], on_data: DataCallback) -> Child:
        """The child :meth:`handover` described, started by the previous image of this host. It is still our
        child (an exec keeps the pid), so its pidfd is opened again by pid and its exit status collected as
        before; a child that exited meanwhile is a zombie until then."""
        try:
            child = cls(d["pid"], d["pty"], on_data, status=d["status"])
        except ProcessLookupError:  # cannot happen to our own unreaped child; never lose the session over it
            child = cls(d["pid"], d["pty"], on_data, status=255 << 8)
        for fd in (*map(int, d["readers"]), *([d["stdin"]] if d["stdin"] is not None else [])):
            os.set_inheritable(fd, False)  # kept across the exec only: no later child inherits it
        for fd, stream in d["readers"].items():
            child.watch(int(fd), stream)
        if not child._readers:
            child.streams_closed.set()
        child.stdin_fd = d["stdin"]
        queued = base64.b64decode(d["queued"])
        if queued and child.stdin_fd is not None:
            child._queue.append(memoryview(queued))
            child.queued = len(queued)
            child.loop.add_writer(child.stdin_fd, child._on_writable)
        return child


def spawn_pipe(
    argv: Sequence[str], cwd: str, env: Mapping[str, str], on_data: DataCallback, entry: Entry = NO_ENTRY
) -> Child:
    """Start a child with stdin closed (end of file at once) and stdout/stderr on pipes."""
    launched = launcher(entry, argv)
    try:
        proc = subprocess.Popen(
            launched if launched is not None else list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            preexec_fn=None if launched is not None else in_child(entry),  # noqa: PLW1509 - os calls only
        )
    except subprocess.SubprocessError as exc:  # how Popen reports a failure in the child's setup
        raise OSError(f"the child could not join its cgroup or arm its parent-death signal ({exc})") from exc
    assert proc.stdout is not None and proc.stderr is not None
    child = Child(proc.pid, pty=False, on_data=on_data, keepalive=proc)
    for stream, fileobj in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        child.watch(os.dup(fileobj.fileno()), stream)
        fileobj.close()
    return child


def spawn_pty(
    argv: Sequence[str], cwd: str, env: Mapping[str, str], on_data: DataCallback, cols: int, rows: int,
    entry: Entry = NO_ENTRY,
) -> Child:
    """Start a child on a new PTY that is its controlling terminal (own session and group)."""
    proc = ptyprocess.PtyProcess.spawn(
        list(argv), cwd=cwd, env=dict(env), dimensions=(rows, cols), preexec_fn=in_child(entry, pty=True)
    )
    fd = os.dup(proc.fd)
    proc.fileobj.close()
    proc.closed = True  # we own the pid from here: its __del__ would sleep and signal a reaped pid
    child = Child(proc.pid, pty=True, on_data=on_data)
    child.stdin_fd = fd
    child.watch(fd, "stdout")
    return child
