"""``openclaw-tui call`` loads only what one call needs: scripts run it in loops (PERF P7, ``bench/host.py``).

A fresh interpreter runs a real call against a real host through the command's own entry point, then
reports which modules it loaded: none of the host's heavy dependencies may be among them.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

HEAVY = (
    "pydantic",
    "mcp",
    "textual",
    "rich",
    "psutil",
    "pyte",
    "anyio",
    "asyncio",
    "typing",
    "argparse",
    "openclaw_tui.core.host.sessionhost",
    "openclaw_tui.terminal",
    "openclaw_tui.remote.wire.client",
)
PROBE = """
import json, sys
ALREADY = set(sys.modules)  # what the interpreter's own start loaded (site hooks of this machine) is not ours
from openclaw_tui.cli import main
status = main(["call", '{"tool": "process", "action": "list"}'])
loaded = sorted(m for m in sys.modules if m.startswith(HEAVY) and m not in ALREADY)
sys.stderr.write(json.dumps({"status": status, "loaded": loaded}) + "\\n")
"""


async def test_a_call_imports_none_of_the_hosts_dependencies(served) -> None:
    _, sock = served
    code = f"HEAVY = {HEAVY!r}\n" + PROBE
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)},
        check=False,
    )
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["status"] == 0, proc
    assert json.loads(proc.stdout)["details"]["status"] == "completed"
    assert report["loaded"] == [], report


def test_the_probe_sees_heavy_imports_when_they_happen() -> None:
    # The check above must be able to fail: importing the package's host shows up in the same probe.
    code = (
        f"HEAVY = {HEAVY!r}\nimport sys\nfrom openclaw_tui import ToolHost\n"
        "assert sorted(m for m in sys.modules if m.startswith(HEAVY)), 'nothing heavy seen'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
