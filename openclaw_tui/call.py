"""``openclaw-tui call '<json>'``: one tool call against the running host, the result as JSON on stdout.

Exit status is 0 unless the result is ``failed``; 2 when no host is running (start one with
``openclaw-tui serve``, or open the dashboard, which serves the same socket).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from .remote.client import HostClient, NoHost


def run_call(call_json: str, agent: str | None) -> int:
    async def go() -> dict[str, Any]:
        async with await HostClient.connect(client="openclaw-tui call") as client:
            return await client.call(call_json, agent=agent)

    try:
        res = asyncio.run(go())
    except NoHost as exc:
        print(f"openclaw-tui: {exc}", file=sys.stderr)
        return 2
    try:
        json.dump(res, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (``| head``) stopped early: not our failure
        sys.stdout = None  # nothing left to flush at exit
    return 1 if res["details"]["status"] == "failed" else 0
