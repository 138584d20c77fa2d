"""Fixtures for core tests: a host on default settings, and helpers that wait on conditions.

Every host closes within a deadline (``tests/support/hosts.py``): a test whose sessions will not end fails, it
never hangs.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings

from ..support.hosts import hosting
from ..support.waiting import wait_for  # noqa: F401  (re-exported for the core tests)


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as h:
        yield h


def exec_settings(**exec_changes: Any) -> Settings:
    """Settings whose exec part bypasses clamps (short TTLs and thresholds for tests)."""
    return Settings(exec=replace(ExecSettings(), **exec_changes))


def make_host(**exec_changes: Any) -> AbstractAsyncContextManager[ToolHost]:
    """``async with make_host(...) as host``: a host on :func:`exec_settings`, closed within a deadline."""
    return hosting(ToolHost(settings=exec_settings(**exec_changes)))


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
