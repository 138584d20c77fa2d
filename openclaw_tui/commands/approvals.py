"""``openclaw-tui approvals``: the operator lists and decides the exec approval requests of the running host.

``approvals [--json]`` lists the requests waiting (``--json``: a JSON array of them), ``approvals --history
[--json]`` the past ones with their decisions, ``approvals approve ID [--always]`` and ``approvals deny ID
[--reason TEXT]`` decide one (ID is the ``approvalId`` or the reserved ``sessionId``). The host records
who decided: this command, the terminal it runs in, its pid. Run from inside a session (an agent's
command calling it on its own request) the host refuses it, ``caller-confined``, and the request waits on.
Exit status 0; 1 when the host refused (the message says why); 2 when no host answers.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from openclaw_tui.core.approvals import iso_ms, terminal_name, visible
from openclaw_tui.remote.wire import find_host, oneshot, protocol as p, socket_path

CLIENT = "openclaw-tui approvals"


def run_approvals(history: bool, as_json: bool, decision: str | None = None, key: str | None = None,
                  always: bool = False, reason: str | None = None) -> int:
    if decision is not None and key is not None:
        choice = "deny" if decision == "deny" else ("allow-always" if always else "allow-once")
        params: dict[str, Any] = {"approvalId": key, "decision": choice}
        if reason:
            params["reason"] = reason
        tty = terminal_name()
        if tty:
            params["tty"] = tty
        return _ask("approvals.decide", params, lambda res: print(visible(res["text"])))
    method = "approvals.history" if history else "approvals.list"
    return _ask(method, {}, lambda res: _show(res["details"]["approvals"], history, as_json))


def _ask(method: str, params: dict[str, Any], show: Any) -> int:
    path = find_host() or socket_path()
    try:
        _, res = oneshot.exchange(path, [("hello", {"client": CLIENT}), (method, params)], timeout=30)
    except oneshot.HostUnreachable as exc:
        print(f"openclaw-tui: {exc}", file=sys.stderr)
        return 2
    except p.RemoteError as exc:
        print(f"openclaw-tui: the host refused: {exc}", file=sys.stderr)
        return 1
    details = res.get("details", {}) if isinstance(res, dict) else {}
    if details.get("status") == "failed":
        kind = details.get("failureKind")
        print(f"openclaw-tui: {visible(str(res.get('text', '')))}" + (f" [{kind}]" if kind else ""), file=sys.stderr)
        return 1
    show(res)
    return 0


def _show(requests: list[dict[str, Any]], history: bool, as_json: bool) -> None:
    if as_json:
        print(json.dumps(requests, ensure_ascii=False))
        return
    if not requests:
        print("No past requests." if history else "No request waits for the operator's approval.")
        return
    for r in requests:
        print(_past(r) if history else _waiting(r))


def _waiting(r: dict[str, Any]) -> str:
    left = max(0, round((r["expiresAtMs"] - time.time() * 1000) / 60000))
    where = f"{r['placement']}{' (elevated)' if r.get('elevated') else ''}" + (f" on {r['node']}" if r.get("node") else "")
    lines = [f"{r['approvalId']}  session {r['sessionId']}  agent {r.get('agent') or 'operator'}  runs on {where}  "
             f"expires in {left} min",
             f"  command: {visible(r['command'])}", f"  in: {visible(r['cwd'])}", f"  why: {visible(r['why'])}"]
    for seg in r.get("segments") or []:
        program = seg.get("resolvedPath") or "not found"
        lines.append(f"  - {visible(seg['text'])}  ->  {visible(program)}  "
                     f"({'on the allowlist' if seg.get('matched') else 'no match'})")
    always = "offered" if r.get("allowAlways") else f"not offered: {visible(r.get('allowAlwaysRefused') or '')}"
    lines.append(f"  allow always: {always}")
    return "\n".join(lines)


def _past(r: dict[str, Any]) -> str:
    d = r.get("decision") or {}
    where = ", ".join(str(x) for x in (d.get("client") or d.get("via"), d.get("tty")) if x)
    ran = "ran" if d.get("ran") else "never ran"
    return (f"{iso_ms(d.get('atMs'))}  {r['approvalId']}  session {r['sessionId']}  agent {r.get('agent') or 'operator'}  "
            f"{d.get('state', r.get('state'))} by {d.get('by', '?')}{f' ({where})' if where else ''}, {ran}"
            f"{': ' + visible(d['reason']) if d.get('reason') else ''}\n  command: {visible(r['command'])}")

