"""Kernel evidence that a PTY session is waiting for input, long before the 15 s idle rule says so.

The idle rule (stdin writable and no output for a while) is what agents get, and it is slow on purpose.
On Linux the kernel can say more within a second: the terminal's foreground process group is asleep in
a read (or a select/poll) of the terminal, and if the terminal's echo is off while it waits in canonical
mode, it is almost certainly a password prompt. This is reported beside ``waitingForInput`` as a reason;
it never changes the agents' rule.
"""

from __future__ import annotations

import os
import platform
import termios

READING = "reading-terminal"
PASSWORD = "password-prompt"

# Syscall numbers of read and of the waits line editors (readline and friends) sit in before reading a
# key. epoll is left out on purpose: it is what servers idle in, and they are not waiting for a person.
_WAIT_SYSCALLS = {
    "x86_64": {0, 7, 23, 270, 271},  # read, poll, select, pselect6, ppoll
    "aarch64": {63, 72, 73},  # read, pselect6, ppoll
}.get(platform.machine(), set())
IDLE_BEFORE_CHECK_MS = 800


def _sleep_state(pid: int) -> tuple[bool, bool]:
    """``(asleep, in_an_input_wait)`` for one process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
        if state != b"S":
            return False, False
        with open(f"/proc/{pid}/syscall", "rb") as fh:
            call = fh.read().split()
    except (OSError, IndexError):
        return False, False
    return True, bool(call) and call[0].isdigit() and int(call[0]) in _WAIT_SYSCALLS


def kernel_wait_reason(master_fd: int, group: list[int]) -> str | None:
    """Why the terminal's foreground group looks blocked on input, or None.

    ``group`` is the foreground process group's live pids (from the shared process scan).
    """
    if not _WAIT_SYSCALLS or not group:
        return None
    states = [_sleep_state(pid) for pid in group]
    if not all(asleep for asleep, _ in states) or not any(waiting for _, waiting in states):
        return None  # someone is still working (or only waiting on a child)
    try:
        lflag = termios.tcgetattr(master_fd)[3]
    except termios.error:
        return READING
    if not lflag & termios.ECHO and lflag & termios.ICANON:
        return PASSWORD
    return READING


def foreground_group(master_fd: int) -> int | None:
    try:
        return os.tcgetpgrp(master_fd)
    except OSError:
        return None
