"""The dashboard attached to a host in another process: same sessions, same rescue, nothing ended on quit."""

from __future__ import annotations

from openclaw_tui.remote.mirror import RemoteHost
from openclaw_tui.remote.server import HostServer
from openclaw_tui.ui import make_app

from .conftest import SIZE, new_host, screen_text, start, toasts, until

PROMPT = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


async def test_attached_dashboard_rescues_an_agents_prompt_and_leaves_sessions_running(served):
    host, sock = served
    sid = await start(host, PROMPT, agent="agent-a", pty=True)
    other = await start(host, "sleep 60", agent="agent-b")
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, cursor_blink=False, attached=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: {s.id for s in app.sessions()} == {sid, other}, "both agents' sessions")
        await until(pilot, lambda: app.workspace.select(sid) or app.workspace.selected is not None
                    and app.workspace.selected.id == sid, "the prompt selected")
        await until(pilot, lambda: "name?" in screen_text(app), "the prompt drawn from the remote raw bytes")
        await pilot.press("t")
        for key in "ada":
            await pilot.press(key)
        await pilot.press("enter")
        await until(pilot, lambda: not host.session(sid).running, "the session finishing on the host")
        assert "hello ada" in host.session(sid).output.full_text()
        assert [r.source for r in host.session(sid).inputs][-1] == "operator"
        await until(pilot, lambda: "hello ada" in screen_text(app), "the answer drawn")
        await pilot.press("ctrl+right_square_bracket")
        await pilot.press("q")  # attached: no confirmation, nothing ended
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert host.session(other).running


async def test_embedded_dashboard_serves_its_host_on_the_socket(host, tmp_path):
    from openclaw_tui.remote.client import HostClient

    sock = tmp_path / "host.sock"
    app = make_app(host, cursor_blink=False, serve_path=sock)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, sock.exists, "the socket")
        async with await HostClient.connect(sock) as agent:
            r = await agent.call({"tool": "exec", "command": "sleep 60", "background": True, "workdir": "/tmp"},
                                 agent="remote-agent")
        sid = r["details"]["sessionId"]
        await until(pilot, lambda: sid in {s.id for s in app.sessions()}, "the agent's session in the list")
        assert host.session(sid).agent == "remote-agent"
    assert not sock.exists()  # closing the dashboard stops serving


async def test_an_attached_dashboard_says_when_its_host_goes_away(tmp_path):
    host = new_host()
    host.start()
    server = HostServer(host, tmp_path / "host.sock")
    await server.start()
    try:
        await start(host, "sleep 60")
        remote = await RemoteHost.connect(tmp_path / "host.sock")
        app = make_app(remote, cursor_blink=False, attached=True)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "1 running" in str(app.query_one("#header").render()), "the session shown")
            await server.close()  # the host goes away under the attached dashboard
            await until(pilot, lambda: "host gone" in str(app.query_one("#header").render()), "the header saying so")
            assert any("host went away" in t for t in toasts(app))
    finally:
        await server.close()
        await host.close()
