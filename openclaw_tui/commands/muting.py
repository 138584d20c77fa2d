"""``openclaw-tui mute | unmute ID`` (or ``--agent NAME``) and ``openclaw-tui notify --test``: the operator's
notifications from a shell.

A mute is kept in the host's journal, so it outlives a restart; ``notify --test`` sends a test notification
through every hook of ``[notify]`` and says how each went (a failure is in ``serve.log`` too).
"""

from __future__ import annotations

from typing import Any

from .opclient import CannotCall, connect, finish, request, run


def run_mute(session_id: str | None, agent: str | None, muted: bool) -> int:
    async def main() -> int:
        if (session_id is None) == (agent is None):
            raise CannotCall(f"{'mute' if muted else 'unmute'} takes a session id or --agent NAME (one of the two)")
        params: dict[str, Any] = {"muted": muted, **({"sessionId": session_id} if session_id else {}),
                                  **({"agent": agent} if agent else {})}
        async with await connect("mute" if muted else "unmute") as client:
            return finish(await request(client, "notify.mute", params))

    return run(main)


def run_notify_test() -> int:
    async def main() -> int:
        async with await connect("notify --test") as client:
            return finish(await request(client, "notify.test", {}))

    return run(main)
