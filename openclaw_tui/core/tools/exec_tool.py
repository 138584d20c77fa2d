"""The ``exec`` tool: start a command, answer directly if it ends in its yield window, else hand back a
session.

Where the run executes (the sandbox, the host itself, or a node) is decided here, before the environment check
that depends on it.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace
from typing import Any

from ..approvals import Pending
from ..calls import EXEC_FIELDS, MORE_TIME, ToolResult, dropped_note, refused, result
from ..config import TAIL_CHARS, YIELD_RANGE, ExecSettings, PlacementMode, clamp
from ..containment import Placement, sandbox
from ..launch import (
    LaunchError,
    check_env,
    choose_placement,
    end_session,
    login_path_async,
    resolve_workdir,
    too_long,
)
from ..session import MASK, Session, Status
from . import gate
from .models import ExecParams
from .nodecalls import exec_on_node, runs_on_node
from .toolcore import ToolCore


async def run_exec(core: ToolCore, params: ExecParams, agent: str | None) -> ToolResult:
    if runs_on_node(params):  # the node judges the run with its own policy and allowlist
        return await exec_on_node(core.nodes, params, agent)
    rerun_of = None
    if params.rerunOf is not None:
        found = rerun_source(core, params, agent)
        if isinstance(found, str):
            return refused(found, "invalid-params" if agent is None else "operator-only")
        rerun_of, params = found
    over = too_long(params.command, params.env, os.environ)
    if over is not None:
        return refused(over[1], over[0])
    settings = core.settings.for_agent(agent)
    policy = await core.approvals.policy(settings, params.ask, agent)
    if isinstance(policy, str):
        return refused(policy, "invalid-params")
    if params.elevated and not core.settings.elevated_allowed:
        return refused(
            "elevated runs (outside the sandbox) are not enabled on this host (set tools.elevated.enabled = "
            "true in the config); nothing was run",
            "elevated-refused",
        )
    asked = None if params.host is None else PlacementMode(params.host)  # not "node": that ran on the node
    problem = await _placement_problem(core, asked, params.elevated, settings.placement)
    if problem is not None:
        return problem
    mode = settings.placement if asked is None or asked == PlacementMode.AUTO else asked
    try:
        cwd = resolve_workdir(params.workdir)
        where = await choose_placement(mode, params.elevated)
        env = check_env(params.env, sandboxed=where == Placement.SANDBOX)
        timeout_s = settings.timeout_sec if params.timeout is None else params.timeout
        login = await login_path_async() if settings.login_path else ()
        run = replace(settings, placement=PlacementMode(where), elevated=params.elevated, path_login=login)
        checked = await gate.admit(core, policy, params, agent, cwd, where, env, run)
        if gate.denied(checked):
            return refused(f"{checked.verdict.why}; nothing was run", "exec-denied")
        if gate.asks(checked):
            session, pending = gate.ask(core, checked, policy, params, agent, where, env, timeout_s, run)
            _remember(session, env, rerun_of)
            return await _awaiting(core, params, settings, session, pending)
        moved = checked.moved()  # looked up again just before the spawn
        if moved is not None:
            return refused(f"{moved}; nothing was run", "exec-denied")
        session = core.spawn(params.command, agent, cwd, params.pty, env, timeout_s, run, script=checked.script)
        _remember(session, env, rerun_of)
    except LaunchError as exc:
        return refused(str(exc), exc.kind)
    if checked.script is not None and checked.analysis is not None:
        core.approvals.used(checked.analysis)
    return await _follow(core, params, settings, session)


def rerun_source(core: ToolCore, params: ExecParams, agent: str | None) -> str | tuple[str, ExecParams]:
    """The session ``rerunOf`` names, and the parameters with its env values kept where the operator left
    them masked (``***``); or why there is no re-run (only the operator re-runs, and only a session it sees)."""
    if agent is not None:
        return "rerunOf is the operator's (a re-run from the dashboard); nothing was run"
    assert params.rerunOf is not None
    old = core.registry.get(params.rerunOf, None)
    if old is None:
        return f"rerunOf: no session {params.rerunOf!r} to re-run (use process list to see the sessions); nothing was run"
    env = {name: old.env.get(name, value) if value == MASK else value for name, value in (params.env or {}).items()}
    return old.id, params.model_copy(update={"env": env or None})


def _remember(session: Session, env: dict[str, str], rerun_of: str | None) -> None:
    """What a re-run of ``session`` starts with again (the call's own environment, as checked), and what it
    re-runs."""
    session.env, session.rerun_of = dict(env), rerun_of


async def _follow(core: ToolCore, params: ExecParams, settings: ExecSettings, session: Session) -> ToolResult:
    """The run has started: answer with its whole output if it ends in its yield window, else background it."""
    if not core.settings.process_allowed:
        await _wait_foreground(session, None)
        note = "Note: the process tool is not allowed here, so this ran synchronously (yieldMs/background ignored).\n"
        return foreground_result(session, note)
    if params.background:
        return background_result(core, session)
    yield_ms = settings.yield_ms if params.yieldMs is None else clamp(params.yieldMs, YIELD_RANGE)
    ended = await _wait_foreground(session, yield_ms / 1000)
    res = foreground_result(session) if ended else background_result(core, session)
    res["details"]["yieldMs"] = yield_ms
    return res


async def _awaiting(core: ToolCore, params: ExecParams, settings: ExecSettings, session: Session,
                    pending: Pending) -> ToolResult:
    """A run that waits for the operator: inline for its yield window (none with ``background``; until the
    decision when there is no process tool to poll with), then ``approval-pending``. Approved in time, it
    runs as usual, its yield window counted from the spawn; a cancelled call withdraws the request."""
    wait_s: float | None = 0.0 if params.background else (
        (settings.yield_ms if params.yieldMs is None else clamp(params.yieldMs, YIELD_RANGE)) / 1000)
    if not core.settings.process_allowed:
        wait_s = None
    try:
        await asyncio.wait_for(asyncio.shield(pending.settled.wait()), wait_s)
    except TimeoutError:
        pass
    except asyncio.CancelledError:
        core.approvals.withdraw(session.id, session.agent or "operator")
        raise
    if not pending.settled.is_set():
        core.background(session)
        core.approvals.told(pending)
        return gate.pending_result(core, session, pending)
    if not session.exit.started:  # denied, not answered in time, or it could not start
        return foreground_result(session)
    return await _follow(core, params, settings, session)


async def _placement_problem(core: ToolCore, asked: PlacementMode | None, elevated: bool,
                             configured: PlacementMode) -> ToolResult | None:
    """Why a per-call ``host`` cannot be had, or None. ``sandbox`` only narrows what a run may do, so it is
    always allowed (if the sandbox works); ``gateway`` widens it, so it passes the gate ``elevated`` does,
    unless the configuration already runs everything on the host."""
    if asked == PlacementMode.GATEWAY and configured != asked and not core.settings.elevated_allowed:
        return refused(
            f"host: \"{asked}\" runs outside the sandbox, which this host allows only with elevated mode (set "
            "tools.elevated.enabled = true in the config); leave host out to run where the config says; "
            "nothing was run",
            "elevated-refused",
        )
    if asked != PlacementMode.SANDBOX:
        return None
    if elevated:
        return refused(f"host: \"{asked}\" and elevated: true contradict each other (elevated runs outside the "
                       "sandbox); give one of them; nothing was run", "invalid-params")
    found = await sandbox.check()
    if not found.usable:
        return refused(f"host: \"{asked}\" was asked for, but the sandbox cannot run here: {found.reason}; "
                       "nothing was run", "sandbox-unavailable")
    return None


async def _wait_foreground(session: Session, seconds: float | None) -> bool:
    """Wait for the run to end; a cancelled call ends the run too. True if it ended in time."""
    try:
        await asyncio.wait_for(asyncio.shield(session.done.wait()), seconds)
        return True
    except TimeoutError:
        return False
    except asyncio.CancelledError:
        await asyncio.shield(end_session(session, "cancelled"))
        raise


def foreground_result(session: Session, note: str = "") -> ToolResult:
    """The whole (capped) output of a run that ended, with how it ended when that matters."""
    out = session.output
    text = out.full_text()
    header = note + dropped_note(out)
    footer = ""
    kind = None
    end = session.exit
    if not end.started:  # it waited for the operator and never ran
        kind, text = end.failure, f"Command NOT run: {end.words()}."
    elif end.timed_out:
        kind = "timeout"
        footer = (
            f"\n[timed out after {session.runtime_ms() / 1000:.1f}s and was killed; "
            f"side effects may already have happened. {MORE_TIME}]"
        )
    elif end.code == 127:
        kind, footer = "not-found", "\n[exit 127: command not found]"
    elif end.code == 126:
        kind, footer = "not-executable", "\n[exit 126: command found but not executable]"
    elif end.signal or end.code:
        footer = f"\n[{end.words()}]"
    if not text and not footer:
        text = "(no output)"
    details: dict[str, Any] = session_fields(session)
    details.update(sessionId=None, tail=out.tail_text(TAIL_CHARS), failureKind=kind if session.status == Status.FAILED else None)
    body = text.rstrip("\n")
    return result(header + body + (footer if body else footer.lstrip("\n")), session.status, **details)


def session_fields(session: Session) -> dict[str, Any]:
    d = session.details()
    return {k: d[k] for k in EXEC_FIELDS}


def background_result(core: ToolCore, session: Session) -> ToolResult:
    """Hand the run to the background and tell the agent how to follow it, with the output's tail."""
    tail = session.output.tail_text(TAIL_CHARS)
    session.output.pending.take()  # the agent has seen the tail; earlier output stays in log
    core.background(session)  # after the take: its journal record starts with what the agent has read
    details = session_fields(session)
    details.update(tail=tail, failureKind=None)
    text = dropped_note(session.output) + (
        f"Command still running in the background: session {session.id} ({session.name}), pid {session.pid}.\n"
        f"Use process with sessionId \"{session.id}\": poll (with timeout) for new output, log to read it, "
        "write/send-keys/submit/paste for input, kill to stop. You will be notified when it exits."
    )
    if tail:
        text += f"\n\nOutput so far (tail):\n{tail.rstrip()}"
    return result(text, Status.RUNNING, **details)
