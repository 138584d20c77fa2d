"""Which shell runs a command, and what the user's login shell puts on PATH."""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Mapping

KNOWN_SHELLS = {"bash", "zsh", "sh", "dash", "ksh", "mksh"}
PROBE_TIMEOUT_S = 3.0
END_GRACE_S = 0.5  # a probe ended early may clean up after itself for this long
SENTINEL = "__openclaw_tui_login_path__"


def chosen_shell(env: Mapping[str, str]) -> str:
    """The shell commands run in: ``$SHELL`` if supported and usable, bash for another shell, else sh."""
    shell = env.get("SHELL", "")
    name = os.path.basename(shell)
    if name in KNOWN_SHELLS:
        if os.path.isabs(shell) and os.access(shell, os.X_OK):
            return shell
    elif shell:
        bash = shutil.which("bash", path=env.get("PATH") or os.defpath)
        if bash is not None:
            return bash
    return "/bin/sh"


def shell_argv(command: str, env: Mapping[str, str]) -> list[str]:
    """The argv that runs ``command`` in :func:`chosen_shell`, without rc files."""
    shell = chosen_shell(env)
    name = os.path.basename(shell)
    if name == "bash":
        return [shell, "--noprofile", "--norc", "-c", command]
    if name == "zsh":
        return [shell, "-f", "-c", command]
    return [shell, "-c", command]


def probe_login_path(env: Mapping[str, str], timeout_s: float = PROBE_TIMEOUT_S) -> tuple[str, ...]:
    """PATH as the login shell sets it, as absolute entries; () when it cannot tell in time (blocking)."""
    script = f'printf "%s%s%s" {SENTINEL} "$PATH" {SENTINEL}'
    try:
        proc = subprocess.Popen(
            [chosen_shell(env), "-l", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=True, env=dict(env), cwd=env.get("HOME") or "/",
        )
    except OSError:
        return ()
    _probing.add(proc)
    try:
        out = _read_until_sentinel(proc, timeout_s)
    finally:
        _end(proc)
        _probing.discard(proc)
    parts = out.split(SENTINEL)
    if len(parts) < 3:
        return ()
    return tuple(dict.fromkeys(e for e in parts[1].split(os.pathsep) if os.path.isabs(e)))


def _read_until_sentinel(proc: subprocess.Popen[bytes], timeout_s: float) -> str:
    """What the shell printed until the closing sentinel, end of file or the deadline, whichever is first
    (a daemon a profile started may hold the output open long after the answer came)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout_s
    got = b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while got.count(SENTINEL.encode()) < 2:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(left):
                break
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            got += chunk
    return got.decode(errors="replace")


_probing: set[subprocess.Popen[bytes]] = set()
_ends = 0  # how many times end_probes ran: an answer it cut short is not kept


def end_probes() -> None:
    """End every probe still running, with what its profile started (a host closing or re-executing: the
    probe's thread would not outlive the process, and the shell, in a session of its own, would)."""
    global _ends
    _ends += 1
    for proc in list(_probing):
        _signal_session(proc, signal.SIGTERM)


def _signal_session(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except OSError:
        pass  # the group is gone already


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    try:
        os.killpg(proc.pid, 0)
    except OSError:
        return False
    return True


def _end(proc: subprocess.Popen[bytes]) -> None:
    """End the probe and whatever it started in its session, and reap it: SIGTERM first, so a profile's own
    clean-up runs (pyenv's rehash removes its lock file; killed outright it leaves the lock, and every later
    login shell waits a minute on it), then SIGKILL for what lingers."""
    _signal_session(proc, signal.SIGTERM)
    deadline = time.monotonic() + END_GRACE_S
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(END_GRACE_S)
    while _group_alive(proc) and time.monotonic() < deadline:
        time.sleep(0.01)
    _signal_session(proc, signal.SIGKILL)
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def merged_path(host_path: str, login: Iterable[str]) -> str:
    """The host's PATH with each login entry it lacks inserted before the first entry both share that
    follows it in the login PATH (at the end when none does)."""
    result = host_path.split(os.pathsep) if host_path else []
    pending: list[str] = []
    for entry in login:
        if not os.path.isabs(entry) or entry in pending:
            continue
        if entry in result:
            at = result.index(entry)
            result[at:at] = pending
            pending = []
        else:
            pending.append(entry)
    return os.pathsep.join(result + pending)


_cached: tuple[str, ...] | None = None
_lock = threading.Lock()


def login_path() -> tuple[str, ...]:
    """The login shell's PATH entries, probed once per process from the host's environment (blocking)."""
    global _cached
    with _lock:
        if _cached is None:
            ends = _ends
            found = probe_login_path(os.environ)
            if ends != _ends:
                return found
            _cached = found
        return _cached


async def login_path_async() -> tuple[str, ...]:
    """:func:`login_path`, in a worker thread the first time."""
    return _cached if _cached is not None else await asyncio.to_thread(login_path)


def start_probe() -> None:
    """Probe now, in the background, so the first run does not wait for it (host start)."""
    if _cached is None:
        threading.Thread(target=login_path, name="login-path-probe", daemon=True).start()


def forget() -> None:
    """Drop the cached answer (tests, or after the user changed their profile)."""
    global _cached
    with _lock:
        _cached = None
