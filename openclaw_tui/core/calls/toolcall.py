"""A tool call as it arrives, read one way on every surface: JSON text or an object, or a named reason.

A call that cannot be read raises :class:`BadCall` carrying the ``failed`` result that says why; the tools'
names live here too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from . import calltext
from .results import ToolResult, failure

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from typing import Any

TOOL_NAMES = ("exec", "process")
"""The tools an agent can call; :data:`~openclaw_tui.core.tools.TOOLS` runs each of them."""


class BadCall(Exception):
    """A call that cannot be read or run; ``result`` is the ``failed`` result naming the problem."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result["text"])
        self.result = result


def read(call: Any, large: bool = False) -> dict[str, Any]:
    """``call`` (JSON text, or an already decoded value) as a call object; raises :class:`BadCall`.

    ``large`` decodes with :func:`.calltext.loads_large`, for text long enough to be read off the loop.
    """
    if isinstance(call, str | bytes):
        try:
            call = calltext.loads_large(call) if large else calltext.loads(call)
        except calltext.BadJSON as exc:
            raise BadCall(failure(f"the call is not valid JSON: {exc}", "invalid-json")) from None
    return as_object(call)


def as_object(value: Any) -> dict[str, Any]:
    """A decoded call as the object it must be; a string is never decoded a second time."""
    if not isinstance(value, Mapping):
        raise BadCall(failure(
            f'a tool call must be a JSON object like {{"tool": "exec", "command": "ls"}}, not {_json_kind(value)}',
            "invalid-call",
        ))
    return dict(value)


def unknown_tool(name: Any) -> ToolResult:
    """The failed result for a tool name that is none of :data:`TOOL_NAMES`."""
    return failure(f"unknown tool {calltext.shown(name)}; valid tools: {', '.join(TOOL_NAMES)}", "unknown-tool")


def _json_kind(value: Any) -> str:
    if isinstance(value, str):
        return "a JSON string"
    if isinstance(value, list):
        return "a JSON array"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return "a number" if isinstance(value, int | float) else type(value).__name__
