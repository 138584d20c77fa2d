"""Who is on the other end of a socket connection, and what a caller running inside a session may do.

A connection from a process inside a session is confined to that session's agent.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from dataclasses import dataclass, replace

from openclaw_tui.core.host import SessionHost
from openclaw_tui.core.session import Event, ExitNotice, SessionState, Snapshot

from ..wire import protocol as p

CONFINED = -32001  # JSON-RPC error: a confined connection asked for what only the operator may do
_CREDS = struct.Struct("3i")  # struct ucred: pid, uid, gid


class CallerRefused(Exception):
    """A confined connection asked to act as someone it may not be (the message says who it is)."""


@dataclass(frozen=True)
class Confinement:
    """The session a connection's process runs in, and that session's agent (None: the operator started
    it); ``known`` is False when the host no longer lists the session."""

    session_id: str
    agent: str | None
    known: bool = True

    def _inside(self) -> str:
        return f"a process inside session {self.session_id}"

    def scope(self) -> str:
        """The agent whose sessions this connection may see; raises the protocol's CONFINED error if none."""
        if self.agent is None or not self.known:
            raise p.RemoteError(CONFINED, f"{self._inside()}; a process inside a session may not act as the operator")
        return self.agent

    def as_agent(self, agent: str | None) -> str:
        """The agent a call acts as; raises CallerRefused."""
        if not self.known:
            raise CallerRefused(f"{self._inside()}, which this host no longer lists; it may not make calls")
        if self.agent is None:
            if agent is None:
                raise CallerRefused(f"{self._inside()}, which the operator started; a process inside a session may not "
                              "act as the operator: name an agent (--agent NAME)")
            return agent
        if agent is not None and agent != self.agent:
            raise CallerRefused(f"{self._inside()}, of agent {self.agent!r}: it may act only as {self.agent!r}, "
                          f"not as {agent!r}")
        return self.agent

    def sees(self, event: Event, host: SessionHost) -> Event | None:
        """The event if it concerns this agent's sessions (a snapshot cut down to them), else None."""
        payload = event.payload
        if isinstance(payload, Snapshot):
            sessions = tuple(d for d in payload.sessions if d.get("agent") == self.agent)
            return replace(event, payload=replace(payload, sessions=sessions))
        if isinstance(payload, ExitNotice):
            return event if payload.agent == self.agent else None
        if isinstance(payload, SessionState) and "agent" in payload.details:
            return event if payload.details["agent"] == self.agent else None
        mine = event.session_id is not None and host.session(event.session_id, self.agent) is not None
        return event if mine else None


def confinement(host: SessionHost, writer: asyncio.StreamWriter) -> Confinement | None:
    """Who is on the other end of ``writer``: None for a process outside every session of this host."""
    sock = writer.get_extra_info("socket")
    try:
        pid = _CREDS.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDS.size))[0]
    except (AttributeError, OSError):
        return None
    session_id = host.supervisor.containment.session_of(pid) if pid > 0 else None
    if session_id is None:
        return None
    session = host.session(session_id)
    return Confinement(session_id, session.agent if session else None, session is not None)
