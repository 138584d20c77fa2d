"""Hosts that keep their sessions in a journal of their own, as a restart finds them: one state directory
for hosts started one after the other, and ways to wait for what the journal wrote and for a session's end."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.journal.restore import journal_name

from .hosts import hosting


def settings(state: Path, persist: bool = True, **exec_changes: Any) -> Settings:
    return Settings(exec=replace(ExecSettings(), **exec_changes), state_dir=str(state), persist=persist)


@contextlib.asynccontextmanager
async def host_on(state: Path, sock: Path, persist: bool = True, **exec_changes: Any) -> AsyncIterator[ToolHost]:
    """A host that keeps its sessions as the host of ``sock``, started once it has restored them."""
    async with hosting(ToolHost(settings=settings(state, persist, **exec_changes))) as host:
        host.persist(sock)
        assert host.restored is not None
        await host.restored
        yield host


def sessions_dir(state: Path, sock: Path) -> Path:
    return state / "journal" / journal_name(sock) / "sessions"


async def flushed(host: ToolHost) -> None:
    assert await asyncio.to_thread(host.supervisor.journal.flush)


async def flushed_or_off(host: ToolHost) -> None:
    """Whatever the journal would write is written (nothing, when it is off)."""
    await asyncio.to_thread(host.supervisor.journal.flush)


async def ended(host: ToolHost, sid: str) -> None:
    session = host.session(sid)
    assert session is not None
    await asyncio.wait_for(session.done.wait(), 20)
