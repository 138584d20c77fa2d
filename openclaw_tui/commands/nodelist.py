"""``openclaw-tui nodes`` and ``openclaw-tui attach --node NAME``: the configured nodes from a shell.

``nodes`` looks at every node at once (never starting a host there) and prints a line each; ``attach --node``
opens the dashboard on one node's host over the ssh bridge.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import tomllib
from typing import Any

from openclaw_tui.core.config import NodeSettings, Settings, load_settings
from openclaw_tui.core.session import Status
from openclaw_tui.remote.nodes import NodeUnreachable, SshLink, mirror_over
from openclaw_tui.remote.wire import protocol as p

ROUND_TRIPS = 5


def run_nodes(config_path: str | None) -> int:
    settings = _settings(config_path)
    if settings is None:
        return 2
    if not settings.nodes:
        print(f"openclaw-tui: no nodes are configured (in {settings.source}); add one with\n"
              "  [nodes.NAME]\n  ssh = \"user@host\"", file=sys.stderr)
        return 2
    try:
        checks = asyncio.run(_check_all(list(settings.nodes.values())))
    except KeyboardInterrupt:  # every ssh started is ended on the way out
        return 130
    width = max(len(name) for name in settings.nodes)
    for name, (_, line) in zip(settings.nodes, checks, strict=True):
        print(f"{name:<{width}}  {line}")
    return 0 if all(ok for ok, _ in checks) else 1


async def _check_all(nodes: list[NodeSettings]) -> list[tuple[bool, str]]:
    return list(await asyncio.gather(*(_check(node) for node in nodes)))


async def _check(node: NodeSettings) -> tuple[bool, str]:
    began = time.perf_counter()
    try:
        link = await SshLink.open(node, start=False, client="openclaw-tui nodes")
    except NodeUnreachable as exc:
        return False, f"no answer: {exc}"
    connect_ms = (time.perf_counter() - began) * 1000
    try:
        trips = []
        for _ in range(ROUND_TRIPS):
            start = time.perf_counter()
            await link.client.request("hello", {"client": "openclaw-tui nodes"})
            trips.append((time.perf_counter() - start) * 1000)
        listed = await link.client.call({"tool": "process", "action": "list"}, agent=None)
    except (ConnectionError, p.RemoteError) as exc:
        return False, f"no answer: node {node.name}: the connection dropped while checking it ({exc})"
    finally:
        await link.close()
    sessions: list[dict[str, Any]] = listed["details"].get("sessions", [])
    running = sum(1 for s in sessions if s.get("status") == Status.RUNNING)
    count = f"{len(sessions)} session" + ("" if len(sessions) == 1 else "s")
    return True, (f"answers  openclaw-tui {link.client.hello.get('version', '?')}  {count} "
                  f"({running} running)  {statistics.median(trips):.1f} ms round trip  "
                  f"({connect_ms:.0f} ms to connect over ssh {node.ssh})")


def run_attach_node(config_path: str | None, name: str) -> int:
    settings = _settings(config_path)
    if settings is None:
        return 2
    node = settings.nodes.get(name)
    if node is None:
        known = ", ".join(settings.nodes) or f"none (add [nodes.{name}] ssh = \"user@host\" to {settings.source})"
        print(f"openclaw-tui: there is no node {name!r}; configured nodes: {known}", file=sys.stderr)
        return 2
    return asyncio.run(_attach(config_path, node))


async def _attach(config_path: str | None, node: NodeSettings) -> int:
    from openclaw_tui.ui import load_keymap, make_app  # the dashboard only when it is asked for

    try:
        link = await SshLink.open(node, start=False, client="openclaw-tui attach")
    except NodeUnreachable as exc:
        print(f"openclaw-tui: {exc}", file=sys.stderr)
        return 2
    try:
        host = await mirror_over(link.client)
    except (ConnectionError, TimeoutError, p.RemoteError) as exc:
        await link.close()
        print(f"openclaw-tui: node {node.name}: {link.why_not(exc)}", file=sys.stderr)
        return 2
    app = make_app(host, handle_signals=True, keymap=load_keymap(config_path), socket=f"node {node.name}")

    async def say_attached(pilot: object) -> None:
        app.notify(f"Attached to node {node.name} over ssh ({node.ssh}); quitting leaves its sessions running.",
                   title="Attached", timeout=8)

    try:
        await app.run_async(auto_pilot=say_attached)
    finally:
        await link.close()
    return app.return_code or 0


def _settings(config_path: str | None) -> Settings | None:
    try:
        return load_settings(config_path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        print(f"openclaw-tui: config: {exc}", file=sys.stderr)
        return None
