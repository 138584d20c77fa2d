"""The ``[notify]`` table: where the host sends word of a session that needs the operator.

A value that cannot be used is left out with a warning saying why and what is valid; the rest still loads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

EVENTS = ("waiting", "failed", "approval", "host-died", "exited", "node-unreachable")
DEFAULT_EVENTS = ("waiting", "failed", "approval", "host-died")
FORMATS = ("json", "text", "slack")
HOOK_TIMEOUT_MS = 10_000
TIMEOUT_RANGE = (100, 60_000)
KEYS = ("command", "webhook", "headers", "format", "desktop", "events", "bell", "timeoutMs")


@dataclass(frozen=True)
class NotifySettings:
    """The hooks (a shell command, a webhook, the desktop), which events reach them, and the dashboard's bell."""

    command: str | None = None
    webhook: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    format: str = "json"
    desktop: bool = False
    events: tuple[str, ...] = DEFAULT_EVENTS
    bell: bool = True
    timeout_ms: int = HOOK_TIMEOUT_MS

    @property
    def hooks(self) -> tuple[str, ...]:
        """The hooks configured, by name: ``command``, ``webhook``, ``desktop``."""
        return tuple(name for name, on in (("command", self.command), ("webhook", self.webhook),
                                           ("desktop", self.desktop)) if on)


def parse_notify(table: Mapping[str, Any], warn: Callable[[str], None]) -> NotifySettings:
    """``[notify]`` as settings; ``warn`` hears of each value left out and why."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        problem = _take(key, value, out)
        if problem:
            warn(f"notify.{key} = {value!r} ignored: {problem}")
    return NotifySettings(**out)


def _take(key: str, value: Any, out: dict[str, Any]) -> str | None:
    """Put ``key``'s value into ``out``; the problem in words when it cannot be used."""
    if key not in KEYS:
        return f"unknown setting (valid: {', '.join(KEYS)})"
    if key in ("command", "webhook"):
        if not isinstance(value, str) or not value.strip():
            return "must be a non-empty string"
        if key == "webhook" and not value.lower().startswith(("http://", "https://")):
            return "must be an http:// or https:// URL"
        out[key] = value
    elif key == "headers":
        if not isinstance(value, dict) or not all(isinstance(v, str) and "\n" not in v + k and ":" not in k
                                                  for k, v in value.items()):
            return 'must be a table of header names to strings, e.g. { Title = "openclaw" }'
        out["headers"] = dict(value)
    elif key == "format":
        if value not in FORMATS:
            return f"must be one of {', '.join(FORMATS)}"
        out["format"] = value
    elif key in ("desktop", "bell"):
        if not isinstance(value, bool):
            return "must be true or false"
        out[key] = value
    elif key == "events":
        if not isinstance(value, list) or not value or any(v not in EVENTS for v in value):
            return f"must be a list of events from {', '.join(EVENTS)}"
        out["events"] = tuple(dict.fromkeys(value))
    else:  # timeoutMs
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be an integer of milliseconds ({TIMEOUT_RANGE[0]}-{TIMEOUT_RANGE[1]})"
        out["timeout_ms"] = max(TIMEOUT_RANGE[0], min(TIMEOUT_RANGE[1], value))
    return None
