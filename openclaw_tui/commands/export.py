"""``openclaw-tui export ID [--cast | --text] [-o FILE] [--since 10m] [--until T] [--idle-limit S] [--inputs]``:
a session's recording, as asciicast v2 (what ``asciinema play`` and its web player read) or as text with a
time on each line.

The host writes the recording under its state directory (the process tool's ``export``, as the operator);
this command then copies it to ``FILE``, or to stdout without ``-o``, and says on stderr where the host's
copy is.
"""

from __future__ import annotations

import shutil
import sys
from typing import Any

from .opclient import CannotCall, connect, finish, operator_call, run


def run_export(session_id: str, fmt: str | None, out: str | None, since: str | None, until: str | None,
               idle_limit: float | None, inputs: bool) -> int:
    async def main() -> int:
        call: dict[str, Any] = {"tool": "process", "action": "export", "sessionId": session_id}
        for key, value in (("format", fmt), ("since", since), ("until", until), ("idleLimit", idle_limit)):
            if value is not None:
                call[key] = value
        if inputs:
            call["inputs"] = True
        async with await connect("export") as client:
            res = await operator_call(client, call)
        if res.get("details", {}).get("status") == "failed":
            return finish(res)
        path = res["details"]["path"]
        try:
            with open(path, "rb") as src:
                if out is None:
                    shutil.copyfileobj(src, sys.stdout.buffer)
                    sys.stdout.flush()
                else:
                    with open(out, "wb") as dst:
                        shutil.copyfileobj(src, dst)
        except OSError as exc:
            raise CannotCall(f"cannot copy the recording {path}: {exc.strerror or exc}") from None
        print(f"openclaw-tui: wrote {out or 'stdout'} (the host's copy: {path})", file=sys.stderr)
        return 0

    return run(main)
