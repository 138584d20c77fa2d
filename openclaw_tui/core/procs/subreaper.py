"""The host as a child subreaper, for hosts that cannot make cgroups; and the parent-death signal."""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable

from . import proctable

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)
_prctl = _libc.prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_prctl.restype = ctypes.c_int
_users = 0  # hosts in this process that need the subreaper flag


def prctl(option: int, value: int) -> None:
    if _prctl(option, value, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def die_with_parent(parent: int) -> None:
    """In a child before exec: SIGKILL when the host's forking thread ends; if the host already died
    between fork and this call, end now (the signal would never come)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def acquire() -> None:
    """Become a child subreaper (kept while any host of this process needs it)."""
    global _users
    if _users == 0:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
    _users += 1


def release() -> None:
    global _users
    _users = max(0, _users - 1)
    if _users == 0:
        prctl(PR_SET_CHILD_SUBREAPER, 0)


class Reaper:
    """Reaps the session processes this host adopted once they die.

    ``ours(proc)`` says whether a child of the host (seen alive, with its marker) belongs to a session;
    ``groups()`` gives the process groups of the sessions still running, which attribute a zombie that
    was never seen alive; ``leaders()`` are the children the runner reaps itself (never touched here).
    """

    def __init__(self, ours: Callable[[proctable.Proc], bool], groups: Callable[[], set[int]],
                 leaders: Callable[[], set[int]]) -> None:
        self._ours = ours
        self._groups = groups
        self._leaders = leaders
        self._seen: dict[int, bool] = {}  # child pid -> whether it is a session's

    def reap(self) -> int:
        """Reap what can be reaped now; returns how many. A few small reads: fine on the loop."""
        children = set(proctable.children_of(os.getpid())) - self._leaders()
        groups = self._groups()
        reaped = 0
        for pid in children:
            proc = proctable.read(pid, with_marker=pid not in self._seen)
            if proc is None:
                continue
            if proc.live:
                if pid not in self._seen:
                    self._seen[pid] = self._ours(proc)
                continue
            if self._seen.get(pid) or proc.pgrp in groups or proc.sid in groups:
                try:
                    os.waitpid(pid, os.WNOHANG)
                    reaped += 1
                except ChildProcessError:
                    pass
                self._seen.pop(pid, None)
        for gone in set(self._seen) - children:
            del self._seen[gone]
        return reaped
