"""The escape routes of the orphan torture tests: one shell command that leaves a process behind every way
a job can, each carrying a unique marker, and a look through /proc for anything carrying it.

Routes: ``&``, ``nohup``, ``setsid``, a double fork that closes every fd, ``disown``, a child that
ignores SIGTERM, and one that moves to a process group of its own. Each touches a file in the run's
working directory once it is in place, and the command says ``ready`` only when all of them have, so a
test never races the escapes it means to catch.
"""

from __future__ import annotations

import os
import shlex
import uuid

import pytest

from openclaw_tui.core.procs import cgroups

ROUTES = ("bg", "nohup", "setsid", "daemon", "disown", "termproof", "pgrp")

_DAEMON = (
    "import os,sys,time\n"
    "if os.fork(): sys.exit(0)\n"
    "os.setsid()\n"
    "if os.fork(): os._exit(0)\n"
    "os.closerange(0, 4096)\n"
    "open('daemon','w').close()\n"
    "time.sleep(300)\n"
)
_TERMPROOF = "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); open('termproof','w').close(); time.sleep(300)"
_PGRP = "import os,time; os.setpgid(0, 0); open('pgrp','w').close(); time.sleep(300)"


def _cgroups_here() -> bool:
    try:
        cgroups.host_parent()
    except cgroups.Unavailable:
        return False
    return True


CGROUPS = _cgroups_here()
needs_cgroups = pytest.mark.skipif(not CGROUPS, reason="this host cannot make cgroup v2 groups here")


def containments() -> list:
    """The three containments as test parameters; ``cgroup`` is skipped where no cgroup can be made."""
    return [pytest.param("cgroup", marks=needs_cgroups), "subreaper", "sandbox"]


def new_mark() -> str:
    return "ESCAPE_" + uuid.uuid4().hex[:12]


def escape_command(mark: str, then: str = "sleep 300") -> str:
    """Start every escape route (run it with the working directory as a fresh, writable directory), wait
    until all are in place, print ``ready``, then run ``then`` (``true`` for a command that just exits)."""
    py = "python3 -c"
    parts = [
        f"export {mark}=1",
        "(touch bg; exec sleep 300) &",
        "nohup sh -c 'touch nohup; exec sleep 300' >/dev/null 2>&1 &",
        "setsid sh -c 'touch setsid; exec sleep 300' </dev/null >/dev/null 2>&1 &",
        f"{py} {shlex.quote(_DAEMON)}",
        "bash -c '(touch disown; exec sleep 300) & disown' </dev/null >/dev/null 2>&1",
        f"{py} {shlex.quote(_TERMPROOF)} &",
        f"{py} {shlex.quote(_PGRP)} &",
        f"until [ $(ls {' '.join(ROUTES)} 2>/dev/null | wc -l) -ge {len(ROUTES)} ]; do sleep 0.02; done",
        "echo ready",
        then,
    ]
    return "\n".join(parts)


def survivors(mark: str) -> list[str]:
    """Live processes carrying the marker, as ``"pid cmdline"``."""
    key = f"{mark}=1".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    continue
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if key not in fh.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
            found.append(f"{entry} {cmdline}")
        except (OSError, IndexError):
            continue
    return found
