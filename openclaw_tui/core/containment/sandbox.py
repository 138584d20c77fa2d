"""The bubblewrap sandbox around a run: what it sees, what it may write, and how it stays killable."""

from __future__ import annotations

import asyncio
import glob
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from ..config import within
from .toolgroups import tool_groups

PROBE_TIMEOUT_S = 5.0
TMP = "/tmp"
# Signals the launcher ignores so that only the program decides how it ends (a kill still reaches it).
LAUNCHER_IGNORES = "HUP,INT,QUIT,TERM"
# In a PTY run: restore default dispositions (Python ignores SIGPIPE/SIGXFSZ), take the terminal's
# foreground for a new process group with SIGTTOU held off while doing so, then run the shell.
PTY_HELPER = (
    "import os,signal as s,sys\n"
    "for n in ('SIGHUP','SIGINT','SIGQUIT','SIGTERM','SIGPIPE','SIGXFSZ'):s.signal(getattr(s,n),s.SIG_DFL)\n"
    "try:\n"
    " os.setpgid(0,0);s.pthread_sigmask(s.SIG_BLOCK,[s.SIGTTOU]);os.tcsetpgrp(0,os.getpgrp())\n"
    "except OSError:pass\n"
    "s.pthread_sigmask(s.SIG_UNBLOCK,[s.SIGTTOU])\n"
    "os.execv(sys.argv[1],sys.argv[1:])\n"
)
# Environment variables glibc obeys in the launcher (which runs outside the sandbox) and ignores for
# setuid programs; an ``env`` override may not set them on sandboxed runs (LD_* and others are refused
# on every run already).
LAUNCHER_REFUSED_ENV = frozenset(
    {"LOCPATH", "NLSPATH", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "RESOLV_HOST_CONF", "MALLOC_TRACE",
     "NIS_PATH", "GETCONF_DIR", "TZDIR"}
)
_SIGNAL_NUMBERS = frozenset(int(s) for s in signal.Signals)


class Mask(StrEnum):
    """How a path is masked: an empty read-only directory, an empty file, or the host's own bound back."""

    DIRECTORY = "directory"
    FILE = "file"
    SHOWN = "shown"
    PINNED = "pinned"  # a directory on the way to a mask, inside a writable one: bound onto itself


class SecretWorkdir(ValueError):
    """The workdir lies inside a path the sandbox hides, so the run could not see its own directory."""


@dataclass(frozen=True)
class Availability:
    """The probe's verdict: ``usable``, the tools it found, and ``reason`` in words either way; ``modes``:
    whether this bwrap sets a tmpfs's mode (``--perms``, bubblewrap 0.5 and later)."""

    usable: bool
    reason: str
    bwrap: str = ""
    env: str = ""
    python: str = ""
    modes: bool = False


_cached: Availability | None = None
_lock = threading.Lock()


def cached() -> Availability | None:
    """The verdict if the probe already ran in this process (for status lines that must not block)."""
    return _cached


def availability() -> Availability:
    """Probe once per process (blocking, a few tens of ms): call off the event loop."""
    global _cached
    with _lock:
        if _cached is None:
            _cached = _probe()
        return _cached


async def check() -> Availability:
    """The cached verdict, probing in a worker thread the first time."""
    if _cached is not None:
        return _cached
    return await asyncio.to_thread(availability)


def forget() -> None:
    """Drop the cached verdict (tests, or after installing bubblewrap)."""
    global _cached
    with _lock:
        _cached = None


def _probe() -> Availability:
    bwrap, env = shutil.which("bwrap"), shutil.which("env")
    python = os.path.realpath(sys.executable) if sys.executable else ""
    if not bwrap:
        return Availability(False, "bwrap is not installed (Debian package bubblewrap)")
    if not env or not python:
        return Availability(False, "env or a Python interpreter for the sandbox helper was not found", bwrap)
    found = Availability(True, f"{bwrap} works here", bwrap, env, python)
    for pty in (False, True):  # both launch paths, with every option a run may use
        argv = wrap([env, "true"], None, pty=pty, network=False, secrets=(), tools=found)
        try:
            proc = subprocess.run(
                argv, check=False, stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_TIMEOUT_S
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Availability(False, f"bwrap probe failed: {exc}", bwrap, env, python)
        if proc.returncode != 0:
            detail = proc.stderr.decode(errors="replace").strip().splitlines()
            why = detail[-1] if detail else f"exit status {proc.returncode}"
            why = f"bwrap is installed but cannot sandbox here: {why}"
            return Availability(False, why, bwrap, env, python)
    return replace(found, modes=_runs([bwrap, "--ro-bind", "/", "/", *EMPTY_DIRECTORY, "/tmp", "--", env, "true"]))


def _runs(argv: list[str]) -> bool:
    try:
        return subprocess.run(argv, check=False, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=PROBE_TIMEOUT_S).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def wrap(
    argv: Sequence[str],
    workdir: str | None,
    *,
    pty: bool,
    network: bool,
    secrets: Iterable[str],
    tools: Availability,
    private_tmp: bool = False,
    tmpdir: str | None = None,
    shown: Iterable[str] = (),
    tool_dirs: Iterable[str] = (),
) -> list[str]:
    """The argv that runs ``argv`` sandboxed in ``workdir`` (None: no writable directory, in ``/``).

    ``/tmp`` is the host's, writable, unless ``private_tmp``; ``tmpdir`` (the host's ``$TMPDIR``) is
    writable too when it is a directory that is safe to open (see :func:`writable_tmpdir`); ``shown``
    paths inside a hidden directory are seen read-only, and a read-only ``tool_dirs`` entry that holds
    nothing but secrets is hidden whole (see :func:`masks`).
    Raises SecretWorkdir when the workdir is inside a hidden path.
    """
    real = os.path.realpath(workdir) if workdir is not None else None
    out = [tools.env, f"--ignore-signal={LAUNCHER_IGNORES}", tools.bwrap, "--ro-bind", "/", "/"]
    writable = []
    if private_tmp:
        out += ["--tmpfs", TMP]
    elif os.path.isdir(TMP):
        writable.append(TMP)
    extra = writable_tmpdir(tmpdir, private_tmp)
    if extra is not None:
        writable.append(extra)
    if real is not None:
        writable.append(real)  # after a private /tmp, so a workdir under /tmp stays the real one
    for path in writable:
        out += ["--bind", path, path]
    out += ["--dev", "/dev", "--proc", "/proc"]
    planned = masks(secrets, real, private_tmp, shown, writable, tool_dirs)
    for path, mask in _cheap_last(planned):
        if mask is Mask.DIRECTORY:
            out += [*(EMPTY_DIRECTORY if tools.modes else ["--tmpfs"]), path]
        else:
            out += _MOUNTS[mask] + [path] * (1 if mask in HIDING else 2)  # shown and pinned: bound onto themselves
    for path, mask in planned:  # after what is bound back inside them; a bwrap without --perms only
        if mask is Mask.DIRECTORY and not tools.modes:
            out += ["--remount-ro", path]
    out += ["--unshare-pid", "--unshare-ipc", "--die-with-parent"]
    if not network:
        out.append("--unshare-net")
    if os.geteuid() == 0:
        out += ["--cap-drop", "ALL"]  # root keeps every capability in bwrap otherwise (and could unmount)
    out += ["--chdir", _chdir(workdir, real, private_tmp), "--"]
    if pty:
        out += [tools.python, "-I", "-S", "-c", PTY_HELPER]
    else:
        out += [tools.env, f"--default-signal={LAUNCHER_IGNORES}"]
    return out + list(argv)


def _chdir(workdir: str | None, real: str | None, private_tmp: bool) -> str:
    """The workdir as given, unless its spelling only exists on the host (under a private /tmp)."""
    if workdir is None or real is None:
        return "/"
    return real if private_tmp and within(workdir, TMP) else workdir


def writable_tmpdir(tmpdir: str | None, private_tmp: bool) -> str | None:
    """The host's ``$TMPDIR`` as a writable mount, or None when there is nothing (safe) to add.

    Under ``/tmp`` it needs nothing of its own when ``/tmp`` is shared (and is gone with a private one,
    as before). It is never ``/``, the home directory or one above it: opening those for writing would
    undo the sandbox, and no temporary directory is one of them.
    """
    if not tmpdir or not os.path.isabs(tmpdir) or not os.path.isdir(tmpdir):
        return None
    real = os.path.realpath(tmpdir)
    if within(real, TMP) or real == "/" or within(os.path.realpath(os.path.expanduser("~")), real):
        return None
    return real


_MOUNTS = {Mask.FILE: ["--ro-bind", "/dev/null"], Mask.SHOWN: ["--ro-bind-try"], Mask.PINNED: ["--bind"]}
HIDING = (Mask.DIRECTORY, Mask.FILE)
# A hidden directory: an empty tmpfs nobody may write to. Its mode does what a --remount-ro would at no
# cost: every bind and remount makes bwrap read the whole mount table again, a tmpfs does not. (Its owner
# could chmod it, and would then write to a tmpfs of its own that ends with the run.)
EMPTY_DIRECTORY = ["--perms", "0555", "--tmpfs"]


def _cheap_last(planned: list[tuple[str, Mask]]) -> list[tuple[str, Mask]]:
    """``planned`` (parents first, each right before its children) with each hidden directory nothing is
    mounted in moved to the end: every mount made before a bind is one more line of the table bwrap reads."""
    after = [*planned[1:], None]
    leaf = {i for i, (item, then) in enumerate(zip(planned, after))
            if item[1] is Mask.DIRECTORY and not (then is not None and within(then[0], item[0]))}
    return [item for i, item in enumerate(planned) if i not in leaf] + [planned[i] for i in sorted(leaf)]


def hidden_paths(secrets: Iterable[str], workdir: str | None, private_tmp: bool = False,
                 shown: Iterable[str] = ()) -> list[tuple[str, bool]]:
    """``(path, is_directory)`` for each secret that exists and would otherwise be visible."""
    return [(p, m is Mask.DIRECTORY) for p, m in masks(secrets, workdir, private_tmp, shown) if m in HIDING]


def masks(secrets: Iterable[str], workdir: str | None, private_tmp: bool = False, shown: Iterable[str] = (),
          writable: Iterable[str] = (), tool_dirs: Iterable[str] = ()) -> list[tuple[str, Mask]]:
    """What to mount over what, in order: each secret that exists and would otherwise be visible, each
    shown path that exists inside a hidden directory (bound back from the host's own), and each directory
    between a ``writable`` one and a mask (pinned: bound onto itself). A tool directory (``tool_dirs``) that
    holds only hidden entries and is seen read-only is hidden whole instead (see :func:`.tool_groups`).

    Most secrets do not exist, so each costs one ``faccessat`` before anything else. Those that do are resolved
    through symlinks (the mount must cover the real thing; a link to one reads the mask), glob patterns are
    expanded now, and one under a private ``/tmp`` is already invisible unless the workdir exposes it.
    A mount is left out when what encloses it already shows the same (a secret inside a hidden directory,
    a shown path nowhere hidden); parents come before what is mounted inside them.
    """
    found: dict[str, Mask] = {}
    real = _resolver()
    for raw in _expanded(secrets):
        if not os.access(raw, os.F_OK, follow_symlinks=False):  # as lexists, without raising for each miss
            continue
        path = real(os.path.normpath(raw))
        if workdir is not None and within(workdir, path):
            raise SecretWorkdir(
                f"workdir {workdir!r} is inside {raw!r}, which sandboxed runs cannot see; choose another "
                "workdir (or run elevated where that is enabled); nothing was started"
            )
        if private_tmp and within(path, TMP) and not (workdir is not None and within(path, workdir)):
            continue
        try:
            found[path] = Mask.DIRECTORY if stat.S_ISDIR(os.stat(path).st_mode) else Mask.FILE
        except OSError:  # a dangling link, or gone since
            continue
    if found:
        for raw in shown:
            # where the path itself is (its parents resolved): a shown link inside a hidden directory
            # must reappear as that link's name, reading what it points to
            path = os.path.join(os.path.realpath(os.path.dirname(raw)), os.path.basename(raw))
            if path not in found and os.path.exists(path):
                found[path] = Mask.SHOWN
    shown_here = [p for p, m in found.items() if m is Mask.SHOWN]
    for group in tool_groups([p for p, m in found.items() if m in HIDING], shown_here, tool_dirs,
                             [*writable, *([workdir] if workdir else [])]):
        found[group] = Mask.DIRECTORY  # what it holds is left out below, as in any hidden directory
    planned: dict[str, Mask] = {}
    tops = []  # hiding mounts with no mount above them
    chain: list[str] = []  # the planned mounts that enclose the path at hand, outermost first
    for path in sorted(found, key=_parts):  # parents first, and each right before its children
        while chain and not within(path, chain[-1]):
            chain.pop()
        seen_above = not chain or planned[chain[-1]] is Mask.SHOWN
        if seen_above != (found[path] is Mask.SHOWN):
            if not chain:
                tops.append(path)
            planned[path] = found[path]
            chain.append(path)
    for path in _pins(tops, writable):
        planned.setdefault(path, Mask.PINNED)
    return sorted(planned.items(), key=lambda item: _parts(item[0]))


def _resolver() -> Callable[[str], str]:
    """``os.path.realpath`` for absolute, normalised paths, resolving each directory once: a home full of
    stores shares its parents, and this runs on the event loop at every spawn."""
    known: dict[str, str] = {"/": "/"}

    def real(path: str) -> str:
        if path in known:
            return known[path]
        parent, name = os.path.split(path)
        joined = os.path.join(real(parent), name)
        known[path] = os.path.realpath(joined) if os.path.islink(joined) else joined
        return known[path]

    return real


def _parts(path: str) -> list[str]:
    return path.split("/")


def _pins(tops: Iterable[str], writable: Iterable[str]) -> set[str]:
    """The directories strictly between a writable mount and a mask in it that nothing else encloses
    (below a mask, a hidden directory or a shown path is read-only already)."""
    pins = set()
    for root in writable:
        for path in tops:
            parent = os.path.dirname(path)
            while path != root and parent != root and within(parent, root):
                pins.add(parent)
                parent = os.path.dirname(parent)
    return pins


_GLOB = re.compile(r"[*?[]")


def _expanded(secrets: Iterable[str]) -> Iterable[str]:
    """Each secret, with glob patterns (``/tmp/ssh-*``) replaced by what they match right now."""
    for raw in secrets:
        if _GLOB.search(raw):
            yield from sorted(glob.glob(raw))
        else:
            yield raw


def program_started(pids: Iterable[int], tools: Availability) -> bool:
    """Whether the program inside has started: some process of the session hears SIGTERM, or is not one
    of the launcher's executables (a program may ignore SIGTERM itself)."""
    launchers = {os.path.realpath(p) for p in (tools.bwrap, tools.env, tools.python) if p}
    for pid in pids:
        ignoring = _ignores_sigterm(pid)
        if ignoring is False:
            return True
        if ignoring and _exe(pid) not in launchers:
            return True
    return False


def _ignores_sigterm(pid: int) -> bool | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"SigIgn:"):
                    return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    except (OSError, ValueError):
        return None
    return None


def _exe(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


def wait_status(status: int) -> int:
    """Undo bwrap's exit-code encoding of a signal death (128 + n) so a kill reads as one.

    bwrap reports a program killed by signal n as exit status 128 + n; a program that itself exits
    with such a code is reported as killed by that signal (the two cannot be told apart from outside).
    """
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) - 128 in _SIGNAL_NUMBERS:
        return os.WEXITSTATUS(status) - 128
    return status
