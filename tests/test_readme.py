"""The README's and the docs' examples do what they say: the Python API example and the MCP SDK example
run as written against real hosts, the MCP client configurations start a server that offers the tools,
the keys table names the dashboard's bindings, and CI runs the README's test command."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import json
import os
import pkgutil
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client
from textual.binding import Binding

import openclaw_tui.ui
from openclaw_tui import ToolHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui.keymap import key_name

from .support.hosts import hosting

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TOOLS_DOC = ROOT / "docs" / "tools.md"
BIN = str(Path(sys.executable).parent)  # where the README's set-up put `openclaw-tui`
DEADLINE_S = 60.0


def blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^[ \t]*```{language}\n(.*?)^[ \t]*```", path.read_text(), re.M | re.S)


def section(path: Path, heading: str) -> str:
    text = path.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_python_api_example_runs_as_written(tmp_path) -> None:
    found = blocks(TOOLS_DOC, "python")
    assert found, "docs/tools.md has no python example"
    script = tmp_path / "example.py"
    script.write_text(found[0])
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("running\n")
    assert "done" in out and "exit code 0" in out
    assert "Continue? [y/N]" in out and "answer=y" in out
    assert "line1" in out and "200~" not in out  # cat never asked for bracketed paste: no markers


@contextlib.asynccontextmanager
async def served(sock_dir: Path) -> AsyncIterator[tuple[ToolHost, dict[str, str]]]:
    """A real host serving a private socket in ``sock_dir`` (short, not under ``tmp_path``: a socket's path
    holds 107 bytes), and the environment that points a client at it (with the README's `openclaw-tui` first
    on PATH)."""
    sock = sock_dir / "host.sock"
    path = os.pathsep.join([BIN, os.environ.get("PATH", "")])
    env = dict(os.environ, OPENCLAW_TUI_SOCKET=str(sock), PATH=path)
    assert shutil.which("openclaw-tui", path=path), f"openclaw-tui is not in {BIN}: run the README's set-up"
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        server = HostServer(host, sock)
        await server.start()
        try:
            yield host, env
        finally:
            await server.close()


async def test_the_readme_mcp_sdk_example_runs_as_written(tmp_path, sock_dir) -> None:
    found = [b for b in blocks(README, "python") if "stdio_client" in b]
    assert found, "README has no MCP SDK example"
    script = tmp_path / "example.py"
    script.write_text(found[0])
    # The SDK hands a server only a few variables (HOME, PATH...); the private socket and the suite's
    # leftover marker must reach it, so the runner lets the whole environment through, then runs the
    # example untouched.
    runner = tmp_path / "runner.py"
    runner.write_text("import os, runpy, sys\nimport mcp.client.stdio as stdio\n"
                      "stdio.DEFAULT_INHERITED_ENV_VARS = tuple(os.environ)\n"
                      "runpy.run_path(sys.argv[1], run_name='__main__')\n")
    async with served(sock_dir) as (host, env):
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(runner), str(script), cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), DEADLINE_S)
        assert proc.returncode == 0, err.decode()
        lines = out.decode().splitlines()
        assert lines[:2] == ["hello from exec", "completed"], lines
        assert "done" in lines and lines[-1].endswith("Process ended: completed, exit code 0."), lines
        assert [s.agent for s in host.sessions()] == ["my-script"]  # the background run, in its scope


def client_configs() -> list[tuple[str, list[str]]]:
    """Every ``command`` + ``args`` the README's MCP set-up gives a client, in each client's own format."""
    text = section(README, "Connect an agent over MCP")
    found = [(s["command"], s["args"]) for b in re.findall(r"```json\n(.*?)```", text, re.S)
             for s in json.loads(b)["mcpServers"].values()]
    found += [(s["command"], s["args"]) for b in re.findall(r"```toml\n(.*?)```", text, re.S)
              for s in tomllib.loads(b)["mcp_servers"].values()]
    for line in re.findall(r"claude mcp add [^`\n]* -- [^`\n]*", text):
        command, *args = shlex.split(line.partition(" -- ")[2])
        found.append((command, args))
    return found


async def test_the_readme_mcp_client_configurations_start_a_server_with_the_tools(tmp_path,
                                                                                 sock_dir) -> None:
    configs = client_configs()
    assert len(configs) >= 5, configs  # Claude Code (command line, .mcp.json, with --agent), Codex, Cursor
    assert {command for command, _ in configs} == {"openclaw-tui"}
    async with served(sock_dir) as (_, env):
        for command, args in sorted({(c, tuple(a)) for c, a in configs}):
            params = StdioServerParameters(command=shutil.which(command, path=env["PATH"]) or command,
                                           args=list(args), env=env, cwd=tmp_path)
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), DEADLINE_S)
                tools = await asyncio.wait_for(session.list_tools(), DEADLINE_S)
                assert sorted(t.name for t in tools.tools) == ["exec", "process"], args


def dashboard_bindings() -> dict[str, tuple[Binding, str]]:
    """Binding id -> (binding, module) for every binding of the dashboard's widgets, screens and dialogs."""
    found = {}
    for info in pkgutil.walk_packages(openclaw_tui.ui.__path__, "openclaw_tui.ui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name:
                for b in vars(cls).get("BINDINGS", []):
                    if isinstance(b, Binding) and b.id:
                        found[b.id] = (b, info.name)
    return found


def keys_table() -> list[tuple[list[str], str]]:
    """(the keys of the first column, the rest of the row) for each row of the README's keys table."""
    rows = [line for line in section(README, "Keys").splitlines() if line.startswith("| `")]
    return [(re.findall(r"`([^`]+)`", row.split(" | ")[0]), row.partition(" | ")[2]) for row in rows]


def keys_table_problems(table: list[tuple[list[str], str]],
                        bindings: dict[str, tuple[Binding, str]]) -> list[str]:
    """What the keys table gets wrong: a binding of the dashboard it does not name (those of dialogs and the
    help aside, and hidden ones), a row that names no binding id, a key that is no key of its row's ids."""
    named = {name for _, rest in table for name in re.findall(r"`([^`]+)`", rest)}
    own = {i for i, (b, module) in bindings.items()
           if b.show and not module.startswith(("openclaw_tui.ui.dialogs", "openclaw_tui.ui.help"))}
    problems = [f"no row names {i}" for i in sorted(own - named)]
    for keys, rest in table:
        ids = [name for name in re.findall(r"`([^`]+)`", rest) if name in bindings]
        problems += [] if ids else [f"the row for {keys} names no binding id"]
        problems += [f"{key} is no key of {', '.join(ids)}" for key in keys
                     if ids and not any(key_name(key) in bindings[i][0].key.split(",") for i in ids)]
    return problems


def test_the_keys_table_names_every_key_of_the_dashboard_and_its_binding_id() -> None:
    table, bindings = keys_table(), dashboard_bindings()
    assert len(table) > 10 and len(bindings) > 20, (table, bindings)
    assert keys_table_problems(table, bindings) == []


def test_the_keys_check_sees_a_wrong_key_and_a_missing_row() -> None:
    table = [(["F9"] if "(`kill`)" in rest else keys, rest)
             for keys, rest in keys_table() if "(`fit`)" not in rest]
    assert keys_table_problems(table, dashboard_bindings()) == ["no row names fit", "F9 is no key of kill"]


def test_ci_runs_the_readmes_test_command() -> None:
    commands = re.findall(r"```sh\n(.*?)```", section(README, "Set up"), re.S)
    ci = (ROOT / ".ci" / "run").read_text().rstrip().splitlines()
    assert commands[1].strip() == ci[-1], "the README's test command is not what .ci/run runs"
    assert commands[0].strip().endswith("&& openclaw-tui --demo")
