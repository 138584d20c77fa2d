"""Exit notifications: telling an agent its background job ended so it never needs to sleep-loop.

One notice per backgrounded session that ends on its own or by timeout, prepended to its agent's next tool
result; the package docstring says when none is owed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..session import ExitNotice, Session, Status

SNIPPET_CHARS = 180
QUEUE_MAX = 100
_SPACE = re.compile(r"\s+")


def snippet(session: Session) -> str:
    """The last output on one line, whitespace collapsed, at most 180 characters."""
    text = _SPACE.sub(" ", session.output.tail_text(SNIPPET_CHARS * 4)).strip()
    return text[-SNIPPET_CHARS:]


class Notices:
    """Per-agent queues of exit notices, and what decides whether an exit needs one."""

    def __init__(self) -> None:
        self._queues: dict[str | None, list[dict[str, Any]]] = {}
        self._reported: set[str] = set()  # sessions whose end a result already told their agent
        self._awaited: Counter[str] = Counter()  # timed polls of a session's own agent waiting on it now
        self.on_told: Callable[[str], None] = lambda session_id: None

    def reported(self, session_id: str) -> None:
        """A result (a poll, a kill) told the agent how the session ended: no notice repeats it."""
        self._reported.add(session_id)
        self.discard(session_id)
        self.on_told(session_id)

    @contextmanager
    def awaiting(self, session_id: str) -> Iterator[None]:
        """A timed poll of the session's own agent is waiting on it: an exit meanwhile reaches the agent
        through that poll, so it gets no notice besides (the MCP log message would repeat it)."""
        self._awaited[session_id] += 1
        try:
            yield
        finally:
            self._awaited[session_id] -= 1
            if not self._awaited[session_id]:
                del self._awaited[session_id]

    def awaited(self, session_id: str) -> bool:
        """Whether a timed poll of the session's own agent is waiting on it now."""
        return self._awaited[session_id] > 0

    def forget(self, session_id: str) -> None:
        """The session is gone from the host: nothing about it is kept."""
        self._reported.discard(session_id)
        self.discard(session_id)

    def on_exit(self, session: Session) -> ExitNotice | None:
        """Queue a notice if the rules call for one; returns it (for the event stream) or None."""
        s = session.settings
        if not (s.notify_on_exit and session.backgrounded):
            return None
        if session.id in self._reported or self.awaited(session.id):
            return None
        end = session.exit
        if end.killed_by not in (None, "timeout"):
            return None
        text = snippet(session)
        if end.status == Status.COMPLETED and end.code == 0 and not text and not s.notify_on_exit_empty_success:
            return None
        notice = ExitNotice(
            session_id=session.id, name=session.name, agent=session.agent, status=end.status, exit_code=end.code,
            exit_signal=end.signal, timed_out=end.timed_out, failure_kind=end.failure, snippet=text,
            text=f"[exit] {session.id} ({session.name}) {end.status}, {end.words()}" + (f": {text}" if text else ""),
        )
        self.add(notice.to_json())
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
        taken = self._queues.pop(agent, [])
        for notice in taken:
            self.on_told(notice["sessionId"])
        return taken

    def to_json(self) -> dict[str, Any]:
        """The queues and which ends were already reported, for the next image of a host re-executing in
        place (timed polls waiting now end with their connections, so they are not kept)."""
        return {"queues": {agent: list(q) for agent, q in self._queues.items() if agent is not None},
                "reported": sorted(self._reported)}

    def restore(self, d: dict[str, Any]) -> None:
        """Take back what :meth:`to_json` wrote (into this object: relays hold on to it)."""
        self._queues.update({agent: list(q) for agent, q in d.get("queues", {}).items()})
        self._reported.update(d.get("reported", ()))
