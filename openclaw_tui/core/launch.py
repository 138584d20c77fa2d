"""From an exec request to a supervised child: shell, environment, workdir, and the watch until it ends.

Everything that can be refused is checked before anything is spawned (a missing workdir, an environment
override that could hijack the shell or the dynamic loader), so a refused call leaves nothing behind.
Once running, one supervisor task per session waits for the leader's exit or the timeout, makes sure no
descendant outlives the session, and only then declares it ended.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping

from .lifecycle import group_alive, terminate_group
from .runner import Child, spawn_pipe, spawn_pty
from .session import Session

PTY_COLS, PTY_ROWS = 120, 30
SETTLE_S = 0.2  # after the leader exits, how long output may take to reach end of file on its own
ABANDON_S = 1.0  # after ending leftovers, how long to wait for their output before closing our end

REFUSED_ENV = frozenset(
    {
        "PATH", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "BASH_ENV", "ENV", "IFS", "SHELLOPTS",
        "BASHOPTS", "PS4", "PROMPT_COMMAND", "ZDOTDIR", "NODE_OPTIONS", "PERL5LIB", "PERL5OPT", "PERLLIB",
        "RUBYLIB", "RUBYOPT", "GCONV_PATH", "GLIBC_TUNABLES", "OPENCLAW_SHELL",
    }
)
REFUSED_PREFIXES = ("LD_", "DYLD_", "BASH_FUNC_")
KNOWN_SHELLS = {"bash", "zsh", "sh", "dash", "ksh", "mksh"}


class LaunchError(Exception):
    """A request refused before spawning; ``kind`` becomes ``details.failureKind``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def resolve_workdir(workdir: str | None) -> str:
    cwd = os.path.abspath(os.path.expanduser(workdir)) if workdir else os.getcwd()
    if not os.path.isdir(cwd):
        raise LaunchError("workdir-missing", f"workdir {cwd!r} does not exist or is not a directory; nothing was started")
    if not os.access(cwd, os.X_OK):
        raise LaunchError("workdir-missing", f"workdir {cwd!r} is not accessible; nothing was started")
    return cwd


def is_refused(key: str) -> bool:
    return key.upper() in REFUSED_ENV or key.upper().startswith(REFUSED_PREFIXES)


def check_env(overrides: Mapping[str, object] | None) -> dict[str, str]:
    """Literal overrides as strings; refuses keys that could change what the shell or loader runs."""
    if not overrides:
        return {}
    refused = sorted(k for k in overrides if is_refused(k))
    if refused:
        raise LaunchError(
            "env-refused",
            f"env may not override {', '.join(refused)} on host runs (PATH, loader and shell-startup variables "
            "such as LD_*, DYLD_*, PYTHONPATH, BASH_ENV, ENV, IFS are refused); nothing was started",
        )
    out: dict[str, str] = {}
    for key, value in overrides.items():
        if not key or "=" in key or "\0" in key:
            raise LaunchError("invalid-env", f"env key {key!r} is not a valid variable name")
        if isinstance(value, bool):
            value = "1" if value else "0"
        if not isinstance(value, (str, int, float)):
            raise LaunchError("invalid-env", f"env value for {key} must be a string or number, got {type(value).__name__}")
        out[key] = str(value)
    return out


def shell_argv(command: str, env: Mapping[str, str]) -> list[str]:
    """``$SHELL -c`` without rc files for the shells we know; ``/bin/sh`` otherwise."""
    shell = env.get("SHELL", "")
    name = os.path.basename(shell)
    if name in KNOWN_SHELLS and os.path.isabs(shell) and os.access(shell, os.X_OK):
        if name == "bash":
            return [shell, "--noprofile", "--norc", "-c", command]
        if name == "zsh":
            return [shell, "-f", "-c", command]
        return [shell, "-c", command]
    return ["/bin/sh", "-c", command]


def child_env(base: Mapping[str, str], overrides: Mapping[str, str], pty: bool) -> dict[str, str]:
    env = {k: v for k, v in base.items() if k not in ("BASH_ENV", "ENV")}
    if pty:
        env["TERM"] = "xterm-256color"  # what our terminal view emulates; the env parameter may override it
        env.update(COLUMNS=str(PTY_COLS), LINES=str(PTY_ROWS))
    env.update(overrides)
    env["OPENCLAW_SHELL"] = "exec"
    return env


def start(session: Session, env_overrides: Mapping[str, str], base_env: Mapping[str, str]) -> Child:
    """Spawn the session's command; raises LaunchError when the OS refuses."""
    env = child_env(base_env, env_overrides, session.pty)
    argv = shell_argv(session.command, base_env)
    try:
        if session.pty:
            child = spawn_pty(argv, session.cwd, env, session.on_data, PTY_COLS, PTY_ROWS)
            session.pty_size = (PTY_COLS, PTY_ROWS)
        else:
            child = spawn_pipe(argv, session.cwd, env, session.on_data)
    except OSError as exc:
        raise LaunchError("spawn-error", f"could not start {argv[0]}: {exc}") from exc
    session.child = child
    session.pid = child.pid
    return child


async def end_session(session: Session, reason: str | None) -> None:
    """Kill a running session's process group (SIGTERM, grace, SIGKILL) and record the cleanup result.

    ``reason`` (who asked: an agent, ``operator``, ``timeout``, ``shutdown``) is recorded as ``killedBy``;
    None ends leftovers of a session that exited on its own. Concurrent callers share one termination.
    """
    if reason is not None and session.killed_by is None:
        session.killed_by = reason
    if session.ending is None:
        session.ending = asyncio.ensure_future(_terminate(session))
    await asyncio.shield(session.ending)


async def _terminate(session: Session) -> None:
    assert session.child is not None
    confirmed = await terminate_group(session.child.pgid, session.settings.kill_grace_s)
    session.cleanup = "confirmed" if confirmed else "uncertain"


async def supervise(session: Session, timeout_s: float) -> int:
    """Wait for the session to end (or time out), make sure nothing of it survives, then mark it ended."""
    child = session.child
    assert child is not None
    try:
        if timeout_s > 0:
            status = await asyncio.wait_for(asyncio.shield(child.exited), timeout_s)
        else:
            status = await child.exited
    except TimeoutError:
        session.timed_out = True
        await end_session(session, "timeout")
        status = await child.exited
    await _settle(session, child)
    child.release()
    session.flush_text()
    session.mark_exited(status)
    return status


async def _settle(session: Session, child: Child) -> None:
    """After the leader exits: drain its output and end any descendant it left behind."""
    try:
        await asyncio.wait_for(child.streams_closed.wait(), SETTLE_S)
        leftovers = await group_alive(child.pgid)
    except TimeoutError:
        leftovers = True  # someone still holds the output open
    if leftovers or session.ending is not None:
        await end_session(session, None)
    elif session.cleanup == "pending":
        session.cleanup = "confirmed"
    try:
        await asyncio.wait_for(child.streams_closed.wait(), ABANDON_S)
    except TimeoutError:
        child.close_streams()  # an escaped descendant holds it; stop reading rather than hang
