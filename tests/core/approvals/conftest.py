"""Hosts whose exec approvals ask, on an allowlist file of the test's own, and the calls tests make on them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config import ExecSettings, Settings

from ...hosting import hosting
from ...waiting import wait_for


@asynccontextmanager
async def asking(approvals_file: Path, elevated: bool = False, process: bool = True,
                 **exec_changes: Any) -> AsyncIterator[ToolHost]:
    """A host on the gateway (unless ``placement`` says otherwise) whose exec approvals are ``exec_changes``."""
    changes = {"placement": "gateway", **exec_changes}
    settings = Settings(exec=replace(ExecSettings(), **changes), approvals_file=str(approvals_file),
                        elevated_allowed=elevated, process_allowed=process)
    async with hosting(ToolHost(settings=settings)) as host:
        yield host


def allow(approvals_file: Path, *entries: dict[str, str], agent: str = "main") -> None:
    """Write the allowlist: ``entries`` for ``agent``."""
    approvals_file.write_text(json.dumps({"version": 1, "agents": {agent: {"allowlist": list(entries)}}}))


async def run(on: ToolHost, command: str, agent: str | None = "main", **params: Any) -> dict[str, Any]:
    """An exec call (``params`` may name ``host``: it is the call's own parameter)."""
    return await on.call({"tool": "exec", "command": command, "workdir": "/tmp", **params}, agent=agent)


async def pending(on: ToolHost, command: str, agent: str = "main", **params: Any) -> str:
    """A background exec that waits for the operator: its reserved session id."""
    res = await run(on, command, agent, background=True, **params)
    assert res["details"]["status"] == "approval-pending", res
    return str(res["details"]["sessionId"])


async def poll(host: ToolHost, sid: str, agent: str = "main", timeout: int = 0) -> dict[str, Any]:
    return await host.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": timeout}, agent=agent)


async def ended(host: ToolHost, sid: str) -> None:
    await wait_for(lambda: host.session(sid) is None or not host.session(sid).running, what=f"{sid} to end")
