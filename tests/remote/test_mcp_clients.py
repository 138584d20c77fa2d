"""Tool schemas every MCP client can use, checked strictly and through the official MCP Inspector.

Clients build their argument forms and conversions from a property's top-level ``type``: one without it
(pydantic's ``anyOf: [X, null]`` for an optional parameter) is taken as text, so an array of keys arrived
as the string ``'["Enter"]'``. The schemas are walked property by property here; and where node is
installed, the Inspector's CLI (``npm @modelcontextprotocol/inspector``, ``--cli``; ``.ci/run`` installs it
under ``.ci/node``) lists the tools in its strict portability mode and drives ``openclaw-tui mcp`` through
an exec and a send-keys with an array, as a person testing the server would.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ..support.isolation import MARK
from ..support.mcpclients import call, mcp_session, over_mcp, poll_until, text
from ..support.sessions import start_background

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = Path(os.environ.get("OPENCLAW_TUI_MCP_INSPECTOR")
                 or ROOT / ".ci" / "node" / "node_modules" / ".bin" / "mcp-inspector")


def untyped_properties(schema: dict[str, Any], where: str) -> list[str]:
    """Every property (at any depth, array items and object values included) without one plain type."""
    bad: list[str] = []
    for name, prop in schema.get("properties", {}).items():
        path = f"{where}.{name}"
        kind = prop.get("type")
        if not isinstance(kind, str) or {"anyOf", "oneOf", "allOf"} & set(prop):
            bad.append(f"{path}: type {kind!r}")
            continue
        if kind == "array":
            items = prop.get("items")
            if not isinstance(items, dict) or not isinstance(items.get("type"), str):
                bad.append(f"{path}: array without typed items")
            else:
                bad += untyped_properties(items, f"{path}[]")
        if kind == "object":
            values = prop.get("additionalProperties")
            if isinstance(values, dict) and not isinstance(values.get("type"), str):
                bad.append(f"{path}: object values without a type")
            bad += untyped_properties(prop, path)
    return bad


async def test_every_property_of_both_tools_has_one_plain_type_and_arrays_declare_items(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
    for name, tool in tools.items():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert untyped_properties(tool.input_schema, name) == []
    process = tools["process"].input_schema["properties"]
    assert process["keys"] == {**process["keys"], "type": "array", "items": {"type": "string"}}
    assert tools["exec"].input_schema["properties"]["env"]["type"] == "object"
    # a client that checks its arguments against the schema sends arrays and leaves out what it does not set
    jsonschema.validate({"action": "send-keys", "sessionId": "x", "keys": ["Enter"]}, tools["process"].input_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"action": "send-keys", "sessionId": "x", "keys": "Enter"}, tools["process"].input_schema)


async def test_an_array_parameter_also_takes_the_array_as_json_text(served) -> None:
    _, sock = served
    async with mcp_session(sock, "alice") as s:
        sid = await start_background(over_mcp(s), "cat", pty=True)
        r = await call(s, "process", action="send-keys", sessionId=sid, keys='["h", "i", "Enter"]')
        assert not r.is_error and r.structured_content["bytes"] == 3, text(r)
        await poll_until(s, sid, lambda out, _: out.count("hi") >= 2)
        r = await call(s, "process", action="send-keys", sessionId=sid, keys="Enter")
        assert r.is_error and 'must be an array of strings such as ["Enter", "C-c"]' in text(r), text(r)
        r = await call(s, "process", action="send-keys", sessionId=sid, hex='["03"]')
        assert not r.is_error, text(r)
        await poll_until(s, sid, lambda _, r: r.structured_content["status"] != "running")


async def inspector(sock: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One Inspector CLI run against ``openclaw-tui mcp`` on the test's host, off the loop the host runs on
    (the marker lets the suite account for the server it starts, which gets only the environment the
    Inspector passes on)."""
    env = [f"OPENCLAW_TUI_SOCKET={sock}", f"{MARK}={os.environ[MARK]}"]
    cmd = [str(INSPECTOR), "--cli", *(a for e in env for a in ("-e", e)),
           sys.executable, "-m", "openclaw_tui", "mcp", "--agent", "inspector", *args]
    return await asyncio.to_thread(
        subprocess.run, cmd, capture_output=True, text=True, timeout=120, cwd=cwd, stdin=subprocess.DEVNULL
    )


async def tool_call(sock: Path, cwd: Path, tool: str, **arguments: str) -> dict[str, Any]:
    proc = await inspector(sock, cwd, "--method", "tools/call", "--tool-name", tool,
                     *(a for k, v in arguments.items() for a in ("--tool-arg", f"{k}={v}")))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


needs_inspector = pytest.mark.skipif(
    shutil.which("node") is None or not INSPECTOR.exists(),
    reason="node is not installed" if shutil.which("node") is None else
    f"the MCP Inspector CLI is not installed at {INSPECTOR} (.ci/run installs it: "
    "npm install --prefix .ci/node @modelcontextprotocol/inspector)",
)


@needs_inspector
async def test_the_mcp_inspector_finds_no_schema_problem_and_sends_keys_as_an_array(served, tmp_path) -> None:
    host, sock = served
    listed = await inspector(sock, tmp_path, "--method", "tools/list", "--strict")
    # --strict reports every portability problem on stderr (and exits 6 on an error-severity one)
    assert listed.returncode == 0 and listed.stderr.strip() == "", listed.stderr
    assert {t["name"] for t in json.loads(listed.stdout)["tools"]} == {"exec", "process"}

    r = await tool_call(sock, tmp_path, "exec", command="cat", pty="true", background="true")
    assert r["structuredContent"]["status"] == "running", r
    sid = r["structuredContent"]["sessionId"]
    r = await tool_call(sock, tmp_path, "process", action="send-keys", sessionId=sid, keys='["h","i","Enter"]')
    assert not r["isError"] and r["structuredContent"]["bytes"] == 3, r
    r = await tool_call(sock, tmp_path, "process", action="poll", sessionId=sid, timeout="5000")
    assert "hi" in r["content"][0]["text"], r
    r = await tool_call(sock, tmp_path, "process", action="send-keys", sessionId=sid, keys='["Ctrl-C"]')
    assert not r["isError"], r
    session = host.session(sid)
    assert session is not None
    await asyncio.wait_for(session.done.wait(), 20)
    assert session.exit.signal == "SIGINT" and [i.action for i in session.inputs] == ["send-keys", "send-keys"]
