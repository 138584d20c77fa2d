"""The shape every tool call returns: ``{"text": ..., "details": {"status": ..., ...}}``."""

from __future__ import annotations

from ..session import Status

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms

if TYPE_CHECKING:
    from typing import Any

    from ..session import Output

ToolResult = dict[str, "Any"]


def result(text: str, status: Status, **details: Any) -> ToolResult:
    return {"text": text, "details": {"status": status, **details}}


def failure(message: str, kind: str, **details: Any) -> ToolResult:
    """A refused or failed call: the text names the problem and what would be valid."""
    return result(message, Status.FAILED, failureKind=kind, **details)


EXEC_FIELDS = (
    "sessionId", "name", "pid", "pty", "cwd", "host", "elevated", "startedAt", "durationMs", "exitCode",
    "exitSignal", "truncated", "timedOut", "cleanup", "leftoverPids", "containment",
)
"""The session details every ``exec`` result carries (see ``Session.details``)."""


def refused(message: str, kind: str) -> ToolResult:
    """An ``exec`` that never started: the same detail fields as any exec result, empty."""
    empty: dict[str, Any] = dict.fromkeys(EXEC_FIELDS)
    empty.update(tail="", timedOut=False, truncated=False)
    return failure(message, kind, **empty)


MORE_TIME = (
    "To allow more time, raise timeout (in seconds; 0 disables it); for long work, run it with background: "
    "true (or a larger yieldMs) and follow it with process poll"
)
"""What a timed-out run's text says, so the agent knows how to give the next attempt longer."""

ANSWER_WITH = ("answer with write (data), send-keys (keys such as Enter, C-c), submit (Enter) or paste (text)")


def waiting_hint(session_id: str, reason: str | None = None, kernel_checked: bool = False) -> str:
    """What to do about a session that may wait for input, from the kernel's evidence when there is some.

    ``reason`` is the kernel's (the program is blocked reading its terminal, echo off for a password);
    without one, the hint rests on the idle rule alone, and ``kernel_checked`` says the kernel was asked
    and did not see the program reading, so the agent is warned before it types into a busy program.
    """
    if reason is not None:
        what = "a password prompt: echo is off" if reason == "password-prompt" else "it is reading its terminal"
        return (f"Session {session_id} is waiting for input ({what}). Check the transcript with log if unsure "
                f"what it asks, then {ANSWER_WITH}.")
    hint = (f"Session {session_id} looks like it is waiting for input (no output for a while, stdin open). "
            f"Check the transcript with log, then {ANSWER_WITH}.")
    if kernel_checked:
        hint += (" But it does not look blocked reading its terminal: it may be busy rather than waiting, so "
                 "make sure of the prompt before you type.")
    return hint


def dropped_note(output: Output) -> str:
    """The line that opens a result when output was discarded at the retention cap, so no agent reads a
    tail as the whole story ("" when nothing was)."""
    if not output.truncated:
        return ""
    return f"[output truncated: {output.gap()} chars in the middle were dropped at the retention cap]\n"
