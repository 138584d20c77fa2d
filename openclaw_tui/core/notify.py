"""Exit notifications: telling an agent its background job ended so it never needs to sleep-loop.

One notice per backgrounded session that ends on its own (or by timeout), queued for the agent that
started it and prepended to that agent's next tool result. No notice when the agent itself (or the
operator) killed or removed the session, when a poll already returned how it ended (or is waiting on
the session as it ends, so it will: the MCP log message would otherwise repeat it), or for an empty
successful run unless ``notifyOnExitEmptySuccess`` asks for those too. The operator's own sessions get
no queue (the operator sees exits as dashboard toasts, from the event stream), and an agent's queue keeps
only its newest ``QUEUE_MAX`` notices, so an agent that never calls again cannot grow the host's memory.
"""

from __future__ import annotations

import re
from typing import Any

from .session import COMPLETED, Session

SNIPPET_CHARS = 180
QUEUE_MAX = 100
_SPACE = re.compile(r"\s+")


def snippet(session: Session) -> str:
    """The last output on one line, whitespace collapsed, at most 180 characters."""
    text = _SPACE.sub(" ", session.output.tail_text(SNIPPET_CHARS * 4)).strip()
    return text[-SNIPPET_CHARS:]


def describe_end(session: Session) -> str:
    return end_words(session.timed_out, session.exit_signal, session.exit_code)


def end_words(timed_out: bool, exit_signal: str | None, exit_code: int | None) -> str:
    """``timed out``, ``killed by SIGTERM`` or ``exit code 0``: also for a session known only by its details."""
    if timed_out:
        return "timed out"
    if exit_signal:
        return f"killed by {exit_signal}"
    return f"exit code {exit_code}"


class Notices:
    """Per-agent queues of exit notices."""

    def __init__(self) -> None:
        self._queues: dict[str | None, list[dict[str, Any]]] = {}

    def on_exit(self, session: Session) -> dict[str, Any] | None:
        """Queue a notice if the rules call for one; returns it (for the event stream) or None."""
        s = session.settings
        if not (s.notify_on_exit and session.backgrounded) or session.exit_reported or session.exit_awaited:
            return None
        if session.killed_by not in (None, "timeout"):
            return None
        text = snippet(session)
        if session.status == COMPLETED and session.exit_code == 0 and not text and not s.notify_on_exit_empty_success:
            return None
        notice = {
            "sessionId": session.id,
            "name": session.name,
            "agent": session.agent,
            "status": session.status,
            "exitCode": session.exit_code,
            "exitSignal": session.exit_signal,
            "timedOut": session.timed_out,
            "snippet": text,
            "text": f"[exit] {session.id} ({session.name}) {session.status}, {describe_end(session)}"
            + (f": {text}" if text else ""),
        }
        self.add(notice)
        return notice

    def add(self, notice: dict[str, Any]) -> None:
        """Queue ``notice`` for its agent (the operator's sessions get none): the host's own, or a node's."""
        if notice["agent"] is not None:
            queue = self._queues.setdefault(notice["agent"], [])
            queue.append(notice)
            del queue[:-QUEUE_MAX]

    def discard(self, session_id: str) -> None:
        """A poll returned the exit itself: the queued notice would only repeat it."""
        for queue in self._queues.values():
            queue[:] = [n for n in queue if n["sessionId"] != session_id]

    def take(self, agent: str | None) -> list[dict[str, Any]]:
        return self._queues.pop(agent, [])
