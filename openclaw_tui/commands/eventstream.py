"""``openclaw-tui events [--json]``: the host's events as they happen, one line each, until interrupted.

With ``--json`` each line is an object with ``event`` (the names of the Python API: ``session-added``,
``session-exited``, …), ``sessionId``, ``agent``, ``node`` and ``at`` (when this command heard it), and a
session's ``name`` and ``status`` when the event carries them (a notification's ``text`` too).
"""

from __future__ import annotations

import json
from typing import Any

from openclaw_tui.core.session import EventKind, iso, now_ms

from .opclient import CannotCall, connect, request, run


class _Printer:
    """Turns each ``event`` notification into a line; remembers whose each session is (output events carry
    no details)."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.known: dict[str, dict[str, Any]] = {}

    def __call__(self, method: str, params: dict[str, Any]) -> None:
        if method != "event":
            return
        kind, sid, data = params.get("kind"), params.get("sessionId"), params.get("data") or {}
        if kind == EventKind.SNAPSHOT:
            self.known.update({d["sessionId"]: d for d in data.get("sessions", [])})
            return
        if sid is not None and data.get("sessionId") == sid:
            self.known[sid] = data
        seen = self.known.get(sid or "", {})
        line: dict[str, Any] = {"event": kind, "sessionId": sid, "agent": seen.get("agent"),
                                "node": seen.get("node") or data.get("node"), "at": iso(now_ms())}
        line.update({k: data[k] for k in ("name", "status", "text") if data.get(k) is not None})
        print(json.dumps(line, ensure_ascii=False) if self.as_json else _words(line), flush=True)


def _words(line: dict[str, Any]) -> str:
    who = f"{line['sessionId'] or '-'}  {line['agent'] or ('operator' if line['sessionId'] else '-')}"
    more = "  ".join(str(line[k]) for k in ("status", "name", "text") if k in line)
    return f"{line['at']}  {line['event']:<20}  {who}  {line['node'] or 'local'}" + (f"  {more}" if more else "")


def run_events(as_json: bool) -> int:
    async def main() -> int:
        async with await connect("events") as client:
            client.listen(_Printer(as_json))
            await request(client, "events.subscribe", {"operator": True})
            await client.closed.wait()
        raise CannotCall("the host closed the connection")

    return run(main)
