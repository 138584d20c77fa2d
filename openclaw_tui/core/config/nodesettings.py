"""The ``[nodes.NAME]`` tables: other machines whose hosts run calls, reached over OpenSSH.

Each table becomes a :class:`NodeSettings`, or is left out with a warning saying why while the rest of the
configuration loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_COMMAND = "openclaw-tui"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
KEYS = ("ssh", "socket", "command", "options")


@dataclass(frozen=True)
class NodeSettings:
    """One configured node."""

    name: str
    ssh: str
    socket: str | None = None
    command: str = DEFAULT_COMMAND
    options: tuple[str, ...] = ()


def parse_nodes(table: Mapping[str, Any], warn: Callable[[str], None]) -> dict[str, NodeSettings]:
    """Every usable ``[nodes.NAME]`` table, by name; ``warn`` hears why each ignored one was left out."""
    nodes: dict[str, NodeSettings] = {}
    for name, entry in table.items():
        problem = _problem(name, entry)
        if problem:
            warn(f"[nodes.{name}] ignored: {problem}")
            continue
        for key in entry:
            if key not in KEYS:
                warn(f"unknown setting nodes.{name}.{key} ignored (valid: {', '.join(KEYS)})")
        nodes[name] = NodeSettings(
            name=name,
            ssh=entry["ssh"],
            socket=entry.get("socket") or None,
            command=entry.get("command") or DEFAULT_COMMAND,
            options=tuple(entry.get("options", ())),
        )
    return nodes


def _problem(name: str, entry: Any) -> str | None:
    if not NAME.fullmatch(name):
        return ("a node name is letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit), "
                "since it prefixes the node's session ids")
    if not isinstance(entry, dict):
        return "it must be a table with at least ssh = \"user@host\""
    ssh = entry.get("ssh")
    if not isinstance(ssh, str) or not ssh.strip() or ssh != ssh.strip() or any(c.isspace() for c in ssh):
        return "ssh must be an ssh destination such as \"user@host\" or a ~/.ssh/config alias"
    if ssh.startswith("-"):
        return "ssh must be a destination, not an option (put ssh options in options = [...])"
    for key in ("socket", "command"):
        if key in entry and (not isinstance(entry[key], str) or not entry[key].strip()):
            return f"{key} must be a non-empty string"
    options = entry.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        return "options must be a list of ssh arguments, e.g. [\"-p\", \"2222\", \"-o\", \"ProxyJump=bastion\"]"
    return None
