"""The selected session's details (``i``): its process tree, ports, container, environment and clocks.

Read from ``details`` alone, so a node's session shows what its own host measured; redrawn every 2 s while open.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from openclaw_tui.remote.mirror import SessionView

from ..sessions.rows import size_label
from .base import Dialog

REDRAW_S = 2.0
COMMAND_MAX = 64  # a process's command line in the tree, cut in the middle (a sandbox's launcher runs long)
ROW_PREFIX = 29  # a tree row's columns before its command: pid, cpu, rss, state


def info_text(d: Mapping[str, Any], now_s: float | None = None, width: int | None = None) -> Text:
    """What the dialog says of the session whose ``details`` are ``d``; ``width``: the cells it has, which
    the tree's command lines are cut to (one line a process)."""
    commands = COMMAND_MAX if width is None else min(COMMAND_MAX, width - ROW_PREFIX)
    now_s = time.time() if now_s is None else now_s
    text = Text()

    def line(label: str, value: object, style: str = "") -> None:
        text.append(f"{label:<12}", style="bold")
        text.append(f"{value}\n", style=style)

    line("session", f"{d['sessionId']}  {d.get('name', '')}")
    line("command", d.get("command", ""))
    line("status", d.get("status", ""))
    line("workdir", d.get("cwd", ""))
    line("placement", d.get("host", "") + ("  (elevated)" if d.get("elevated") else ""))
    line("node", d.get("node") or "local (this host)")
    line("containment", d.get("containment") or "none")
    if d.get("cgroup"):
        line("cgroup", d["cgroup"])
    line("timeout", _left(d.get("timeoutAt"), now_s, "none (no timeout, or not running)"))
    line("ttl", _left(d.get("expiresAt"), now_s, "while it runs: none; kept for the TTL once it ends"))
    if d.get("rerunOf"):
        line("re-run of", d["rerunOf"])
    figures = d.get("resources")
    text.append("\nprocesses", style="bold")
    if not figures:
        text.append("  (no figures: not running, or not read yet)\n", style="dim")
    else:
        text.append(f"  {figures.get('processes', 0)}, {figures.get('cpuPercent', 0):.0f}% CPU, "
                    f"{size_label(int(figures.get('rssBytes', 0)))} resident ({figures.get('source', '')})\n")
        text.append(f"  {'pid':>7}  {'cpu':>5}  {'rss':>5}  st  command\n", style="dim")
        for depth, row in _tree(figures.get("tree") or []):
            text.append(f"  {row['pid']:>7}  {row['cpuPercent']:>4.0f}%  {size_label(int(row['rssBytes'])):>5}  "
                        f"{row['state'][:1]:<2}  {'  ' * depth}{_cut(row['command'], commands - 2 * depth)}\n")
        ports = figures.get("listening") or []
        text.append("\nports", style="bold")
        text.append("  none\n" if not ports else "\n", style="dim" if not ports else "")
        for port in ports:
            text.append(f"  {port['proto']} {port['port']:<6} pid {port['pid']} {port['command']}\n")
    env = d.get("env") or {}
    text.append("\nenvironment", style="bold")
    text.append("  (the call's own; secret-looking values masked)\n" if env else "  (inherited only)\n", style="dim")
    for name, value in sorted(env.items()):
        text.append(f"  {name}={value}\n")
    return text


def _tree(rows: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Rows in tree order (each child under its parent), with their depth."""
    pids = {row["pid"] for row in rows}
    children: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        children.setdefault(row["ppid"] if row["ppid"] in pids else 0, []).append(row)
    out: list[tuple[int, dict[str, Any]]] = []
    stack = [(0, row) for row in reversed(children.get(0, []))]
    while stack:
        depth, row = stack.pop()
        out.append((depth, row))
        stack += [(depth + 1, child) for child in reversed(children.get(row["pid"], []))]
    return out


def _cut(command: str, width: int) -> str:
    width = max(16, width)
    return command if len(command) <= width else command[: width // 2 - 1] + "…" + command[-(width - width // 2):]


def _left(stamp: str | None, now_s: float, none: str) -> str:
    if not stamp:
        return none
    at = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    left = max(0, round(at - now_s))
    return f"{left // 3600}h {left % 3600 // 60:02d}m {left % 60:02d}s left (at {stamp})"


class SessionInfo(Dialog[None]):
    """The details of one session, kept current while open; Escape (or ``i``) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,i", "close", "Close", id="info-close")]

    def __init__(self, session: SessionView) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box info-box"):
            yield Label(f"Session {self.session.id}", classes="dialog-title")
            with VerticalScroll(id="info-scroll"):
                yield Static(info_text(self.session.details()), id="info-body")

    def on_mount(self) -> None:
        self.set_interval(REDRAW_S, self.redraw)
        self.call_after_refresh(self.redraw)  # once its width is known

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    def redraw(self) -> None:
        body = self.query_one("#info-body", Static)
        body.update(info_text(self.session.details(), width=body.content_size.width or None))

    def action_close(self) -> None:
        self.dismiss(None)
