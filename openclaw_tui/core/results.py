"""The shape every tool call returns: ``{"text": ..., "details": {"status": ..., ...}}``.

``text`` is written for an agent to read and act on; ``details`` is for programs and always carries
``status`` (running, completed or failed). Keeping the constructors here means every surface (Python API,
MCP, the JSON command line) returns exactly the same thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .buffers import Output

ToolResult = dict[str, Any]


def result(text: str, status: str, **details: Any) -> ToolResult:
    return {"text": text, "details": {"status": status, **details}}


def failure(message: str, kind: str, **details: Any) -> ToolResult:
    """A refused or failed call: the text names the problem and what would be valid."""
    return result(message, "failed", failureKind=kind, **details)


def waiting_hint(session_id: str) -> str:
    return (
        f"Session {session_id} looks like it is waiting for input (no output for a while, stdin open). "
        "Check the transcript with log, then answer with write (data), send-keys (keys such as Enter, C-c), "
        "submit (Enter) or paste (text)."
    )


def dropped_note(output: Output) -> str:
    """The line that opens a result when output was discarded at the retention cap, so no agent reads a
    tail as the whole story ("" when nothing was)."""
    if not output.truncated:
        return ""
    return f"[output truncated: {output.gap()} chars in the middle were dropped at the retention cap]\n"
