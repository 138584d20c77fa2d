"""cgroup v2 for gateway sessions: where the hierarchy is, whether this host may make groups, and using them.

Everything here is a small read or write of a kernel file (microseconds), safe on the event loop.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator

PREFIX = "openclaw-tui."


class Unavailable(Exception):
    """No cgroup can be made here; the message says why."""


def mount_point(mountinfo: str = "/proc/self/mountinfo") -> tuple[str, str]:
    """``(mount point, root inside the hierarchy)`` of the cgroup2 mount; raises Unavailable."""
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise Unavailable(f"cannot read {mountinfo}: {exc}") from exc
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, fstype = left.split(), right.split()[:1]
        if fstype == ["cgroup2"] and len(fields) >= 5:
            return _unescape(fields[4]), _unescape(fields[3])
    raise Unavailable("no cgroup2 hierarchy is mounted")


def _unescape(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal."""
    for code in ("\\040", "\\011", "\\012", "\\134"):
        field = field.replace(code, chr(int(code[1:], 8)))
    return field


def own_path(pid: int | str = "self") -> str | None:
    """The cgroup v2 path of a process (``0::/...`` in ``/proc/<pid>/cgroup``), or None."""
    try:
        with open(f"/proc/{pid}/cgroup", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("0::"):
                    return line[3:].rstrip("\n")
    except OSError:
        return None
    return None


def host_parent() -> str:
    """The directory under which this host may make its cgroups: the cgroup it runs in.

    Raises Unavailable (with the reason) when there is no v2 hierarchy, the host's cgroup is outside the
    mount (another cgroup namespace), ``cgroup.kill`` is missing (Linux < 5.14) or the host may not
    create groups there and move processes into them.
    """
    mount, root = mount_point()
    path = own_path()
    if path is None:
        raise Unavailable("this process has no cgroup v2 membership")
    rel = os.path.relpath(path, root) if root != "/" else path.lstrip("/")
    if rel.startswith(".."):
        raise Unavailable(f"this process's cgroup {path} is outside the cgroup2 mount at {mount}")
    parent = os.path.normpath(os.path.join(mount, rel))
    if not _kill_supported(parent, at_root=rel in ("", ".")):
        raise Unavailable("cgroup.kill is not available (Linux 5.14 or later is needed)")
    if not (os.access(parent, os.W_OK | os.X_OK) and os.access(os.path.join(parent, "cgroup.procs"), os.W_OK)):
        raise Unavailable(f"cgroup {parent} is not delegated to this user (cannot create groups in it)")
    return parent


def _kill_supported(parent: str, at_root: bool) -> bool:
    """Every group but the root has ``cgroup.kill`` on kernels that support it; at the root, ask the kernel's
    version instead."""
    if not at_root:
        return os.path.exists(os.path.join(parent, "cgroup.kill"))
    numbers = os.uname().release.split("-")[0].split(".")
    try:
        return (int(numbers[0]), int(numbers[1])) >= (5, 14)
    except (IndexError, ValueError):
        return False


def make(path: str) -> None:
    os.mkdir(path, 0o755)


def events(path: str) -> dict[str, int]:
    """``cgroup.events`` as a dict (``populated``, ``frozen``); a removed group reads as empty."""
    try:
        with open(os.path.join(path, "cgroup.events"), encoding="ascii") as fh:
            return {k: int(v) for k, v in (line.split() for line in fh if line.strip())}
    except FileNotFoundError:
        return {"populated": 0}


def populated(path: str) -> bool:
    """Whether any live process is in the group or below it (zombies do not count)."""
    return bool(events(path).get("populated", 0))


def procs(path: str) -> list[int]:
    """Live processes in the group and every group below it."""
    found: list[int] = []
    for directory in walk(path):
        try:
            with open(os.path.join(directory, "cgroup.procs"), encoding="ascii") as fh:
                found += [int(line) for line in fh if line.strip()]
        except FileNotFoundError:
            continue
    return sorted(set(found))


def walk(path: str) -> Iterator[str]:
    """``path`` and every group below it, deepest first (the order ``rmdir`` needs)."""
    try:
        subdirs = [entry.path for entry in os.scandir(path) if entry.is_dir(follow_symlinks=False)]
    except FileNotFoundError:
        return
    for sub in subdirs:
        yield from walk(sub)
    yield path


def kill(path: str) -> None:
    """SIGKILL every process in the group and below it, including those forking right now."""
    try:
        with open(os.path.join(path, "cgroup.kill"), "w", encoding="ascii") as fh:
            fh.write("1")
    except FileNotFoundError:
        pass


def remove(path: str) -> bool:
    """Remove the group and those below it once empty; True when it is gone."""
    for directory in walk(path):
        try:
            os.rmdir(directory)
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno in (errno.EBUSY, errno.ENOTEMPTY):
                return False
            raise
    return not os.path.exists(path)


def joiner(path: str) -> bytes:
    """The ``cgroup.procs`` path a child writes itself into (as bytes, so the child allocates nothing)."""
    return os.fsencode(os.path.join(path, "cgroup.procs"))


def join(procs_file: bytes) -> None:
    """Move the calling process into a group: the child calls this between fork and exec, so everything
    it will ever start is in the group from its first instruction on."""
    fd = os.open(procs_file, os.O_WRONLY)
    try:
        os.write(fd, b"0")
    finally:
        os.close(fd)
