"""The Textual dashboard (it imports the core; the core never imports it).

:func:`make_app` is the one way to build the app, used by the CLI and the tests alike; :func:`run_dashboard`
is what ``openclaw-tui`` and ``openclaw-tui attach`` run: the dashboard is always a client of the host
serving this user's socket, which it starts in the background when none serves (``openclaw-tui`` only).
The host outlives the dashboard: quitting detaches unless the operator chooses to end the sessions.
Textual (and the mirror, which brings the core) are imported only once the host is being looked for (and
started) in a thread, so the two overlap: the first list shows sooner.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openclaw_tui.remote.wire import host_opener

if TYPE_CHECKING:
    from openclaw_tui.remote.mirror import HostView, RemoteHost

    from .app import DashboardApp
    from .keymap import load_keymap

__all__ = ["DashboardApp", "load_keymap", "make_app", "open_host", "run_dashboard"]


def make_app(host: HostView, demo: bool = False, *, handle_signals: bool = False,
             keymap: dict[str, str] | None = None, socket: Path | str | None = None) -> DashboardApp:
    """The dashboard on ``host``; the caller keeps the host's lifetime (the app never closes it).

    Args:
        host: the host to show: a :class:`RemoteHost` mirror of the serving host (tests may hand in a host
            of their own process).
        demo: start the example sessions.
        handle_signals: SIGTERM/SIGHUP detach and end the app (for the real program).
        keymap: binding id -> key(s), as read by :func:`~.settings.load_keymap`.
        socket: where the host serves (named in the header; a mirror names it itself once connected).
    """
    from .app import DashboardApp

    return DashboardApp(host, demo=demo, handle_signals=handle_signals, keymap=keymap,
                        attached_to=str(socket) if socket else None)


def __getattr__(name: str) -> Any:
    # imported when asked for: both bring Textual, which the dashboard loads while it looks for its host
    if name == "DashboardApp":
        from .app import DashboardApp

        return DashboardApp
    if name == "load_keymap":
        from .keymap import load_keymap

        return load_keymap
    raise AttributeError(name)


def open_host(config_path: str | None, start: bool = True) -> RemoteHost:
    """The dashboard's host: a mirror of the one serving this user's socket, connecting in the background
    (started first when none serves and ``start``). The one place the dashboard's HostView is built."""
    opener = host_opener(config_path, start)  # looking starts now, before the imports below
    from openclaw_tui.remote.mirror import RemoteHost

    return RemoteHost(opener=opener)


def run_dashboard(config_path: str | None = None, demo: bool = False, start: bool = True) -> int:
    """The dashboard until the operator quits or detaches. Nothing is waited for before the first frame:
    the host is looked for (and started) while the app starts, and the header says so until it answers."""

    async def main() -> int:
        host = open_host(config_path, start)
        if start:
            host.start()
        else:  # `attach` asks for a host that runs: say at once when none does
            try:
                await host.link.first()
            except (ConnectionError, OSError) as exc:
                print(f"openclaw-tui: {exc}", file=sys.stderr)
                return 2
        from openclaw_tui.remote.nodes import open_fleet

        from .keymap import load_keymap

        shown = open_fleet(config_path, host)  # with nodes configured: theirs beside this machine's
        app = make_app(shown, demo=demo, handle_signals=True, keymap=load_keymap(config_path))
        try:
            await app.run_async()
        finally:
            app.disarm_watchdog()
            await shown.close()
        return app.return_code or 0

    return asyncio.run(main())
