"""The sessions a host knows, who may see them, and how long finished ones are kept."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

from ..config import MAX_FINISHED, MAX_RETAINED_TOTAL
from .ids import IssuedIds, new_session_id
from .session import Session


class Registry:
    """Owns session lifetimes; ``on_removed(session)`` is called when one is dropped."""

    def __init__(
        self,
        on_removed: Callable[[Session], None],
        max_finished: int = MAX_FINISHED,
        max_retained: int = MAX_RETAINED_TOTAL,
        issued: IssuedIds | None = None,
    ) -> None:
        self._sessions: dict[str, Session] = {}
        self.issued = IssuedIds() if issued is None else issued
        self._expiry: dict[str, asyncio.TimerHandle] = {}
        self._on_removed = on_removed
        self.max_finished = max_finished
        self.max_retained = max_retained
        self.on_issued: Callable[[str], None] = lambda session_id: None

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._sessions.values()))

    def __len__(self) -> int:
        return len(self._sessions)

    def new_id(self) -> str:
        """An id no session of this host ever had (nor any in ``issued`` from before)."""
        session_id = new_session_id(self.issued)
        self.issued.add(session_id)
        self.on_issued(session_id)
        return session_id

    def add(self, session: Session) -> None:
        self.issued.add(session.id)
        self._sessions[session.id] = session

    def get(self, session_id: str, agent: str | None) -> Session | None:
        """The session if it exists and ``agent`` may see it (others behave as not found)."""
        session = self._sessions.get(session_id)
        if session is None or (agent is not None and session.agent != agent):
            return None
        return session

    def listed(self, agent: str | None) -> list[Session]:
        """Backgrounded sessions in scope, newest first."""
        found = [s for s in self._sessions.values() if s.backgrounded and (agent is None or s.agent == agent)]
        return sorted(found, key=lambda s: s.order, reverse=True)

    def finished(self, session: Session) -> None:
        """A session ended: forget it if it never left the foreground, else start its TTL and evict."""
        if not session.backgrounded:
            self.drop(session.id)
            return
        loop = asyncio.get_running_loop()
        self._expiry[session.id] = loop.call_later(session.settings.ttl_ms / 1000, self.drop, session.id)
        self._evict(newest=session)

    def restore(self, session: Session, ttl_left_s: float) -> None:
        """A finished session brought back from the journal, expiring in ``ttl_left_s``."""
        self.add(session)
        self._expiry[session.id] = asyncio.get_running_loop().call_later(max(0.0, ttl_left_s), self.drop, session.id)

    def evict_restored(self) -> None:
        """After restoring: hold to the bounds, keeping the most recently finished."""
        done = [s for s in self._sessions.values() if not s.running]
        if done:
            self._evict(newest=max(done, key=lambda s: s.exit.ended_ms or 0))

    def drop(self, session_id: str) -> Session | None:
        session = self._sessions.pop(session_id, None)
        timer = self._expiry.pop(session_id, None)
        if timer is not None:
            timer.cancel()
        if session is not None:
            self._on_removed(session)
        return session

    def _evict(self, newest: Session) -> None:
        done = sorted((s for s in self._sessions.values() if not s.running), key=lambda s: s.exit.ended_ms or 0)
        total = sum(s.output.retained_chars for s in self._sessions.values())
        for old in done:
            if len(done) <= self.max_finished and total <= self.max_retained:
                break
            if old is newest:
                continue
            self.drop(old.id)
            done = [s for s in done if s is not old]
            total -= old.output.retained_chars

    def expiries(self) -> dict[str, float]:
        """When each finished session expires, in the loop's clock (monotonic, so it holds across an exec)."""
        return {sid: timer.when() for sid, timer in self._expiry.items()}

    def adopt(self, session: Session, expires: float | None) -> None:
        """A session of the previous image of this host (a re-exec in place), finished ones with the TTL
        they had left."""
        self.add(session)
        if expires is not None:
            self._expiry[session.id] = asyncio.get_running_loop().call_at(expires, self.drop, session.id)

    def close(self) -> None:
        for timer in self._expiry.values():
            timer.cancel()
        self._expiry.clear()
