"""Hosts with ``[notify]`` settings, a way to hear what the host announced (``host-attention``), and the
question the notification tests ask."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config.notifysettings import NotifySettings
from openclaw_tui.core.config.settings import ExecSettings, Settings
from openclaw_tui.core.session import Event, EventKind

from .hosts import hosting


def notify_settings(exec_changes: dict[str, Any] | None = None, **notify: Any) -> Settings:
    return Settings(exec=replace(ExecSettings(), **(exec_changes or {})), notify=NotifySettings(**notify))


@asynccontextmanager
async def notifying(exec_changes: dict[str, Any] | None = None, **notify: Any) -> AsyncIterator[tuple[ToolHost, list[dict[str, Any]]]]:
    """A host with these ``[notify]`` settings, and the list of what it announced (``host-attention``)."""
    heard: list[dict[str, Any]] = []

    def on(event: Event) -> None:
        if event.kind == EventKind.ATTENTION:
            heard.append(event.payload.to_json())

    async with hosting(ToolHost(settings=notify_settings(exec_changes, **notify))) as host:
        host.subscribe(on)
        yield host, heard


PROMPT = "read -p 'Overwrite existing config? [y/N] ' a; echo answered $a; sleep 30"
