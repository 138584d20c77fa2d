"""``openclaw-tui ls``: every agent's sessions, one line each, or as the JSON objects ``process list`` carries.

The states are the dashboard's: ``running`` (waiting ones too), ``waiting``, ``finished`` (ended with exit code
0) and ``failed`` (ended ``failed`` or with another exit code).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .opclient import CannotCall, connect, finish, operator_call, run

STATES = ("running", "waiting", "finished", "failed")
LIST = {"tool": "process", "action": "list"}


def state_of(d: dict[str, Any]) -> str:
    """The dashboard's word for a session's state, from its details."""
    if d.get("status") == "running":
        return "waiting" if d.get("waitingForInput") else "running"
    failed = d.get("status") == "failed" or d.get("exitCode") not in (None, 0)
    return "failed" if failed else "finished"


def keeps(d: dict[str, Any], agent: str | None, node: str | None, state: str | None) -> bool:
    if agent is not None and (d.get("agent") or "operator") != agent:
        return False
    if node is not None and (d.get("node") or "local") != node:
        return False
    return state is None or state_of(d) == state or (state == "running" and state_of(d) == "waiting")


def duration(ms: int | float | None) -> str:
    s = int((ms or 0) / 1000)
    return f"{s}s" if s < 60 else f"{s // 60}m{s % 60:02d}s" if s < 3600 else f"{s // 3600}h{s % 3600 // 60:02d}m"


def end_of(d: dict[str, Any]) -> str:
    if d.get("status") == "running":
        return ""
    if d.get("timedOut"):
        return "timeout"
    if d.get("exitSignal"):
        return str(d["exitSignal"])
    return f"exit {d['exitCode']}" if d.get("exitCode") is not None else "died" if d.get("failureKind") else "ended"


def lines(sessions: list[dict[str, Any]]) -> list[str]:
    """The table: a header, then a row per session (a waiting one ends with its prompt)."""
    nodes = any(d.get("node") for d in sessions)
    head = ["ID", "AGENT", *(["NODE"] if nodes else []), "STATE", "TIME", "EXIT", "NAME"]
    rows = [[d["sessionId"], d.get("agent") or "operator", *([d.get("node") or "local"] if nodes else []),
             state_of(d) + (" (muted)" if d.get("muted") else ""), duration(d.get("durationMs")), end_of(d),
             d.get("name", "")] for d in sessions]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    out = []
    for d, row in zip([None, *sessions], [head, *rows], strict=True):
        text = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[-1]
        prompt = d.get("prompt") if d is not None and d.get("waitingForInput") else None
        out.append(text + (f"  {json.dumps(prompt, ensure_ascii=False)}" if prompt else ""))
    return out


def run_ls(as_json: bool, agent: str | None, node: str | None, state: str | None) -> int:
    async def main() -> int:
        if state is not None and state not in STATES:
            raise CannotCall(f"--state must be one of {', '.join(STATES)}, not {state!r}")
        async with await connect("ls") as client:
            res = await operator_call(client, dict(LIST))
        if res["details"].get("status") == "failed":
            return finish(res)
        sessions = [d for d in res["details"].get("sessions", []) if keeps(d, agent, node, state)]
        if as_json:
            print(json.dumps(sessions, ensure_ascii=False))
        else:
            print("\n".join(lines(sessions)) if sessions else "No sessions.")
        for note in (line for line in res["text"].splitlines() if line.startswith("note:")):
            print(f"openclaw-tui: {note}", file=sys.stderr)  # a node that did not answer, the journal
        return 0

    return run(main)
