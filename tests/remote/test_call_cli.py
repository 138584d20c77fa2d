"""``openclaw-tui call`` on bad input and bad luck: a clear failed result or one line, never a traceback."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from openclaw_tui.remote.client import HostClient


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui", *args], env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("argument", [
    json.dumps(json.dumps({"tool": "exec", "command": "echo twice"})),  # a JSON string holding a call
    "[1, 2]",
    "5",
])
async def test_a_call_that_is_not_a_json_object_fails_and_runs_nothing(served, argument) -> None:
    host, sock = served
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}
    proc = await asyncio.to_thread(_cli, ["call", argument], env)
    res = json.loads(proc.stdout)
    assert proc.returncode == 1 and res["details"]["failureKind"] == "invalid-call", proc
    assert "JSON object" in res["text"]
    assert host.sessions() == []


async def test_the_protocol_call_is_an_object_too(served) -> None:
    host, sock = served
    async with await HostClient.connect(sock) as client:
        res = await client.request("call", {"call": json.dumps({"tool": "exec", "command": "echo twice"}),
                                            "agent": "a"})
    assert res["details"]["failureKind"] == "invalid-call"
    assert host.sessions() == []
