"""Run inside a session by the peer-credential tests: make requests on the host's socket, print what came back.

``peer_probe.py [--daemon OUT] OPS``: OPS is a JSON list of ``{"call": {...}, "agent": name | null}``,
``{"request": method, "params": {...}}`` or ``{"events": true}`` (the snapshot's session ids). The
results are printed as one JSON list, or with ``--daemon`` written to OUT by a double-forked, fd-closing
daemon in a session of its own (``OUT.done`` marks the end), which is how an escapee would call.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from openclaw_tui.remote.wire.client import HostClient
from openclaw_tui.remote.wire.protocol import RemoteError


async def run(ops: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = []
    async with await HostClient.connect(client="peer-probe") as client:
        for op in ops:
            try:
                if "call" in op:
                    r = await client.call(op["call"], agent=op.get("agent"))
                    out.append({"status": r["details"]["status"], "kind": r["details"].get("failureKind"),
                                "text": r["text"]})
                elif "request" in op:
                    out.append({"result": await client.request(op["request"], op.get("params", {}))})
                else:
                    first = await asyncio.wait_for(anext(client.events()), 20)
                    out.append({"snapshot": sorted(s["sessionId"] for s in first["data"]["sessions"])})
            except RemoteError as exc:
                out.append({"error": str(exc)})
    return out


def main() -> None:
    args = sys.argv[1:]
    if args[0] == "--daemon":
        target = args[1]
        if os.fork():
            return
        os.setsid()
        if os.fork():
            os._exit(0)
        os.closerange(0, 4096)
        results = asyncio.run(run(json.loads(args[2])))
        with open(target, "w") as fh:
            json.dump(results, fh)
        open(target + ".done", "w").close()
        return
    print(json.dumps(asyncio.run(run(json.loads(args[0])))))


if __name__ == "__main__":
    main()
