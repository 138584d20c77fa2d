"""``openclaw-tui sandbox``: what a sandboxed run of this user would not see, and what it sees by choice."""

from __future__ import annotations

import os
import sys
import tomllib

from openclaw_tui.core.config import ExecSettings, PlacementMode, Settings, load_settings
from openclaw_tui.core.containment import Kind, sandbox
from openclaw_tui.core.launch import Exposure, sandbox_exposure
from openclaw_tui.core.procs import MARKER

TABLE = "openclaw_tui/core/containment/credentials.py"


def run_sandbox(config_path: str | None, agent: str | None) -> int:
    if os.environ.get(MARKER):
        print("openclaw-tui sandbox: this shell runs inside a session, whose environment is already filtered; "
              "run it from your own shell", file=sys.stderr)
        return 2
    try:
        settings = load_settings(config_path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        print(f"openclaw-tui: config: {exc}", file=sys.stderr)
        return 2
    chosen = settings.for_agent(agent)
    print("\n".join(report(sandbox_exposure(chosen, os.environ), chosen, settings, agent)))
    return 0


def report(found: Exposure, s: ExecSettings, settings: Settings, agent: str | None) -> list[str]:
    """The report's lines."""
    who = "every agent"
    if agent:
        who = f"agent {agent!r}" + ("" if agent in settings.agents else " (no settings of its own)")
    out = [f"What a sandboxed run of {who} does not see here (config: {settings.source}).", ""]
    out.append(f"Credential stores found here, hidden ({len(found.stores)} of the {found.places} places {TABLE} "
               "names for this environment):")
    for kind in Kind:
        rows = [(store.tool, path) for store, path in found.stores if store.kind is kind]
        if rows:
            out.append(f"  {kind}")
            out += [f"    {tool:<32} {path}" for tool, path in rows]
    out += _section("Other paths found here, hidden (agents' and the host's sockets, the state directory, hide):",
                    [f"    {p}" for p in found.other])
    out += _section("Variables of this environment kept out (names only):", _columns(found.withheld))
    shown = [f"    {path:<40} {why}" for path, why in found.shown]
    shown += [f"    {name:<40} (passEnv)" for name in found.passed]
    out += _section("Visible by the operator's choice, though they look like secrets:", shown)
    out += ["", *_placement(s)]
    net = "on: programs inside reach the network and the host's loopback" if s.sandbox_network else "off"
    tmp = "a private /tmp" if s.sandbox_tmp == "private" else "the host's /tmp"
    out.append(f"Not protected: the network ({net}); the workdir, {tmp} and $TMPDIR, which runs read and write.")
    return out


def _section(title: str, lines: list[str]) -> list[str]:
    return ["", title, *(lines or ["    (none)"])]


def _columns(names: tuple[str, ...], width: int = 100) -> list[str]:
    lines, line = [], "   "
    for name in names:
        if len(line) + len(name) + 2 > width:
            lines.append(line)
            line = "   "
        line += f" {name}"
    return [*lines, line] if names else []


def _placement(s: ExecSettings) -> list[str]:
    """Where runs of these settings go on this machine, so the report is not read as a promise it is not."""
    found = sandbox.availability()
    if s.placement == PlacementMode.GATEWAY:
        return [('tools.exec.host = "gateway": runs go to the host and see all of this; a call\'s host: "sandbox" '
                 "would not.")]
    if found.usable:
        return [(f'Runs go to the bubblewrap sandbox (tools.exec.host = "{s.placement}"; {found.reason}); '
                 "elevated runs go to the host and see everything.")]
    if s.placement == PlacementMode.SANDBOX:
        return [f'tools.exec.host = "sandbox", but the sandbox cannot run here ({found.reason}): runs are refused.']
    return [(f'The sandbox cannot run here ({found.reason}): with tools.exec.host = "auto", runs go to the host '
             "and see all of this.")]
