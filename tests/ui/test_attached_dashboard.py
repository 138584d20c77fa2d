"""The dashboard attached to a host in another process: same sessions, same rescue, nothing ended on quit."""

from __future__ import annotations

from openclaw_tui.remote.client import HostClient
from openclaw_tui.remote.mirror import RemoteHost
from openclaw_tui.remote.server import HostServer
from openclaw_tui.ui import make_app

from ..hosting import close_within
from ..waiting import wait_for
from .conftest import (
    SIZE,
    SMALL,
    header,
    inputs_line,
    new_host,
    run,
    screen_text,
    selected,
    start,
    toasts,
    until,
)

PROMPT = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


async def test_attached_dashboard_rescues_an_agents_prompt_and_leaves_sessions_running(served):
    host, sock = served
    sid = await start(host, PROMPT, agent="agent-a", pty=True)
    other = await start(host, "sleep 60", agent="agent-b")
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, attached=True)
    async with run(app, SIZE) as pilot:
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

    sock = tmp_path / "host.sock"
    app = make_app(host, server=HostServer(host, sock))
    async with run(app, SIZE) as pilot:
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
        app = make_app(remote, attached=True)
        async with run(app, SIZE) as pilot:
            await until(pilot, lambda: "1 running" in str(app.query_one("#header").render()), "the session shown")
            await server.close()  # the host goes away under the attached dashboard
            await until(pilot, lambda: "host gone" in str(app.query_one("#header").render()), "the header saying so")
            assert any("host went away" in t for t in toasts(app))
    finally:
        await server.close()
        await close_within(host)


async def test_attached_dashboard_shows_the_inputs_of_a_pty_session(served):
    host, sock = served
    sid = await start(host, "bash -c 'read -r a; read -r b; sleep 60'", agent="agent-a", pty=True)
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "from-agent\n"}, agent="agent-a")
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, attached=True)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: app.workspace.select(sid) or selected(app) == sid, "the session selected")
        await until(pilot, lambda: "from-agent" in screen_text(app), "the echo drawn from the raw bytes")
        await until(pilot, lambda: "agent-a write from-agent" in inputs_line(app), "the agent's input listed")
        await pilot.press("t", "o", "k", "ctrl+right_square_bracket")
        await until(pilot, lambda: [(r.source, r.preview) for r in host.session(sid).inputs]
                    == [("agent-a", "from-agent\n"), ("operator", "ok")], "the keys recorded on the host, as one line")
        await until(pilot, lambda: "operator type ok" in inputs_line(app), "the operator's keys listed")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert host.session(sid).running


async def test_an_attach_to_waiting_sessions_announces_none_and_says_it_is_attached(served):
    host, sock = served
    for _ in range(2):
        await start(host, PROMPT, pty=True)
    await wait_until_waiting(host, 2)
    remote = await RemoteHost.connect(sock)
    app = make_app(remote, attached=True, socket=sock)
    async with run(app, (200, 40)) as pilot:
        await until(pilot, lambda: "◆ 2 waiting" in header(app), "the waiting sessions counted")
        await pilot.pause(0.3)
        assert not [t for t in toasts(app) if "wait" in t]
        assert f"attached to {sock} · q detaches" in header(app)
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: header(app).rstrip().endswith("attached"), "the short form at 80 columns")
        keys = {k.action: k for k in app.query("FooterKey")}
        assert keys["quit"].description == "Detach"
        await pilot.press("q")  # detaches at once: no question, nothing ended
        await until(pilot, lambda: not app.is_running, "the dashboard gone")
    assert all(s.running for s in host.sessions())


async def wait_until_waiting(host, count: int) -> None:

    await wait_for(lambda: sum(bool(s.waiting_reason or s.waiting_for_input) for s in host.sessions()) == count, 20,
                   "the prompts waiting")
