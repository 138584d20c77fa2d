"""The line a waiting session shows: what it asks, masked as names are, for the list and for notifications."""

from __future__ import annotations

from collections.abc import Callable

from ..session import Session, masked

PROMPT_CHARS = 200
TEXT_WINDOW = 4000  # a pipe session's last output read for its last line


def waiting_prompt(session: Session, last_line: Callable[[Session], str] | None) -> str:
    """A PTY session's last non-empty screen line (``last_line``, the terminal engine's), else the last
    non-empty line of its output; whitespace collapsed, secrets masked, at most 200 characters."""
    if session.pty and last_line is not None:
        line = last_line(session)
    else:
        text = session.output.tail_text(TEXT_WINDOW)
        line = next((part for part in reversed(text.splitlines()) if part.strip()), "")
    return masked(" ".join(line.split()))[:PROMPT_CHARS]
