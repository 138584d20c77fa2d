"""Hosts for tests, built on test settings, served on sockets of their own, and closed within a deadline.

Closing a host ends its sessions and waits until none of their processes is left, which a broken kill (a
regression, or a child that ignores SIGTERM and escapes the SIGKILL) would make wait forever, stalling
the whole run even under an outer timeout. Here closing has a deadline: past it, every process of every
session is killed outright, the close gets a little longer to finish, and the test fails, naming the
sessions that would not end: a failing test fails, it never hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.host.sessionhost import SessionHost
from openclaw_tui.remote.server.hostserver import HostServer

H = TypeVar("H", bound=SessionHost)
CLOSE_S = 30.0  # a kill's grace and confirmation, for many sessions at once, on a loaded machine
FORCED_S = 10.0  # after SIGKILL to everything: supervisors see the exits and the containment is freed


async def close_within(host: SessionHost, deadline: float = CLOSE_S) -> None:
    """Close ``host``; if that takes longer than ``deadline``, force-kill its sessions and fail loudly."""
    closing = asyncio.ensure_future(host.close())
    done, _ = await asyncio.wait({closing}, timeout=deadline)
    if closing in done:
        closing.result()
        return
    stuck = [f"{s.id} ({s.command!r}, pid {s.pid})" for s in host.sessions() if s.running]
    host.force_kill()
    done, _ = await asyncio.wait({closing}, timeout=FORCED_S)
    if closing not in done:
        closing.cancel()
        with contextlib.suppress(BaseException):
            await closing
    pytest.fail(f"the host did not close within {deadline:.0f} s; its sessions were force-killed"
                f"{'' if closing in done else ' and it still did not close'}: {', '.join(stuck) or 'none running'}")


@contextlib.asynccontextmanager
async def hosting(host: H, deadline: float = CLOSE_S) -> AsyncIterator[H]:
    """``async with hosting(host)``: started, and closed within ``deadline`` (see :func:`close_within`)."""
    host.start()
    try:
        yield host
    finally:
        await close_within(host, deadline)


def socket_folder() -> Path:
    """A new private folder for sockets, under ``/tmp``; the caller removes it. A Unix socket's path holds
    107 bytes at most, and ``tmp_path`` is as long as ``--basetemp`` and the test's name make it."""
    return Path(tempfile.mkdtemp(prefix="oc-", dir="/tmp"))


def exec_settings(**exec_changes: Any) -> Settings:
    """Settings whose exec part bypasses clamps (short TTLs and thresholds for tests)."""
    return Settings(exec=replace(ExecSettings(), **exec_changes))


def make_host(**exec_changes: Any) -> AbstractAsyncContextManager[ToolHost]:
    """``async with make_host(...) as host``: a host on :func:`exec_settings`, closed within a deadline."""
    return hosting(ToolHost(settings=exec_settings(**exec_changes)))


@contextlib.asynccontextmanager
async def serving(host: ToolHost, sock: Path) -> AsyncIterator[tuple[ToolHost, Path]]:
    """``host`` served on ``sock`` for the duration."""
    server = HostServer(host, sock)
    await server.start()
    try:
        yield host, sock
    finally:
        await server.close()
