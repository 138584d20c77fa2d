"""``openclaw-tui call '<json>'``: one tool call against the running host, the result as JSON on stdout.

Exit status is 0 unless the result is ``failed`` (1); 2 when no host is running (start one with
``openclaw-tui serve``, or open the dashboard, which serves the same socket), when the host cannot be
reached, or when it went away during the call (its outcome is then unknown); 130 when interrupted (Ctrl-C
cancels the call on the host, as it would in-process). Each of these is one line on stderr.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from .remote import protocol as p
from .remote.client import HostClient, NoHost
from .remote.paths import find_host, socket_path


def run_call(call_json: str, agent: str | None) -> int:
    path = find_host() or socket_path()  # a host on any of this user's candidate paths

    async def go() -> dict[str, Any]:
        async with await HostClient.connect(path, client="openclaw-tui call") as client:
            return await client.call(_in_this_directory(call_json), agent=agent)

    try:
        res = asyncio.run(go())
    except KeyboardInterrupt:
        return 130
    except (OSError, p.RemoteError) as exc:
        print(f"openclaw-tui: {_unreachable(exc, path)}", file=sys.stderr)
        return 2
    try:
        json.dump(res, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (``| head``) stopped early: not our failure
        sys.stdout = None  # nothing left to flush at exit
    return 1 if res["details"]["status"] == "failed" else 0


def _in_this_directory(call_json: str) -> str | dict[str, Any]:
    """An exec call without workdir runs where ``call`` was run, as a command typed here would."""
    try:
        call = json.loads(call_json)
    except ValueError:
        return call_json  # the host's client reports it
    return p.in_callers_directory(call, os.getcwd()) if isinstance(call, dict) else call_json


def _unreachable(exc: Exception, path: object) -> str:
    """Why no result came back, in one line."""
    if isinstance(exc, NoHost):
        return str(exc)
    if isinstance(exc, p.RemoteError):
        return f"the host on {path} refused the request: {exc}"
    if isinstance(exc, ConnectionError):
        return f"the host on {path} closed the connection before answering; the call's outcome is unknown"
    return f"cannot reach the host on {path}: {exc}"
