"""From an exec request to a supervised child: shell, environment, workdir, placement, and the watch until it
ends.

Everything that can be refused is checked before anything is spawned, and a session is declared ended only
once nothing of it is left.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping

from ..config import PTY_SIZE, ExecSettings, PlacementMode
from ..containment import (
    Child,
    Containment,
    Placement,
    SessionRun,
    credentials,
    sandbox,
    spawn_pipe,
    spawn_pty,
)
from ..procs import MARKER, POLL_S, fresh_table, holders, members, terminate_pids
from ..session import Session
from .envpolicy import STRIPPED_FROM_HOST, refusal_text
from .secretenv import sandbox_environment
from .shell import merged_path, shell_argv

SETTLE_S = 0.2  # after the leader exits, how long output may take to reach end of file on its own
SANDBOX_START_S = 2.0  # how long a kill waits for a sandboxed program to be able to hear SIGTERM
ABANDON_S = 1.0  # after ending leftovers, how long to wait for their output before closing our end


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


def check_env(overrides: Mapping[str, object] | None, sandboxed: bool = False) -> dict[str, str]:
    """Literal overrides as strings; refuses, naming each key and why, the keys :mod:`.envpolicy` lists
    (what the shell, the loader, a runtime or a build tool runs, TLS trust, proxies, package indexes).

    A sandboxed run also refuses the few variables glibc would obey in the sandbox launcher, which
    starts outside the sandbox (glibc itself ignores them for setuid programs).
    """
    if not overrides:
        return {}
    refused = refusal_text(overrides)
    if refused:
        raise LaunchError("env-refused", refused)
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


def child_env(
    base: Mapping[str, str], overrides: Mapping[str, str], pty: bool, path_prepend: tuple[str, ...] = (),
    path_login: tuple[str, ...] = (),
) -> dict[str, str]:
    """The run's environment: the host's (less what no child inherits), the call's overrides, and PATH
    with what the login shell adds (:func:`.shell.merged_path`) and ``pathPrepend`` in front."""
    env = {k: v for k, v in base.items() if k not in STRIPPED_FROM_HOST}
    if pty:
        env["TERM"] = "xterm-256color"  # what our terminal view emulates; the env parameter may override it
        # No COLUMNS/LINES: curses programs trust them over the terminal's real size and would never learn
        # of a resize (no terminal exports them); a caller's env may still set them.
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
    env.update(overrides)
    path = env.get("PATH") or os.defpath
    if path_login:
        path = merged_path(path, path_login)
    if path_prepend:
        path = os.pathsep.join([*path_prepend, path])
    if path_login or path_prepend:
        env["PATH"] = path
    env["OPENCLAW_SHELL"] = "exec"
    return env


async def choose_placement(mode: PlacementMode, elevated: bool) -> Placement:
    """Where a run executes: ``gateway`` (the host) or ``sandbox``; probes bubblewrap once, off the loop.

    ``elevated`` (already checked against ``tools.elevated.enabled``) always means the host; ``auto``
    takes the sandbox when bubblewrap works here; ``sandbox`` without a working bubblewrap is refused.
    """
    if elevated or mode == PlacementMode.GATEWAY:
        return Placement.GATEWAY
    found = await sandbox.check()
    if found.usable:
        return Placement.SANDBOX
    if mode == PlacementMode.SANDBOX:
        raise LaunchError(
            "sandbox-unavailable",
            f"tools.exec.host is \"{mode}\" but the sandbox cannot run here: {found.reason}; "
            "nothing was started",
        )
    return Placement.GATEWAY


def _placed_argv(session: Session, argv: list[str], host_env: Mapping[str, str]) -> tuple[list[str], Placement]:
    """``argv`` wrapped in the sandbox when :func:`choose_placement` sent this run there, and the placement.

    ``settings.placement`` is already resolved (``sandbox`` or ``gateway``) and the sandbox already probed,
    so nothing is decided twice and nothing blocks the loop here beyond a stat of each hidden path.
    """
    settings = session.settings
    found = sandbox.cached()
    if settings.placement != PlacementMode.SANDBOX:
        return argv, Placement.GATEWAY
    assert found is not None and found.usable, "choose_placement places a run in the sandbox only once it is probed"
    secrets = (*settings.secrets, *credentials.hidden(host_env, settings.shown))
    try:
        wrapped = sandbox.wrap(
            argv, session.cwd, pty=session.pty, network=settings.sandbox_network, secrets=secrets,
            tools=found, private_tmp=settings.sandbox_tmp == "private", tmpdir=os.environ.get("TMPDIR"),
            shown=settings.shown, tool_dirs=credentials.tool_dirs(host_env),
        )
    except sandbox.SecretWorkdir as exc:
        raise LaunchError("workdir-secret", str(exc)) from exc
    return wrapped, Placement.SANDBOX


def run_path(env_overrides: Mapping[str, str], settings: ExecSettings, base_env: Mapping[str, str]) -> str:
    """The PATH a run with these overrides and settings gets (what its programs are looked up on)."""
    return child_env(base_env, env_overrides, False, settings.path_prepend, settings.path_login).get("PATH") or os.defpath


def start(
    session: Session, env_overrides: Mapping[str, str], base_env: Mapping[str, str], containment: Containment,
    script: str | None = None,
) -> SessionRun:
    """Spawn the session's command (sandboxed or not) in its container and say what was launched; raises
    LaunchError when refused or the OS refuses. ``script`` is what the shell runs instead of the command as
    written: the command line exec approvals judged, rebuilt word by word."""
    settings = session.settings
    host_env, inherited = base_env, base_env
    if settings.placement == PlacementMode.SANDBOX:
        host_env = dict(base_env)  # read once, for the filter and the credential table alike
        inherited = sandbox_environment(host_env, settings.pass_env)
    env = child_env(inherited, env_overrides, session.pty, settings.path_prepend, settings.path_login)
    argv, placement = _placed_argv(session, shell_argv(script or session.command, base_env), host_env)
    if not all(c_string(s) for s in (*argv, *env, *env.values(), session.cwd)):
        raise LaunchError("spawn-error", "the command, workdir or environment contains a NUL byte or an unpaired "
                                         "surrogate, which no program can be given; nothing was started")
    try:
        enclosure = containment.enclose(session.id, sandboxed=placement == Placement.SANDBOX)
    except OSError as exc:
        raise LaunchError("spawn-error", f"could not contain the run: {exc}; nothing was started") from exc
    env[MARKER] = enclosure.marker  # after the overrides: a call cannot unmark its run
    try:
        if session.pty:
            child = spawn_pty(argv, session.cwd, env, session.on_data, *PTY_SIZE, enclosure.entry)
        else:
            child = spawn_pipe(argv, session.cwd, env, session.on_data, enclosure.entry)
    except OSError as exc:
        containment.ended(session.id)
        raise LaunchError("spawn-error", f"could not start {argv[0]}: {exc}") from exc
    containment.started(session.id, child.pid)
    return SessionRun(child, placement, enclosure, PTY_SIZE if session.pty else None)


async def end_session(session: Session, reason: str | None, grace_s: float | None = None) -> None:
    """End everything in a running session's container (SIGTERM, grace, SIGKILL) and record the cleanup
    result: ``confirmed`` once the OS shows none left, else ``uncertain`` with the pids in ``leftover``.

    ``reason`` (who asked: an agent, ``operator``, ``timeout``, ``shutdown``) is recorded as ``killedBy``;
    None ends leftovers of a session that exited on its own. Concurrent callers share one termination.
    ``grace_s`` overrides the session's grace (a termination resumed after a re-exec gets what was left).
    """
    run = session.run
    assert run is not None, "only a launched session has processes to end"
    session.exit.asked(reason)
    if run.ending is None:
        run.ending_since = time.monotonic()
        grace = session.settings.kill_grace_s if grace_s is None else grace_s
        run.ending = asyncio.ensure_future(_terminate(session, run, grace))
    await asyncio.shield(run.ending)


async def _terminate(session: Session, run: SessionRun, grace_s: float) -> None:
    await until_program_started(session)
    session.exit.cleaned(await run.enclosure.end(grace_s))


def known_started(session: Session) -> bool:
    """Whether what is sent to the session now reaches its program: always, but for a sandboxed run whose
    program has not been seen started yet (see :func:`until_program_started`)."""
    run = session.run
    return run is None or run.placement != Placement.SANDBOX or run.program_started or sandbox.cached() is None


async def until_program_started(session: Session) -> None:
    """For a sandboxed run, wait (a few ms, at most SANDBOX_START_S) until the program inside has started.

    Until the program's dispositions are restored inside, every process of the session is launcher and
    ignores SIGTERM and SIGINT, so a kill, or a Ctrl-C typed into its terminal, sent then would be lost;
    waiting gives the program what a host run gets. Known once, remembered.
    """
    run = session.run
    tools = sandbox.cached()
    if known_started(session) or run is None or tools is None:
        return
    deadline = asyncio.get_running_loop().time() + SANDBOX_START_S
    while asyncio.get_running_loop().time() < deadline:
        pids = members(run.child.pgid, await fresh_table())
        if not pids or sandbox.program_started(pids, tools):
            break
        await asyncio.sleep(POLL_S / 4)
    run.program_started = True


async def supervise(session: Session, timeout_s: float) -> int:
    """Wait for the session to end (or time out), make sure nothing of it survives, then mark it ended."""
    run = session.run
    assert run is not None
    child = run.child
    run.deadline = time.monotonic() + timeout_s if timeout_s > 0 else None
    try:
        if timeout_s > 0:
            status = await asyncio.wait_for(asyncio.shield(child.exited), timeout_s)
        else:
            status = await child.exited
    except TimeoutError:
        session.exit.time_out()
        await end_session(session, "timeout")
        status = await child.exited
    await _settle(session, run)
    child.release()
    session.capture.flush()
    session.mark_exited(sandbox.wait_status(status) if run.placement == Placement.SANDBOX else status)
    return status


async def _settle(session: Session, run: SessionRun) -> None:
    """After the leader exits: drain its output and end any descendant it left behind."""
    child = run.child
    try:
        await asyncio.wait_for(child.streams_closed.wait(), SETTLE_S)
        leftovers = bool(await run.enclosure.members())
    except TimeoutError:
        leftovers = True  # someone still holds the output open
    if leftovers or run.ending is not None:
        await end_session(session, None)
    else:
        session.exit.clean_on_its_own()
    try:
        await asyncio.wait_for(child.streams_closed.wait(), ABANDON_S)
    except TimeoutError:
        session.exit.escaped(*await _end_escaped(child, session.settings.kill_grace_s))
        child.close_streams()


async def _end_escaped(child: Child, grace_s: float) -> tuple[list[int], bool]:
    """End processes outside the session's container that still hold its output open (one handed the fd,
    or one that left its cgroup with root's rights), found by that output: the pids still there, and
    whether the output closed (none is left)."""
    links = child.stream_links()
    escaped = await asyncio.to_thread(holders, links, os.getpid())
    left = await terminate_pids(escaped, grace_s) if escaped else []
    try:
        await asyncio.wait_for(child.streams_closed.wait(), ABANDON_S)
        return left, True
    except TimeoutError:
        return left, False
