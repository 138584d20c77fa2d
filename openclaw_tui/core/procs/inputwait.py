"""Kernel evidence that a PTY session is waiting for input, long before the 15 s idle rule says so.

The terminal's foreground group asleep reading it means waiting; with echo off in canonical mode, a password
prompt.
"""

from __future__ import annotations

import os
import platform
import termios

READING = "reading-terminal"
PASSWORD = "password-prompt"

# Syscall numbers of read and of the waits line editors (readline and friends) sit in before reading a
# key, each with the argument that holds its timeout (None: it has none). Only a wait *without* a timeout
# counts: a program that polls with one (top between refreshes) is not stuck, it is pacing itself. epoll
# is left out on purpose: it is what servers idle in, and they are not waiting for a person.
_POINTER, _MILLIS = "pointer", "millis"
_WAIT_SYSCALLS: dict[int, tuple[int, str] | None] = {
    "x86_64": {0: None, 7: (3, _MILLIS), 23: (5, _POINTER), 270: (5, _POINTER), 271: (3, _POINTER)},
    "aarch64": {63: None, 72: (5, _POINTER), 73: (3, _POINTER)},
}.get(platform.machine(), {})
IDLE_BEFORE_CHECK_MS = 800


def kernel_evidence_available() -> bool:
    """Whether this machine's syscalls are known, so the kernel can be asked what a program waits on."""
    return bool(_WAIT_SYSCALLS)


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
    if not call or not call[0].isdigit() or int(call[0]) not in _WAIT_SYSCALLS:
        return True, False
    timeout = _WAIT_SYSCALLS[int(call[0])]
    if timeout is None:
        return True, True
    index, kind = timeout
    try:
        value = int(call[index], 16)
    except (IndexError, ValueError):
        return True, False
    if kind == _POINTER:
        return True, value == 0  # no timeout given: waits until input comes
    return True, value & 0x80000000 != 0  # a negative poll timeout: wait for ever


def kernel_wait_reason(master_fd: int, group: list[int]) -> str | None:
    """Why the terminal's foreground group looks blocked on input, or None.

    ``group`` is the foreground process group's live pids (from the shared process scan).
    """
    if not _WAIT_SYSCALLS or not group:
        return None
    states = [_sleep_state(pid) for pid in group]
    if not all(asleep for asleep, _ in states) or not any(waiting for _, waiting in states):
        return None  # someone is still working (or only waiting on a child)
    return PASSWORD if echo_hidden(master_fd) else READING


def echo_hidden(master_fd: int) -> bool:
    """Whether the terminal takes lines without echoing them: how password prompts read (``getpass``,
    ``sudo``, ``ssh``). Full-screen programs turn echo off too, but also line editing, so they don't count."""
    lflag = _local_flags(master_fd)
    return not lflag & termios.ECHO and bool(lflag & termios.ICANON)


def reads_lines(master_fd: int) -> bool:
    """Whether the terminal is in line mode (canonical), where Ctrl-D ends input only at a line's start."""
    return bool(_local_flags(master_fd) & termios.ICANON)


def _local_flags(master_fd: int) -> int:
    try:
        return int(termios.tcgetattr(master_fd)[3])
    except termios.error:
        return 0


def foreground_group(master_fd: int) -> int | None:
    try:
        return os.tcgetpgrp(master_fd)
    except OSError:
        return None
