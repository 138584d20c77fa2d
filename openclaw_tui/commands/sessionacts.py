"""``openclaw-tui screen | send | paste | kill ID``: the operator's hands on one session, as the dashboard's
keys are: the ``process`` actions, acting as the operator.
"""

from __future__ import annotations

import sys
from typing import Any

from .opclient import CannotCall, connect, finish, operator_call, run


def _act(command: str, call: dict[str, Any]) -> int:
    async def main() -> int:
        async with await connect(command) as client:
            return finish(await operator_call(client, {"tool": "process", **call}))

    return run(main)


def run_screen(session_id: str) -> int:
    """What the session's terminal shows now."""
    return _act("screen", {"action": "screen", "sessionId": session_id})


def run_send(session_id: str, keys: list[str]) -> int:
    """Key names as ``send-keys`` takes them (``C-c``, ``Enter``, ``Up``, ``"text"``)."""
    return _act("send", {"action": "send-keys", "sessionId": session_id, "keys": keys})


def run_paste(session_id: str, text: str) -> int:
    """Literal text (``-``: read from stdin), bracketed when the program enabled bracketed paste."""
    if text == "-":
        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            return run(_bad(f"stdin is not UTF-8 text ({exc.reason} at byte {exc.start})"))
    return _act("paste", {"action": "paste", "sessionId": session_id, "text": text})


def run_kill(session_id: str) -> int:
    """End the session's processes (SIGTERM, the grace period, SIGKILL), waiting until none is left."""
    return _act("kill", {"action": "kill", "sessionId": session_id})


async def _bad(why: str) -> int:
    raise CannotCall(why)
