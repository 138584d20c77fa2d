"""Which sessions and agents the operator muted: no notification of them reaches a hook or a bell.

Plain data the host keeps in its journal, so a mute outlives a restart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Mutes:
    """Muted session ids and agent names (the operator's own sessions are muted by id)."""

    def __init__(self, sessions: Iterable[str] = (), agents: Iterable[str] = ()) -> None:
        self.sessions = set(sessions)
        self.agents = set(agents)

    def covers(self, session_id: str | None, agent: str | None) -> bool:
        """Whether a session (by its id and agent) is muted."""
        return session_id in self.sessions or (agent is not None and agent in self.agents)

    def set(self, muted: bool, session_id: str | None = None, agent: str | None = None) -> bool:
        """Mute (or unmute) a session or an agent; True when that changed anything."""
        target, key = (self.sessions, session_id) if session_id is not None else (self.agents, agent)
        if key is None or (key in target) == muted:
            return False
        if muted:
            target.add(key)
        else:
            target.discard(key)
        return True

    def forget(self, session_id: str) -> bool:
        """The session is gone from the host: its mute goes with it; True when it had one."""
        if session_id in self.sessions:
            self.sessions.discard(session_id)
            return True
        return False

    def to_json(self) -> dict[str, list[str]]:
        return {"sessions": sorted(self.sessions), "agents": sorted(self.agents)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Mutes:
        return cls((s for s in d.get("sessions", ()) if isinstance(s, str)),
                   (a for a in d.get("agents", ()) if isinstance(a, str)))
