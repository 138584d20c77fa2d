"""The header says when the host's sessions are not being saved to disk: on a host in this process, and mirrored."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import Settings
from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui import make_app

from ..support.pilots import header, run, toasts, until


def unusable_host(tmp_path: Path) -> ToolHost:
    """A host whose state directory is a file: its journal cannot start, its sessions stay in memory."""
    (tmp_path / "state").write_text("not a directory")
    return ToolHost(settings=Settings(state_dir=str(tmp_path / "state")))


async def test_the_dashboard_marks_the_header_and_says_why(tmp_path, sock_dir) -> None:
    host = unusable_host(tmp_path)
    host.start()
    server = HostServer(host, sock_dir / "run" / "host.sock")
    await server.start()
    app = make_app(host)
    try:
        async with run(app) as pilot:
            await until(pilot, lambda: app.header.journal_problem, "the journal's problem in the header")
            assert "not saved" in header(app)
            assert app.header.journal_problem.startswith("journal off: cannot use state directory")
            assert f"Journal: Sessions are not being saved to disk: {app.header.journal_problem}" in toasts(app)
    finally:
        await server.close()
        await host.close()


async def test_an_attached_dashboard_marks_the_header_too(tmp_path, sock_dir) -> None:
    host = unusable_host(tmp_path)
    host.start()
    server = HostServer(host, sock_dir / "run" / "host.sock")
    await server.start()
    try:
        assert host.restored is not None
        await host.restored
        remote = await RemoteHost.connect(sock_dir / "run" / "host.sock")
        app = make_app(remote)
        try:
            async with run(app) as pilot:
                await until(pilot, lambda: app.header.journal_problem, "the journal's problem in the header")
                assert app.header.journal_problem == host.journal_status["problem"]
                assert "not saved" in header(app)
        finally:
            await remote.close()
    finally:
        await server.close()
        await host.close()
