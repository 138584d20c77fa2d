"""A dashboard attached to a real ``openclaw-tui serve`` that re-executes (``serve --reexec``, the upgrade
path): it says it is reconnecting, reconnects by itself, keeps the same list and selection, its terminal view
draws on, and typing reaches the session after."""

from __future__ import annotations

from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.ui import make_app
from openclaw_tui.ui.messages import HostGone, HostLinkChanged

from ..support.pilots import SIZE, header, heard, run, screen_text, select, selected, until
from ..support.sessions import start_background


async def test_a_dashboard_reconnects_through_a_reexec_and_typing_works_after(serve) -> None:  # noqa: F811
    sid = await start_background(serve.call, "read -r -p 'name? ' x; echo \"hello $x\"", pty=True,
                                 workdir=str(serve.workdir))
    other = await start_background(serve.call, "sleep 60", workdir=str(serve.workdir))
    remote = await RemoteHost.connect(serve.sock)
    app = make_app(remote)
    try:
        async with run(app, SIZE) as pilot:
            await select(pilot, app, sid)
            await until(pilot, lambda: "name?" in screen_text(app), "the prompt drawn")
            await serve.reexeced()
            await until(pilot, lambda: "reconnecting" in [m.link for m in heard(app, HostLinkChanged)],
                        "the header told the link dropped")
            await until(pilot, lambda: heard(app, HostLinkChanged)[-1].link == "live" and "reconnecting" not in header(app),
                        "reconnected by itself")
            assert not heard(app, HostGone)
            assert {s.id for s in app.sessions()} == {sid, other} and selected(app) == sid
            await pilot.press("t")
            await until(pilot, lambda: app.workspace.type_through, "type-through on")
            for key in "ada":
                await pilot.press(key)
            await pilot.press("enter")
            await until(pilot, lambda: "hello ada" in screen_text(app), "the answer drawn after the re-exec")
            ended = await serve.ended(sid)
            assert ended["exitCode"] == 0
            await pilot.press("ctrl+right_square_bracket")
    finally:
        await remote.close()
