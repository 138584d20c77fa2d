"""How a child enters its session's container before the command runs: its cgroup, and death with the host.

Pipe children keep the cheap ``vfork`` path through a ``/bin/sh`` and ``setpriv`` launcher; otherwise the same
two steps run as a ``preexec_fn``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..procs import cgroups, die_with_parent

JOIN = ('echo 0 > "$1" || { echo "openclaw-tui: cannot join the session\'s cgroup $1" >&2; exit 125; }; '
        'shift; exec "$@"')
_setpriv: list[str | None] = []  # probed once: the path of a setpriv that knows --pdeathsig, or None


@dataclass(frozen=True)
class Entry:
    """What a child does on its way in: join ``cgroup_procs`` (a ``cgroup.procs`` path), arm the death signal."""

    cgroup_procs: bytes | None = None
    die_with_host: bool = False

    @property
    def needed(self) -> bool:
        return self.cgroup_procs is not None or self.die_with_host


NO_ENTRY = Entry()


def setpriv() -> str | None:
    """util-linux's setpriv if it supports ``--pdeathsig`` (2.33 and later); probed once (a few ms)."""
    if not _setpriv:
        path = shutil.which("setpriv")
        ok = False
        if path is not None:
            try:
                ok = subprocess.run([path, "--pdeathsig", "KILL", "--", "true"], capture_output=True,
                                    timeout=5, check=False).returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                ok = False
        _setpriv.append(path if ok else None)
    return _setpriv[0]


def launcher(entry: Entry, argv: Sequence[str]) -> list[str] | None:
    """``argv`` behind the launcher that enters the container, or None when setpriv is missing."""
    if not entry.needed:
        return list(argv)
    found = setpriv()
    if found is None:
        return None
    out = [found, "--pdeathsig", "KILL", "--", *argv] if entry.die_with_host else list(argv)
    if entry.cgroup_procs is not None:
        out = ["/bin/sh", "-c", JOIN, "openclaw-tui-entry", os.fsdecode(entry.cgroup_procs), *out]
    return out


def in_child(entry: Entry, pty: bool = False) -> Callable[[], None]:
    """The same entry as a ``preexec_fn``; for a PTY child it also undoes Python's ignored SIGPIPE/SIGXFSZ,
    as Popen does for pipes. Everything it needs is prepared here, in the parent."""
    host = os.getpid()

    def setup() -> None:
        if pty:
            for sig in (signal.SIGPIPE, signal.SIGXFSZ):
                signal.signal(sig, signal.SIG_DFL)
        if entry.cgroup_procs is not None:
            cgroups.join(entry.cgroup_procs)
        if entry.die_with_host:
            die_with_parent(host)

    return setup
