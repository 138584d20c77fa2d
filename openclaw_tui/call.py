"""``openclaw-tui call '<json>'``: one tool call, the result as JSON on stdout.

Until a shared host runs behind a socket, the call runs on a host embedded in this process, so only a
foreground (or synchronous) result is meaningful: a backgrounded session ends when the command exits.
Exit status is 0 unless the result is ``failed``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from .core.host import ToolHost


def run_call(call_json: str, agent: str, config_path: str | None) -> int:
    async def go() -> dict:
        async with ToolHost(config_path=config_path) as host:
            return await host.call(call_json, agent=agent)

    res = asyncio.run(go())
    json.dump(res, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 1 if res["details"]["status"] == "failed" else 0
