"""From an exec request to a supervised child: shell, environment, workdir, host, and the watch until it ends.

Everything that can be refused is checked before anything is spawned (a missing workdir, an environment
override that could hijack the shell or the dynamic loader, a sandbox that is required but unusable, a
workdir the sandbox would hide), so a refused call leaves nothing behind. A run goes to the sandbox or to
the host (``gateway``) as ``tools.exec.host`` and ``elevated`` decide; ``pathPrepend`` is added to PATH
after the env check, so configuration can extend PATH while a call still cannot replace it. Once running,
one supervisor task per session waits for the leader's exit or the timeout, makes sure no descendant
outlives the session, and only then declares it ended.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping

from . import sandbox
from .lifecycle import POLL_S, fresh_table, group_alive, holders, members, terminate_group, terminate_pids
from .runner import Child, spawn_pipe, spawn_pty
from .sandbox import GATEWAY, SANDBOX
from .session import Session

PTY_COLS, PTY_ROWS = 120, 30
SETTLE_S = 0.2  # after the leader exits, how long output may take to reach end of file on its own
SANDBOX_START_S = 2.0  # how long a kill waits for a sandboxed program to be able to hear SIGTERM
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


def check_env(overrides: Mapping[str, object] | None, sandboxed: bool = False) -> dict[str, str]:
    """Literal overrides as strings; refuses keys that could change what the shell or loader runs.

    A sandboxed run also refuses the few variables glibc would obey in the sandbox launcher, which
    starts outside the sandbox (glibc itself ignores them for setuid programs).
    """
    if not overrides:
        return {}
    refused = sorted(k for k in overrides if is_refused(k))
    if refused:
        raise LaunchError(
            "env-refused",
            f"env may not override {', '.join(refused)} (PATH, loader and shell-startup variables "
            "such as LD_*, DYLD_*, PYTHONPATH, BASH_ENV, ENV, IFS are refused; add directories to PATH with "
            "tools.exec.pathPrepend in the config); nothing was started",
        )
    launcher = sorted(k for k in overrides if sandboxed and k.upper() in sandbox.LAUNCHER_REFUSED_ENV)
    if launcher:
        raise LaunchError(
            "env-refused",
            f"env may not set {', '.join(launcher)} on sandboxed runs (the sandbox launcher runs outside the "
            "sandbox and the C library would act on them); nothing was started",
        )
    out: dict[str, str] = {}
    for key, value in overrides.items():
        if not key or "=" in key or not c_string(key):
            raise LaunchError("invalid-env", f"env key {key!r} is not a valid variable name")
        if isinstance(value, bool):
            value = "1" if value else "0"
        if not isinstance(value, (str, int, float)):
            raise LaunchError("invalid-env", f"env value for {key} must be a string or number, got {type(value).__name__}")
        if not c_string(str(value)):
            raise LaunchError("invalid-env", f"env value for {key} contains a NUL byte or an unpaired surrogate")
        out[key] = str(value)
    return out


def c_string(text: str) -> bool:
    """Whether ``text`` can be passed to ``execve``: no NUL byte, and encodable for the OS.

    Such a string fails only after the fork, in the child, where a PTY spawn has no way to report it (the
    child would go on running the host's code), so every one is checked before spawning.
    """
    try:
        return b"\0" not in os.fsencode(text)
    except UnicodeEncodeError:
        return False


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


def child_env(
    base: Mapping[str, str], overrides: Mapping[str, str], pty: bool, path_prepend: tuple[str, ...] = ()
) -> dict[str, str]:
    env = {k: v for k, v in base.items() if k not in ("BASH_ENV", "ENV")}
    if pty:
        env["TERM"] = "xterm-256color"  # what our terminal view emulates; the env parameter may override it
        # No COLUMNS/LINES: curses programs trust them over the terminal's real size and would never learn
        # of a resize (no terminal exports them); a caller's env may still set them.
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
    env.update(overrides)
    if path_prepend:
        env["PATH"] = os.pathsep.join([*path_prepend, env.get("PATH") or os.defpath])
    env["OPENCLAW_SHELL"] = "exec"
    return env


async def choose_host(mode: str, elevated: bool) -> str:
    """Where a run executes: ``gateway`` (the host) or ``sandbox``; probes bubblewrap once, off the loop.

    ``elevated`` (already checked against ``tools.elevated.enabled``) always means the host; ``auto``
    takes the sandbox when bubblewrap works here; ``sandbox`` without a working bubblewrap is refused.
    """
    if elevated or mode == GATEWAY:
        return GATEWAY
    found = await sandbox.check()
    if found.usable:
        return SANDBOX
    if mode == SANDBOX:
        raise LaunchError(
            "sandbox-unavailable",
            f"tools.exec.host is \"sandbox\" but the sandbox cannot run here: {found.reason}; "
            "nothing was started",
        )
    return GATEWAY


def _placed_argv(session: Session, argv: list[str]) -> list[str]:
    """Wrap ``argv`` in the sandbox when :func:`choose_host` sent this run there, and record where it runs.

    ``settings.host`` is already resolved (``sandbox`` or ``gateway``) and the sandbox already probed, so
    nothing is decided twice and nothing blocks the loop here.
    """
    settings = session.settings
    found = sandbox.cached()
    if settings.host != SANDBOX:
        session.host_kind = GATEWAY
        return argv
    assert found is not None and found.usable, "choose_host places a run in the sandbox only once it is probed"
    try:
        wrapped = sandbox.wrap(
            argv, session.cwd, pty=session.pty, network=settings.sandbox_network, secrets=settings.secrets,
            tools=found,
        )
    except sandbox.SecretWorkdir as exc:
        raise LaunchError("workdir-secret", str(exc)) from exc
    session.host_kind = SANDBOX
    return wrapped


def start(session: Session, env_overrides: Mapping[str, str], base_env: Mapping[str, str]) -> Child:
    """Spawn the session's command (sandboxed or not); raises LaunchError when refused or the OS refuses."""
    env = child_env(base_env, env_overrides, session.pty, session.settings.path_prepend)
    argv = _placed_argv(session, shell_argv(session.command, base_env))
    if not all(c_string(s) for s in (*argv, *env, *env.values(), session.cwd)):
        raise LaunchError("spawn-error", "the command, workdir or environment contains a NUL byte or an unpaired "
                                         "surrogate, which no program can be given; nothing was started")
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
    await until_program_started(session)
    confirmed = await terminate_group(session.child.pgid, session.settings.kill_grace_s)
    session.cleanup = "confirmed" if confirmed else "uncertain"


async def until_program_started(session: Session) -> None:
    """For a sandboxed run, wait (a few ms, at most SANDBOX_START_S) until the program inside has started.

    Until the program's dispositions are restored inside, every process of the session is launcher and
    ignores SIGTERM and SIGINT, so a kill, or a Ctrl-C typed into its terminal, sent then would be lost;
    waiting gives the program what a host run gets. Known once, remembered.
    """
    tools = sandbox.cached()
    if session.host_kind != SANDBOX or session.program_started or tools is None or session.child is None:
        return
    deadline = asyncio.get_running_loop().time() + SANDBOX_START_S
    while asyncio.get_running_loop().time() < deadline:
        pids = members(session.child.pgid, await fresh_table())
        if not pids or sandbox.program_started(pids, tools):
            break
        await asyncio.sleep(POLL_S / 4)
    session.program_started = True


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
    session.mark_exited(sandbox.wait_status(status) if session.host_kind == SANDBOX else status)
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
        if not await _end_escaped(session, child):
            session.cleanup = "uncertain"
        child.close_streams()


async def _end_escaped(session: Session, child: Child) -> bool:
    """End descendants that left the session's group and session on purpose (``setsid``, a daemon) but
    still hold its output open, found by that output; True when none is left (or the output closed)."""
    links = child.stream_links()
    escaped = await asyncio.to_thread(holders, links, os.getpid())
    if escaped:
        await terminate_pids(escaped, session.settings.kill_grace_s)
    try:
        await asyncio.wait_for(child.streams_closed.wait(), ABANDON_S)
        return True
    except TimeoutError:
        return False
