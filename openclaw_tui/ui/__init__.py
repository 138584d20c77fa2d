"""The Textual dashboard (it imports the core; the core never imports it).

:func:`make_app` is the one way to build the app, used by the CLI and the tests alike;
:func:`run_dashboard` is what ``openclaw-tui`` runs: the dashboard on the host already serving this user's
socket (attached, saying so), or else on an embedded host that serves it, with no process left behind.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from .. import ToolHost
from ..remote.client import NoHost
from ..remote.fleet import open_fleet
from ..remote.mirror import RemoteHost
from ..remote.paths import find_host, socket_path
from ..remote.server import HostServer
from ..remote.views import HostView
from .app import AttachedDashboardApp, DashboardApp
from .settings import load_keymap

__all__ = ["AttachedDashboardApp", "DashboardApp", "make_app", "run_attached", "run_dashboard"]


def make_app(host: HostView, demo: bool = False, *, handle_signals: bool = False,
             keymap: dict[str, str] | None = None, attached: bool = False, server: HostServer | None = None,
             socket: Path | None = None) -> DashboardApp:
    """The dashboard on ``host`` (started when the app mounts, closed when it unmounts).

    Args:
        host: the host to show (this process's, or a :class:`RemoteHost` mirror of another's); the app owns
            its lifetime from here on.
        demo: start the example sessions.
        handle_signals: SIGTERM/SIGHUP end the sessions and the app (for the real program).
        keymap: binding id -> key(s), as read by :func:`~.settings.load_keymap`.
        attached: ``host`` runs in another process; quitting detaches, leaving its sessions running.
        server: serves the (embedded) host on its Unix socket while the app runs.
        socket: the socket an attached dashboard reached its host on (named in the header).
    """
    if attached:
        return AttachedDashboardApp(host, demo=demo, handle_signals=handle_signals, keymap=keymap,
                                    attached_to=str(socket) if socket else "another process")
    return DashboardApp(host, demo=demo, handle_signals=handle_signals, keymap=keymap, server=server)


def run_dashboard(config_path: str | None = None, demo: bool = False) -> int:
    """The dashboard until the operator quits: on the host already serving (attached: quitting leaves its
    sessions running), else on an embedded host serving the socket."""
    serving = find_host()
    if serving is not None:
        print(f"openclaw-tui: a host is already serving on {serving}; showing its sessions (attached: "
              "quitting leaves them running)", file=sys.stderr)
        return run_attached(config_path, serving, demo=demo, announce=True)
    host = ToolHost(config_path=config_path)
    app = make_app(host, demo=demo, handle_signals=True, keymap=load_keymap(config_path),
                   server=HostServer(host, socket_path()))
    try:
        app.run()
    finally:
        app.disarm_watchdog()
        host.force_kill()  # last resort if the app died before its unmount closed the host
    return app.return_code or 0


def run_attached(config_path: str | None = None, path: Path | None = None, demo: bool = False,
                 announce: bool = False) -> int:
    """The dashboard on the host serving this user's socket (any candidate path, or ``path``); quitting
    leaves its sessions running. ``announce``: say so in the dashboard too (the operator did not ask to
    attach)."""

    async def main() -> int:
        where = path or await asyncio.to_thread(find_host) or socket_path()
        try:
            host = await RemoteHost.connect(where)
        except NoHost as exc:
            print(f"openclaw-tui: {exc}", file=sys.stderr)
            return 2
        app = make_app(open_fleet(config_path, host), demo=demo, handle_signals=True,
                       keymap=load_keymap(config_path), attached=True, socket=where)

        async def say_attached(_pilot: object) -> None:
            app.notify(f"Attached to the host serving on {where}; quitting leaves its sessions running.",
                       title="Attached", timeout=8)

        await app.run_async(auto_pilot=say_attached if announce else None)
        return app.return_code or 0

    return asyncio.run(main())
