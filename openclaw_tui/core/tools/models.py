"""The tool boundary: the parameters agents send, validated, with descriptions they can act on.

These pydantic models are the single definition of what ``exec`` and ``process`` accept, for the host's
validation and the MCP server's JSON Schemas alike.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..calls import shown
from ..config import PTY_SIZE

ACTIONS = ("list", "poll", "log", "screen", "write", "send-keys", "submit", "paste", "kill", "clear", "remove",
           "export")
Action = Literal["list", "poll", "log", "screen", "write", "send-keys", "submit", "paste", "kill", "clear", "remove",
                 "export"]


class ExecParams(BaseModel):
    """Run a shell command; it goes to the background if still running after the yield window."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False)

    command: str = Field(
        min_length=1,
        description="Shell command, run with the user's shell (-c; bash when that is fish, nu or another non-POSIX "
        "shell), PATH including what the user's login shell adds.",
    )
    yieldMs: int | None = Field(
        None, description="Move to the background if still running after this many ms (default 10000; clamped 10-120000)."
    )
    background: bool = Field(False, description="Go to the background at once and return a sessionId.")
    timeout: float | None = Field(
        None,
        ge=0,
        validation_alias=AliasChoices("timeout", "timeoutSeconds"),
        description="Kill the command after this many seconds (default 1800; 0 disables). Alias: timeoutSeconds.",
    )
    pty: bool = Field(False, description=f"Run under a pseudo-terminal ({PTY_SIZE[0]}x{PTY_SIZE[1]}). Needed for "
                      "interactive programs.")
    workdir: str | None = Field(
        None,
        description="Working directory (default: the caller's, e.g. the MCP server's). Must exist. A sandboxed "
        "run may write only here, in /tmp (the host's own unless configured private) and in $TMPDIR.",
    )
    env: dict[str, str | int | float | bool] | None = Field(
        None,
        description="Environment overrides on top of the inherited environment (values are strings; numbers and "
        "booleans are taken too). Refused, naming the key and why: PATH, loader and shell-startup variables, and "
        "variables that make a runtime or a build tool load code the command does not name (CLASSPATH, "
        "JAVA_TOOL_OPTIONS, NODE_PATH, GOFLAGS, RUSTC_WRAPPER...), turn off or replace TLS checks "
        "(NODE_TLS_REJECT_UNAUTHORIZED, SSL_CERT_FILE...), or redirect traffic and package indexes "
        "(HTTPS_PROXY, PIP_INDEX_URL, npm_config_*...).",
    )
    elevated: bool = Field(
        False,
        description="Run outside the sandbox; refused unless elevated mode is enabled (on a node: by that node's "
        "own config).",
    )
    host: Literal["auto", "sandbox", "gateway", "node"] | None = Field(
        None,
        description="Where to run: auto (the configured default), sandbox (always allowed; fails if the sandbox "
        "cannot run), gateway (on the host outside the sandbox; allowed only where elevated is), node (on the "
        "machine named by node, over SSH).",
    )
    node: str | None = Field(
        None,
        description="With host: \"node\": the configured node to run on. Its sessions' ids name it "
        "(node/id), and every process action on them goes there.",
    )
    ask: Literal["off", "on-miss", "always"] | None = Field(
        None,
        description="Ask the operator before this run: on-miss (unless every command is on the allowlist) or "
        "always. It can only tighten the host's configured policy (tools.exec.ask), never loosen it. A run "
        "that needs approval returns status approval-pending: it has NOT started, only the operator decides; "
        "do not re-run it, poll its sessionId or wait for the notice.",
    )

    rerunOf: str | None = Field(
        None,
        description="The operator's only: this run re-runs that session (details.rerunOf); an env value of "
        "*** keeps the value that session had.",
    )

    @field_validator("command", mode="before")
    @classmethod
    def _not_blank(cls, command: Any) -> Any:
        if isinstance(command, str) and not command.strip():  # "" and "   " alike: there is nothing to run
            raise ValueError("the command is empty; give a shell command to run")
        return command

    @field_validator("command")
    @classmethod
    def _no_nul(cls, command: str) -> str:
        if "\0" in command:
            raise ValueError("the command contains a NUL byte, which a shell command cannot hold")
        return command


class ProcessParams(BaseModel):
    """Supervise background sessions started by exec."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    action: Action = Field(description="One of: " + ", ".join(ACTIONS) + ".")
    sessionId: str | None = Field(None, description="Session id from exec or list (all actions but list).")
    timeout: int | None = Field(
        None, ge=0, description="poll: wait up to this many ms (max 30000) for new output or exit."
    )
    offset: int | None = Field(None, ge=0, description="log: first line to show (0-based).")
    limit: int | None = Field(None, ge=1, description="log: number of lines (without offset: the last N lines).")
    data: str | None = Field(None, description="write: text to send to stdin (UTF-8).")
    eof: bool = Field(False, description="write: end the input (PTY: sends Ctrl-D, the terminal's end-of-file).")
    keys: list[str] | None = Field(
        None,
        description="send-keys: key names, e.g. [\"Enter\"], [\"C-c\"] (also Ctrl-C, Ctrl+C, ^C), Up, Esc, "
        "PgDn, M-x (Alt-x), S-Tab, F5. A near miss of a key name (Entr) is refused with a suggestion and nothing "
        "is sent; other text (with spaces or punctuation) is typed literally with a warning.",
    )
    hex: list[str] | None = Field(None, description="send-keys: raw bytes as hex, e.g. [\"1b\", \"0x03\"].")
    literal: str | None = Field(None, description="send-keys: literal text sent first, as UTF-8.")
    text: str | None = Field(None, description="paste: text to paste.")
    bracketed: bool | None = Field(
        None,
        description="paste: wrap in bracketed-paste markers. Default: only when the program enabled bracketed "
        "paste (as a terminal does); true or false forces it.",
    )

    format: Literal["cast", "text"] | None = Field(
        None,
        description="export: cast (asciicast v2, what asciinema plays; PTY sessions) or text (each output line "
        "led by its local time, HH:MM:SS.mmm). Default: cast for a PTY session, text for a pipe session.",
    )
    since: str | None = Field(
        None, description="export: from this time on: a span back from now (30s, 10m, 1h30m) or an ISO time. A "
        "recording cut here starts with the screen as it was.",
    )
    until: str | None = Field(None, description="export: up to this time (a span back from now or an ISO time).")
    idleLimit: float | None = Field(
        None, gt=0, description="export: cap every pause of the recording at this many seconds (as asciinema's "
        "idle_time_limit).",
    )
    inputs: bool | None = Field(
        None, description="export: include the input sent (as \"i\" events; typed at a password prompt: •••).",
    )

    @field_validator("keys", "hex", mode="before")
    @classmethod
    def _array_as_json_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            return parsed
        raise ValueError('must be an array of strings such as ["Enter", "C-c"] (or that array as JSON text)')


ACTION_PARAMS: dict[str, tuple[str, ...]] = {
    "list": (),
    "poll": ("sessionId", "timeout"),
    "log": ("sessionId", "offset", "limit"),
    "screen": ("sessionId",),
    "write": ("sessionId", "data", "eof"),
    "send-keys": ("sessionId", "keys", "hex", "literal"),
    "submit": ("sessionId",),
    "paste": ("sessionId", "text", "bracketed"),
    "kill": ("sessionId",),
    "clear": ("sessionId",),
    "remove": ("sessionId",),
    "export": ("sessionId", "format", "since", "until", "idleLimit", "inputs"),
}


def misplaced(params: ProcessParams) -> str | None:
    """A parameter given for an action that ignores it (``eof`` on send-keys, ``text`` on write), which
    would silently do nothing; None if there is none. Null and default values pass, since some clients
    send every field of the schema."""
    takes = ACTION_PARAMS[params.action]
    wrong = [
        name for name in sorted(params.model_fields_set - {"action", *takes})
        if getattr(params, name) not in (None, ProcessParams.model_fields[name].default)
    ]
    if not wrong:
        return None
    accepted = ", ".join(takes) or "no other parameters"
    return f"{', '.join(repr(w) for w in wrong)} does not apply to action {params.action!r} (it takes: {accepted})"


MAX_PROBLEMS = 5  # a call with a hundred thousand bad keys gets a short answer, not a hundred thousand lines


def describe_error(exc: ValidationError, model: type[BaseModel]) -> str:
    """One readable sentence per problem (the first few), naming the parameter and what it accepts."""
    valid = ", ".join(_param_names(model))
    aliases = _aliases(model)
    lines: list[str] = []
    errors = exc.errors(include_url=False, include_context=False)
    for err in errors[:MAX_PROBLEMS]:
        loc = _cut(".".join(str(p) for p in err["loc"])) or "call"
        if err["type"] == "extra_forbidden" and loc in aliases:
            lines.append(f"{loc!r} and {aliases[loc]!r} are two names for one parameter; give only one")
        elif err["type"] == "extra_forbidden":
            lines.append(f"unknown parameter {loc!r} (valid parameters: {valid})")
        elif err["type"] == "literal_error" and loc == "action":
            lines.append(f"unknown action {err['input']!r}; valid actions: {', '.join(ACTIONS)}")
        elif err["type"] == "missing":
            lines.append(f"missing required parameter {loc!r}")
        else:
            msg = err["msg"].removeprefix("Value error, ")
            lines.append(f"{loc}: {msg} (got {shown(err.get('input'))})")
    if len(errors) > MAX_PROBLEMS:
        lines.append(f"and {len(errors) - MAX_PROBLEMS} more problems")
    return "; ".join(lines)


def _aliases(model: type[BaseModel]) -> dict[str, str]:
    """Each name a parameter also goes by, mapped to the other name (both ways)."""
    out: dict[str, str] = {}
    for name, f in model.model_fields.items():
        if isinstance(f.validation_alias, AliasChoices):
            for alias in f.validation_alias.choices:
                if alias != name:
                    out[str(alias)], out[name] = name, str(alias)
    return out


def _param_names(model: type[BaseModel]) -> list[str]:
    names = []
    for name, f in model.model_fields.items():
        names.append(name)
        alias = f.validation_alias
        if isinstance(alias, AliasChoices):
            names.extend(str(a) for a in alias.choices if a != name)
    return names


def _cut(name: str) -> str:
    return name if len(name) <= 60 else name[:57] + "..."
