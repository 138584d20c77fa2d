"""Fixtures for core tests: a host on default settings, and helpers that wait on conditions."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config import ExecSettings, Settings

from ..waiting import wait_for  # noqa: F401  (re-exported for the core tests)


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    async with ToolHost(env={}, config_path="/dev/null") as h:
        yield h


def make_host(**exec_changes: Any) -> ToolHost:
    """A host whose exec settings bypass clamps (short TTLs and thresholds for tests)."""
    return ToolHost(settings=Settings(exec=replace(ExecSettings(), **exec_changes)))


async def poll_until(host: ToolHost, sid: str, agent: str | None, predicate: Callable[[str], bool],
                     timeout: float = 20.0) -> str:
    """Poll (timed) until the accumulated output satisfies ``predicate``; returns the output."""
    seen = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await host.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 2000}, agent=agent)
        out = r["text"]
        if r["details"].get("newOutputChars"):
            seen += out
        if predicate(seen):
            return seen
        if r["details"]["status"] != "running":
            break
    raise AssertionError(f"output never matched; got {seen!r}")


async def bg(host: ToolHost, command: str, agent: str | None = "main", **kw: Any) -> str:
    r = await host.call({"tool": "exec", "command": command, "background": True, **kw}, agent=agent)
    assert r["details"]["status"] == "running", r
    return r["details"]["sessionId"]
