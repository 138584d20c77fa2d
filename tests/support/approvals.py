"""Hosts whose exec approvals ask, on an allowlist file of the test's own, and the calls tests make on them:
a run that waits for the operator (over any surface's ``call``), its poll, its end."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config import ExecSettings, Settings

from .hosts import hosting
from .waiting import wait_for

Call = Callable[..., Awaitable[dict[str, Any]]]  # a host's, a socket client's or an MCP session's call


def asking_settings(approvals_file: Path, elevated: bool = False, process: bool = True,
                    **exec_changes: Any) -> Settings:
    """Runs on the gateway (unless ``placement`` says otherwise) under the exec approvals ``exec_changes``
    set, with ``approvals_file`` as the allowlist."""
    changes = {"placement": "gateway", **exec_changes}
    return Settings(exec=replace(ExecSettings(), **changes), approvals_file=str(approvals_file),
                    elevated_allowed=elevated, process_allowed=process)


@asynccontextmanager
async def asking(approvals_file: Path, elevated: bool = False, process: bool = True,
                 **exec_changes: Any) -> AsyncIterator[ToolHost]:
    """A host of :func:`asking_settings`, closed with proof afterwards."""
    async with hosting(ToolHost(settings=asking_settings(approvals_file, elevated, process, **exec_changes))) as host:
        yield host


def allow(approvals_file: Path, *entries: dict[str, str], agent: str = "main") -> None:
    """Write the allowlist: ``entries`` for ``agent``."""
    approvals_file.write_text(json.dumps({"version": 1, "agents": {agent: {"allowlist": list(entries)}}}))


async def run(on: ToolHost, command: str, agent: str | None = "main", **params: Any) -> dict[str, Any]:
    """An exec call (``params`` may name ``host``: it is the call's own parameter)."""
    return await on.call({"tool": "exec", "command": command, "workdir": "/tmp", **params}, agent=agent)


async def requested(call: Call, command: str, agent: str = "main", **params: Any) -> dict[str, Any]:
    """A background exec that must wait for the operator: its result's details (``approvalId``, the reserved
    ``sessionId``, ``expiresAtMs``); fails with the result when the run did not wait."""
    res = await call({"tool": "exec", "command": command, "background": True, "workdir": "/tmp", **params},
                     agent=agent)
    assert res["details"]["status"] == "approval-pending", res
    return dict(res["details"])


async def pending(call: Call, command: str, agent: str = "main", **params: Any) -> str:
    """:func:`requested`'s reserved session id."""
    return str((await requested(call, command, agent, **params))["sessionId"])


async def poll(host: ToolHost, sid: str, agent: str = "main", timeout: int = 0) -> dict[str, Any]:
    return await host.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": timeout}, agent=agent)


async def ended(host: ToolHost, sid: str) -> None:
    await wait_for(lambda: host.session(sid) is None or not host.session(sid).running, what=f"{sid} to end")
