"""What the MCP server shows an agent: the two tools, their descriptions and schemas, and result mapping.

The schemas are generated from the models the host validates with, so the MCP surface never drifts from what
the host accepts.
"""

from __future__ import annotations

import copy
from typing import Any

import mcp_types as types
from pydantic import AliasChoices, BaseModel

from openclaw_tui.core.config import POLL_WAIT_MAX_MS
from openclaw_tui.core.session import Status
from openclaw_tui.core.tools import ACTIONS, TOOLS, ProcessParams

EXEC_DESCRIPTION = (
    "Run a shell command (the user's shell, -c) on this machine, or with host: \"node\" and node: NAME on a "
    "configured node (another machine, reached over SSH: its sessions' ids read NAME/ID, and it runs in that "
    "machine's default directory unless you give workdir). If it finishes within the yield window "
    "(yieldMs, default 10000 ms) you get its output and exit code directly. If it is still running then, or "
    "at once with background: true, it keeps running as a background session and you get its sessionId: "
    "continue with the process tool (poll for output, write/send-keys/submit/paste for input, kill to stop). "
    "A non-zero exit is status completed with the exit code in the text; exit 127/126 (not found / not "
    "executable) and timeouts (timeout, seconds, default 1800; raise it, or use background for long work) are "
    "failed. env may not override what runs (PATH, loader, runtime and build-tool variables), TLS trust, "
    "proxies or package indexes; the refusal names each key and why. Set pty: true for anything "
    "interactive (prompts, REPLs, full-screen programs): a pipe run's stdin is closed. The command runs in "
    "your own working directory (this MCP server's) unless you give workdir. Where the host sandboxes "
    "commands (details.host is \"sandbox\"), the system is read-only and a command may write only workdir, "
    "/tmp and $TMPDIR; /tmp is the host's own (files there are the same inside and out) unless the operator "
    "made it private to each run; secrets such as ~/.ssh are hidden. Do not sleep-loop "
    "while a background job runs: call process poll with a timeout (ms, up to 30000), or carry on with other "
    "work - when the job exits you get a notification, and a notice at the top of your next result."
)

PROCESS_DESCRIPTION = (
    "Supervise the background sessions you started with exec (you only see your own). Actions: "
    + ", ".join(ACTIONS)
    + ". list: your sessions, newest first, [input-wait] marks one waiting for input. poll (sessionId, "
    "timeout ms <= 30000): output not seen yet and whether it ended; with a timeout it waits for new "
    "output or the exit - use that instead of sleeping. log (sessionId, offset, limit): the retained "
    "transcript by lines, by default the last 200. screen (sessionId): what a pty session's terminal "
    "shows now, as rows of text with the cursor - read full-screen programs (editors, pagers, menus, top) "
    "this way, since their output as text is a jumble of redraws. write (data, eof): send text to stdin; eof: true ends "
    "the input. send-keys (keys: an array of key names such as [\"Enter\"], [\"C-c\"] (Ctrl-C, ^C), Up, Esc, "
    "PgDn, M-x, S-Tab, F5; hex bytes; literal text): keystrokes for a pty session; a misspelt key name "
    "(Entr) is refused with a suggestion and nothing is sent. submit: press Enter. paste (text; bracketed): "
    "paste text, in bracketed-paste markers only if the program enabled them, as a terminal does (bracketed: "
    "true/false forces). kill: terminate "
    "the session's process group. clear: drop a finished session. remove: kill if running, clear if "
    "finished. When a session waits for input, read it with log, then answer with write, send-keys, submit "
    "or paste. You are notified when a background session exits, so no sleep loops are needed."
)

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "status": {
            "type": "string",
            "enum": [status.value for status in Status],
            "description": "running: the session continues in the background; completed: the command "
            "ended (see exitCode); failed: the call or the command failed (see the text and failureKind).",
        },
        "sessionId": {
            "anyOf": [{"type": "string"}, {"type": "null"}],  # a single type per branch: the portable spelling
            "description": "The background session this result is about, when there is one.",
        },
    },
    "required": ["status"],
}


# Upper bounds the host applies by clamping, per model and parameter, stated in the schema.
MAXIMUMS: dict[type[BaseModel], dict[str, int]] = {ProcessParams: {"timeout": POLL_WAIT_MAX_MS}}


def to_mcp_result(res: dict[str, Any]) -> types.CallToolResult:
    """``{text, details}`` as MCP: text content, structured content, ``isError`` for failed."""
    details = res.get("details")
    if not isinstance(details, dict):
        details = {"status": Status.FAILED, "failureKind": "bad-result"}
    return types.CallToolResult(
        content=[types.TextContent(text=str(res.get("text", "")))],
        structured_content=details,
        is_error=details.get("status") == Status.FAILED,
    )


def _tool(name: str, title: str, description: str, params: type[BaseModel], open_world: bool) -> types.Tool:
    return types.Tool(
        name=name,
        title=title,
        description=description,
        input_schema=input_schema(params),
        output_schema=OUTPUT_SCHEMA,
        annotations=types.ToolAnnotations(
            title=title, read_only_hint=False, destructive_hint=True, open_world_hint=open_world
        ),
    )


def input_schema(params: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema, one plain type per property, with each parameter's other names and the
    host's upper bounds added."""
    schema = params.model_json_schema()
    properties: dict[str, Any] = {}
    for name, raw in schema["properties"].items():
        prop = plain_typed(raw)
        properties[name] = prop
        field = params.model_fields.get(name)
        if field is not None and isinstance(field.validation_alias, AliasChoices):
            for alias in field.validation_alias.choices:
                if isinstance(alias, str) and alias != name:
                    properties[alias] = _alias_property(alias, name, prop)
    for name, maximum in MAXIMUMS.get(params, {}).items():
        _set_maximum(properties[name], maximum)
    schema["properties"] = properties
    return schema


def _alias_property(alias: str, name: str, prop: dict[str, Any]) -> dict[str, Any]:
    """``alias`` as a property of its own: ``name``'s type, and a description saying it is the same."""
    described = prop.get("description", "").removesuffix(f" Alias: {alias}.")
    return {
        **copy.deepcopy(prop),
        "title": alias[0].upper() + alias[1:],
        "description": f"Another name for {name} (give one of the two, not both): {described}",
    }


def _set_maximum(prop: dict[str, Any], maximum: int) -> None:
    if prop.get("type") in ("integer", "number"):
        prop["maximum"] = maximum


# What a value inside an object parameter (exec's env) is declared as: the portable single type. The host
# also takes numbers and booleans there, as the parameter's description says.
_OBJECT_VALUES: dict[str, Any] = {"type": "string"}


def plain_typed(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` with one top-level ``type``: an optional ``anyOf: [X, null]`` becomes X (absent means
    null), and an object's values get a single type too."""
    prop = copy.deepcopy(prop)
    branches = [b for b in prop.pop("anyOf", []) if b.get("type") != "null"]
    if len(branches) > 1:
        raise ValueError(f"no single type for {prop.get('title')!r}: {branches}")
    if branches:
        prop = {**branches[0], **prop}
    if prop.get("default", "") is None:
        del prop["default"]
    if prop.get("type") == "object" and "additionalProperties" in prop:
        prop["additionalProperties"] = dict(_OBJECT_VALUES)
    return prop


# How each tool of the host's table is presented: title, description, and whether it reaches outside.
PRESENTATION: dict[str, tuple[str, str, bool]] = {
    "exec": ("Run a shell command", EXEC_DESCRIPTION, True),
    "process": ("Supervise background sessions", PROCESS_DESCRIPTION, False),
}


def tool_definitions() -> list[types.Tool]:
    """The host's tools (:data:`~openclaw_tui.core.tools.table.TOOLS`), with input schemas generated from the
    models the host validates with."""
    return [_tool(name, *PRESENTATION[name][:2], tool.params, open_world=PRESENTATION[name][2])
            for name, tool in TOOLS.items()]
