"""The socket a host listens on: one host per path, held with a lock for the host's whole life.

A host that re-executes itself in place keeps both open across the exec (see :mod:`.reexec`), so no other host
can take the path meanwhile.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sys
from pathlib import Path
from typing import Any

# Python 3.13 would otherwise remove the socket's file when the server closes, even in a handover.
KEEP_FILE: dict[str, Any] = {"cleanup_socket": False} if sys.version_info >= (3, 13) else {}


class AlreadyServing(RuntimeError):
    """Another live host owns the socket."""


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def take_lock(path: Path) -> int:
    """Lock the socket's lock file for this host, or refuse: another host holds it (serving or starting).

    The lock file stays when the host ends: removing it would let two later hosts lock two different files.
    """
    fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise AlreadyServing(already_serving(path)) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def already_serving(path: Path) -> str:
    return (f"another openclaw-tui host is already serving on {path}; "
            "use `openclaw-tui attach` to open a dashboard on it")


async def is_live(path: Path) -> bool:
    try:
        _, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 2)
    except (TimeoutError, OSError):
        return False
    writer.close()
    return True
