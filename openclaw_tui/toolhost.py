"""The product's host: the core's ``SessionHost`` with the terminal engine and the config's nodes
(``openclaw_tui.ToolHost``)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from openclaw_tui.core.config import Settings
from openclaw_tui.core.host import SessionHost
from openclaw_tui.core.tools import NoticeRelay
from openclaw_tui.terminal import Engine


class ToolHost(SessionHost):
    """The product's host: the core's :class:`~openclaw_tui.core.host.sessionhost.SessionHost` with the terminal
    engine, which answers PTY programs' terminal queries (cursor position, status, attributes) as a
    terminal would, whether or not a dashboard is watching, and draws their screens for the ``screen``
    action, and with the nodes of the config (``[nodes.NAME]``), reached over ssh. Every frontend
    (dashboard, ``serve``) runs this one."""

    def __init__(self, config_path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                 settings: Settings | None = None) -> None:
        super().__init__(config_path, env, settings, terminal=Engine())
        core = self.supervisor
        if core.settings.nodes:
            # Imported here: remote/ imports this package (serve.py takes ToolHost from it), and a host
            # without nodes need not load ssh at all.
            from openclaw_tui.remote.nodes import SshNodes

            core.nodes = SshNodes(core.settings.nodes, NoticeRelay(core.notices, core.bus.publish))
