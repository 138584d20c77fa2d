"""Settings of the exec/process tools and the host: defaults, then a TOML file, then environment overrides.

Every number is clamped to the contract's range, and an environment value that is not a plain integer is
ignored with a warning, so a bad setting degrades to a sane one instead of breaking runs.
"""

from __future__ import annotations

import os
import tomllib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from .nodesettings import NodeSettings, parse_nodes
from .notifysettings import NotifySettings, parse_notify
from .places import default_approvals_file, default_secrets, default_state_dir, host_socket_dirs, within

DEFAULT_YIELD_MS = 10_000
DEFAULT_TIMEOUT_SEC = 1800
DEFAULT_TTL_MS = 30 * 60 * 1000
DEFAULT_MAX_OUTPUT = 200_000
DEFAULT_PENDING_MAX = 30_000
DEFAULT_INPUT_WAIT_MS = 15_000
HEAD_CHARS = 4_000
TAIL_CHARS = 2_000
KILL_GRACE_S = 3.0
RAW_RING_BYTES = 1 << 20
MAX_FINISHED = 50
MAX_RETAINED_TOTAL = 2_000_000
POLL_WAIT_MAX_MS = 30_000
DEFAULT_APPROVAL_TIMEOUT_MS = 30 * 60 * 1000
DEFAULT_APPROVAL_NOTICE_MS = 10_000
PTY_SIZE = (120, 30)  # (cols, rows) a PTY session's terminal opens with

YIELD_RANGE = (10, 120_000)
TTL_RANGE = (60_000, 3 * 60 * 60 * 1000)
OUTPUT_RANGE = (1_000, 200_000)
INPUT_WAIT_RANGE = (1_000, 600_000)
APPROVAL_TIMEOUT_RANGE = (10_000, 24 * 60 * 60 * 1000)
SECURITY_LEVELS = ("deny", "allowlist", "full")  # what may run outside the sandbox, strictest first
ASK_LEVELS = ("off", "on-miss", "always")  # when the operator is asked, loosest first
TMP_MODES = ("shared", "private")


class PlacementMode(StrEnum):
    """``tools.exec.host``: where runs go. ``auto`` takes the sandbox when it works here; the others name a
    placement (``containment.Placement``), and a run's own settings carry the one ``exec`` resolved."""

    AUTO = "auto"
    SANDBOX = "sandbox"
    GATEWAY = "gateway"


class ContainmentMode(StrEnum):
    """``host.containment``: ``auto`` holds each gateway session in a cgroup of its own where the host can
    make one; ``subreaper`` forces the fallback (``containment.ContainmentKind``)."""

    AUTO = "auto"
    SUBREAPER = "subreaper"


PLACEMENTS = tuple(PlacementMode)
PLACEMENT_ALIASES = {"host": PlacementMode.GATEWAY}
CONTAINMENTS = tuple(ContainmentMode)


class ConfigWarning(UserWarning):
    """A setting was ignored or adjusted; the message says which and why."""


@dataclass(frozen=True)
class ExecSettings:
    """Everything a session captures when it is admitted (so later changes do not affect it)."""

    yield_ms: int = DEFAULT_YIELD_MS
    timeout_sec: int = DEFAULT_TIMEOUT_SEC
    ttl_ms: int = DEFAULT_TTL_MS
    max_output_chars: int = DEFAULT_MAX_OUTPUT
    pending_max_chars: int = DEFAULT_PENDING_MAX
    input_wait_ms: int = DEFAULT_INPUT_WAIT_MS
    notify_on_exit: bool = True
    notify_on_exit_empty_success: bool = False
    raw_ring_bytes: int = RAW_RING_BYTES
    kill_grace_s: float = KILL_GRACE_S
    placement: PlacementMode = PlacementMode.AUTO  # exec resolves it before spawning
    sandbox_network: bool = True
    sandbox_tmp: str = "shared"  # shared: the host's /tmp, writable; private: an empty one per run
    secrets: tuple[str, ...] = field(default_factory=lambda: default_secrets(os.environ))
    shown: tuple[str, ...] = ()  # [tools.exec.sandbox] show: paths of the credential table runs may see
    pass_env: tuple[str, ...] = ()  # [tools.exec.sandbox] passEnv: names or globs of secret variables kept
    path_prepend: tuple[str, ...] = ()
    login_path: bool = True  # add what the user's login shell puts on PATH (probed once per host)
    path_login: tuple[str, ...] = ()  # per run, set by exec: the login shell's PATH entries found
    elevated: bool = False  # per run, set by exec: this run was admitted to run outside the sandbox
    security: str = "full"  # tools.exec.security: deny | allowlist | full, for runs outside the sandbox
    ask: str = "off"  # tools.exec.ask: off | on-miss | always (the sandbox's runs too)
    ask_fallback: str = "deny"  # tools.exec.askFallback: deny | allowlist | full, when nobody answers in time
    approval_timeout_ms: int = DEFAULT_APPROVAL_TIMEOUT_MS
    approval_running_notice_ms: int = DEFAULT_APPROVAL_NOTICE_MS  # the one "still waiting" notice (0: none)

    def __post_init__(self) -> None:  # typed whatever gave it (JSON of a journal or a handover gives a str)
        object.__setattr__(self, "placement", PlacementMode(self.placement))


@dataclass(frozen=True)
class Settings:
    """Host-wide settings: the exec defaults, per-agent overrides and tool policy."""

    exec: ExecSettings = field(default_factory=ExecSettings)
    process_allowed: bool = True
    elevated_allowed: bool = False
    agents: Mapping[str, ExecSettings] = field(default_factory=dict)
    source: str = "defaults"
    containment: ContainmentMode = ContainmentMode.AUTO
    persist: bool = True  # journal sessions under state_dir (false: in memory only)
    state_dir: str = field(default_factory=lambda: default_state_dir(os.environ))  # [host] stateDir
    nodes: Mapping[str, NodeSettings] = field(default_factory=dict)  # [nodes.NAME]: other machines' hosts
    approvals_file: str = field(default_factory=lambda: default_approvals_file(os.environ))  # the allowlist
    notify: NotifySettings = field(default_factory=NotifySettings)  # [notify]: word sent to the operator

    def __post_init__(self) -> None:  # typed whatever gave it (a handover's JSON gives a str)
        object.__setattr__(self, "containment", ContainmentMode(self.containment))

    def for_agent(self, agent: str | None) -> ExecSettings:
        """The settings an exec by ``agent`` captures at admission."""
        if agent is not None and agent in self.agents:
            return self.agents[agent]
        return self.exec


def clamp(value: int, bounds: tuple[int, int]) -> int:
    return max(bounds[0], min(bounds[1], value))


def default_config_path(env: Mapping[str, str]) -> Path:
    """``$OPENCLAW_TUI_CONFIG``, else ``$XDG_CONFIG_HOME/openclaw-tui/config.toml`` (``~/.config``)."""
    if env.get("OPENCLAW_TUI_CONFIG"):
        return Path(env["OPENCLAW_TUI_CONFIG"])
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "openclaw-tui" / "config.toml"


def load_settings(config_path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Defaults < config file < environment. A missing default file is fine; a missing given one is not."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    path = Path(config_path) if config_path is not None else default_config_path(env)
    if path.exists():
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        source = str(path)
    elif config_path is not None:
        raise FileNotFoundError(f"config file not found: {path}")
    else:
        source = "defaults"
    tools = _table(data, "tools")
    exec_table = _table(tools, "exec")
    persist = _persist(exec_table)
    host = _host(_table(data, "host"), env)
    approvals_file = default_approvals_file({**os.environ, **env})
    protected = _protected(env, host["state_dir"], approvals_file)
    base = _apply_env(_exec_from_toml(ExecSettings(secrets=default_secrets(env)), exec_table, "", protected), env)
    for hidden in (host["state_dir"], approvals_file):
        if hidden not in base.secrets:
            base = replace(base, secrets=(*base.secrets, hidden))
    agents = {
        name: _apply_env(
            _exec_from_toml(base, _table(_table(table, "tools"), "exec"), f"agents.{name}.", protected), env)
        for name, table in _table(data, "agents").items()
        if isinstance(table, dict)
    }
    deny = tools.get("deny", [])
    process_allowed = bool(_table(tools, "process").get("enabled", True)) and "process" not in deny
    elevated = bool(_table(tools, "elevated").get("enabled", False))
    return Settings(exec=base, process_allowed=process_allowed, elevated_allowed=elevated, agents=agents, source=source,
                    persist=persist, **host, nodes=parse_nodes(_table(data, "nodes"), _warn_loading),
                    approvals_file=approvals_file, notify=parse_notify(_table(data, "notify"), _warn_loading))


HOST_WIDE_KEYS = ("persist",)


def _persist(table: Mapping[str, Any]) -> bool:
    """``tools.exec.persist`` (bool, default true): whether sessions are journaled."""
    persist = table.get("persist", True)
    if not isinstance(persist, bool):
        _warn(f"tools.exec.persist must be bool, got {persist!r}: ignored", stacklevel=4)
        persist = True
    return persist


def _host(table: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The ``[host]`` table: ``containment`` (auto | subreaper) and ``stateDir`` (an absolute path, ``~``
    expanded). Without ``stateDir`` the state goes where the process environment says, overridden by ``env``."""
    out: dict[str, Any] = {"state_dir": default_state_dir({**os.environ, **env})}
    for key, value in table.items():
        path = os.path.expanduser(value) if key == "stateDir" and isinstance(value, str) else ""
        if key == "containment" and value in CONTAINMENTS:
            out["containment"] = ContainmentMode(value)
        elif key == "stateDir" and os.path.isabs(path):
            out["state_dir"] = os.path.normpath(path)
        else:
            warnings.warn(f"host.{key} = {value!r} ignored (containment: {' | '.join(CONTAINMENTS)}; "
                          "stateDir: an absolute path)", ConfigWarning, stacklevel=3)
    return out


def _table(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    return value if isinstance(value, dict) else {}


_TOML_KEYS: dict[str, tuple[str, type]] = {
    "backgroundMs": ("yield_ms", int),
    "timeoutSec": ("timeout_sec", int),
    "cleanupMs": ("ttl_ms", int),
    "notifyOnExit": ("notify_on_exit", bool),
    "notifyOnExitEmptySuccess": ("notify_on_exit_empty_success", bool),
    "maxOutputChars": ("max_output_chars", int),
    "pendingMaxOutputChars": ("pending_max_chars", int),
    "inputWaitIdleMs": ("input_wait_ms", int),
    "rawRingBytes": ("raw_ring_bytes", int),
    "loginPath": ("login_path", bool),
    "killGraceMs": ("kill_grace_s", int),  # stored in seconds (see _clamped)
    "approvalTimeoutMs": ("approval_timeout_ms", int),
    "approvalRunningNoticeMs": ("approval_running_notice_ms", int),
}
_CHOICE_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "security": ("security", SECURITY_LEVELS),
    "ask": ("ask", ASK_LEVELS),
    "askFallback": ("ask_fallback", SECURITY_LEVELS),
}


def _protected(env: Mapping[str, str], state_dir: str, approvals_file: str) -> dict[str, str]:
    """The paths no ``show`` can open, each with what it is: the host's state and socket directories, and the
    exec approvals' allowlist (a sandboxed run that could write it would widen what runs without asking)."""
    out = dict.fromkeys(host_socket_dirs(env), "the host's socket directory")
    for path in dict.fromkeys([default_state_dir(env), state_dir]):
        out[path] = "the host's state directory (every agent's output and input)"
    out[approvals_file] = "the exec approvals' allowlist (what runs without asking)"
    return out


def _exec_from_toml(base: ExecSettings, table: Mapping[str, Any], scope: str = "",
                    protected: Mapping[str, str] | None = None) -> ExecSettings:
    changes: dict[str, Any] = {}
    for key, value in table.items():
        if key in HOST_WIDE_KEYS:
            if scope:
                _warn(f"{scope}tools.exec.{key} is host-wide: set it in [tools.exec]; ignored here")
            continue
        if key in _PLACEMENT_KEYS:
            changes.update(_placement(base, key, value, scope, protected or {}))
            continue
        if key in _CHOICE_KEYS:
            attr, choices = _CHOICE_KEYS[key]
            if value in choices:
                changes[attr] = value
            else:
                _warn(f"{scope}tools.exec.{key} must be one of {', '.join(choices)}, got {value!r}: ignored",
                      stacklevel=4)
            continue
        if key not in _TOML_KEYS:
            warnings.warn(f"unknown setting tools.exec.{key} ignored", ConfigWarning, stacklevel=3)
            continue
        attr, kind = _TOML_KEYS[key]
        if kind is bool and not isinstance(value, bool) or kind is int and (
            isinstance(value, bool) or not isinstance(value, int)
        ):
            warnings.warn(f"tools.exec.{key} must be {kind.__name__}, got {value!r}: ignored", ConfigWarning, stacklevel=3)
            continue
        changes[attr] = value / 1000 if key == "killGraceMs" else value
    return _clamped(replace(base, **changes))


_PLACEMENT_KEYS = ("host", "pathPrepend", "sandbox")


def _placement(base: ExecSettings, key: str, value: Any, scope: str, protected: Mapping[str, str]) -> dict[str, Any]:
    """``host``, ``pathPrepend`` and the ``sandbox`` table: where and with what a run executes."""
    if key == "host":
        mode = PLACEMENT_ALIASES.get(str(value).lower(), str(value).lower()) if isinstance(value, str) else None
        if mode not in PLACEMENTS:
            _warn(f"tools.exec.host must be one of {', '.join(PLACEMENTS)}, got {value!r}: ignored")
            return {}
        return {"placement": PlacementMode(mode)}
    if key == "pathPrepend":
        dirs = _paths("tools.exec.pathPrepend", value)
        return {} if dirs is None else {"path_prepend": dirs}
    if not isinstance(value, dict):
        _warn(f"tools.exec.sandbox must be a table, got {value!r}: ignored")
        return {}
    return _sandbox(base, value, f"{scope}tools.exec.sandbox", protected)


def _sandbox(base: ExecSettings, table: Mapping[str, Any], name: str, protected: Mapping[str, str]) -> dict[str, Any]:
    """The ``[tools.exec.sandbox]`` table. What it hides starts from ``base``'s (the defaults, or for an
    agent the host-wide result): ``show`` takes paths out of that (never a protected one), then ``hide``
    (alias ``secrets``) adds paths, so a path both shown and hidden at one level stays hidden."""
    changes: dict[str, Any] = {}
    show: tuple[str, ...] = ()
    hide: list[str] = []
    for sub, item in table.items():
        if sub == "network" and isinstance(item, bool):
            changes["sandbox_network"] = item
        elif sub == "network":
            _warn(f"{name}.network must be bool, got {item!r}: ignored", stacklevel=6)
        elif sub == "tmp" and item in TMP_MODES:
            changes["sandbox_tmp"] = item
        elif sub == "tmp":
            _warn(f"{name}.tmp must be one of {', '.join(TMP_MODES)}, got {item!r}: ignored", stacklevel=6)
        elif sub == "show":
            show = _shows(f"{name}.show", item, protected)
        elif sub in ("hide", "secrets"):
            hide += _paths(f"{name}.{sub}", item) or ()
        elif sub == "passEnv" and (names := _names(f"{name}.passEnv", item)):
            changes["pass_env"] = tuple(dict.fromkeys(base.pass_env + names))
        elif sub != "passEnv":
            _warn(f"unknown setting {name}.{sub} ignored", stacklevel=6)
    if show:
        changes["shown"] = tuple(dict.fromkeys(base.shown + show))
    if show or hide:
        kept = [p for p in base.secrets if p in protected or not any(within(p, s) for s in show)]
        changes["secrets"] = tuple(dict.fromkeys([*kept, *hide]))
    return changes


def _shows(name: str, value: Any, protected: Mapping[str, str]) -> tuple[str, ...]:
    """``show``'s paths, less those inside a protected directory; each protected one met is named in a
    warning, so the host says on start why it stays hidden."""
    out: list[str] = []
    for path in _paths(name, value) or ():
        inside = next((p for p in protected if within(path, p)), None)
        if any(c in path for c in "*?["):
            _warn(f"{name}: {path!r} is a pattern; show takes paths (a directory shows what is below it): ignored",
                  stacklevel=7)
        elif inside is not None:
            _warn(f"{name}: {path} is inside {inside}, {protected[inside]}, which sandboxed runs never see "
                  "whatever show says: it stays hidden", stacklevel=7)
        else:
            out.append(path)
            for p in (p for p in protected if within(p, path)):
                _warn(f"{name}: {path} covers {p}, {protected[p]}, which sandboxed runs never see whatever show "
                      "says: that stays hidden", stacklevel=7)
    return tuple(out)


def _names(name: str, value: Any) -> tuple[str, ...] | None:
    """A list of variable names or fnmatch globs (``passEnv``)."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v and "=" not in v for v in value):
        _warn(f"{name} must be a list of variable names or globs, got {value!r}: ignored")
        return None
    return tuple(value)


def _paths(name: str, value: Any) -> tuple[str, ...] | None:
    """A list of absolute paths (``~`` expanded); relative entries are dropped, since they would depend
    on each run's directory (a relative PATH entry is exactly the hijack the env check refuses)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _warn(f"{name} must be a list of paths, got {value!r}: ignored")
        return None
    out: list[str] = []
    for raw in value:
        path = os.path.expanduser(raw)
        if not os.path.isabs(path):
            _warn(f"{name}: {raw!r} is not an absolute path: ignored")
            continue
        out.append(os.path.normpath(path))
    return tuple(out)


def _warn(message: str, stacklevel: int = 5) -> None:
    warnings.warn(message, ConfigWarning, stacklevel=stacklevel)


def _warn_loading(message: str) -> None:
    """A warning of a table ``load_settings`` reads itself (``[nodes.NAME]``), pointing at its caller."""
    warnings.warn(message, ConfigWarning, stacklevel=4)


_ENV_KEYS = (
    ("OPENCLAW_BASH_YIELD_MS", "PI_BASH_YIELD_MS", "yield_ms"),
    ("OPENCLAW_BASH_MAX_OUTPUT_CHARS", "PI_BASH_MAX_OUTPUT_CHARS", "max_output_chars"),
    ("OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "PI_BASH_PENDING_MAX_OUTPUT_CHARS", "pending_max_chars"),
    ("OPENCLAW_BASH_JOB_TTL_MS", "PI_BASH_JOB_TTL_MS", "ttl_ms"),
    ("OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "PI_PROCESS_INPUT_WAIT_IDLE_MS", "input_wait_ms"),
)


def _apply_env(base: ExecSettings, env: Mapping[str, str]) -> ExecSettings:
    changes: dict[str, Any] = {}
    for name, legacy, attr in _ENV_KEYS:
        key = name if env.get(name, "").strip() else legacy
        raw = env.get(key, "").strip()
        if not raw:
            continue
        if not (raw.isascii() and raw.isdigit()):
            warnings.warn(f"{key}={raw!r} is not a plain integer: ignored", ConfigWarning, stacklevel=3)
            continue
        changes[attr] = int(raw)
    return _clamped(replace(base, **changes))


def _clamped(s: ExecSettings) -> ExecSettings:
    max_output = clamp(s.max_output_chars, OUTPUT_RANGE)
    return replace(
        s,
        yield_ms=clamp(s.yield_ms, YIELD_RANGE),
        timeout_sec=max(0, s.timeout_sec),
        ttl_ms=clamp(s.ttl_ms, TTL_RANGE),
        max_output_chars=max_output,
        pending_max_chars=min(clamp(s.pending_max_chars, OUTPUT_RANGE), max_output),
        input_wait_ms=clamp(s.input_wait_ms, INPUT_WAIT_RANGE),
        raw_ring_bytes=max(4096, s.raw_ring_bytes),
        kill_grace_s=min(max(0.0, s.kill_grace_s), 60.0),
        approval_timeout_ms=clamp(s.approval_timeout_ms, APPROVAL_TIMEOUT_RANGE),
        approval_running_notice_ms=max(0, s.approval_running_notice_ms),
    )
