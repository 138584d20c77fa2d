"""The dashboard attached to a host in another process: same sessions, same rescue, nothing ended on quit."""

from __future__ import annotations

from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.remote.server.hostserver import HostServer
from openclaw_tui.ui import make_app, open_host
from openclaw_tui.ui.messages import HostLinkChanged

from ..support.hosts import close_within
from ..support.pilots import (
    SIZE,
    SMALL,
    detach,
    header,
    heard,
    inputs_line,
    new_host,
    run,
    screen_text,
    selected,
    toasts,
    until,
)
from ..support.sessions import start_background
from ..support.waiting import wait_for

PROMPT = "bash -c 'read -r -p \"name? \" n; echo \"hello $n\"'"


async def test_attached_dashboard_rescues_an_agents_prompt_and_leaves_sessions_running(served, remote):
    host, _sock = served
    sid = await start_background(host.call, PROMPT, agent="agent-a", pty=True, workdir="/tmp")
    other = await start_background(host.call, "sleep 60", agent="agent-b", workdir="/tmp")
    app = make_app(remote)
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
        await detach(pilot, app)  # keep running: nothing ended
    assert host.session(other).running


async def test_an_attached_dashboard_says_when_its_host_goes_away(sock_dir):
    host = new_host()
    host.start()
    server = HostServer(host, sock_dir / "host.sock")
    await server.start()
    try:
        await start_background(host.call, "sleep 60", workdir="/tmp")
        remote = await RemoteHost.connect(sock_dir / "host.sock")
        app = make_app(remote)
        async with run(app, SIZE) as pilot:
            await until(pilot, lambda: "1 running" in header(app), "the session shown")
            await server.close()  # the host goes away under the attached dashboard, its socket with it
            await until(pilot, lambda: "host gone" in header(app), "the header saying so")
            assert [m.link for m in heard(app, HostLinkChanged)][-2:] == ["reconnecting", "gone"]
            assert any("host went away" in t and "socket" in t for t in toasts(app))
        await remote.close()
    finally:
        await server.close()
        await close_within(host)


async def test_attached_dashboard_shows_the_inputs_of_a_pty_session(served, remote):
    host, _sock = served
    sid = await start_background(host.call, "bash -c 'read -r a; read -r b; sleep 60'", agent="agent-a",
                                 pty=True, workdir="/tmp")
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "from-agent\n"}, agent="agent-a")
    app = make_app(remote)
    async with run(app, SIZE) as pilot:
        await until(pilot, lambda: app.workspace.select(sid) or selected(app) == sid, "the session selected")
        await until(pilot, lambda: "from-agent" in screen_text(app), "the echo drawn from the raw bytes")
        await until(pilot, lambda: "agent-a write from-agent" in inputs_line(app), "the agent's input listed")
        await pilot.press("t", "o", "k", "ctrl+right_square_bracket")
        await until(pilot, lambda: [(r.source, r.preview) for r in host.session(sid).inputs]
                    == [("agent-a", "from-agent\n"), ("operator", "ok")], "the keys recorded on the host, as one line")
        await until(pilot, lambda: "operator type ok" in inputs_line(app), "the operator's keys listed")
        await detach(pilot, app)
    assert host.session(sid).running


async def test_an_attach_to_waiting_sessions_announces_none_and_names_the_socket(served, remote):
    host, sock = served
    for _ in range(2):
        await start_background(host.call, PROMPT, pty=True, workdir="/tmp")
    await wait_until_waiting(host, 2)
    # and the mirror has heard so: the dashboard's first look is at the mirror
    await wait_for(lambda: sum(s.waiting_for_input for s in remote.sessions()) == 2, 20, "the mirror's prompts waiting")
    app = make_app(remote)
    async with run(app, (200, 40)) as pilot:
        await until(pilot, lambda: "◆ 2 waiting" in header(app), "the waiting sessions counted")
        await pilot.pause(0.3)
        assert not [t for t in toasts(app) if "wait" in t]
        assert f"attached to {sock} · q: keep running or end 2" in header(app)
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: header(app).rstrip().endswith(" q: keep/end 2"), "the short form at 80 columns")
        await detach(pilot, app)
    assert all(s.running for s in host.sessions())


async def test_a_dashboard_up_before_its_mirror_syncs_announces_none_of_what_waited_already(served):
    """The first look is at the host's sessions, not at a mirror still connecting (which shows none)."""
    host, sock = served
    for _ in range(2):
        await start_background(host.call, PROMPT, pty=True, workdir="/tmp")
    await wait_until_waiting(host, 2)
    mirror = RemoteHost(sock)  # not connected yet: the dashboard's first ticks see it connecting
    app = make_app(mirror)
    try:
        async with run(app, (200, 40)) as pilot:
            mirror.start()
            await until(pilot, lambda: "◆ 2 waiting" in header(app), "the waiting sessions counted")
            await pilot.pause(0.3)
            assert not [t for t in toasts(app) if "wait" in t]
            await detach(pilot, app)
    finally:
        await mirror.close()


async def wait_until_waiting(host, count: int) -> None:

    await wait_for(lambda: sum(bool(s.waiting_reason or s.waiting_for_input) for s in host.sessions()) == count, 20,
                   "the prompts waiting")


async def test_a_dashboard_whose_host_cannot_start_says_why(monkeypatch):
    monkeypatch.setenv("OPENCLAW_TUI_SOCKET", "/tmp/" + "x" * 120 + "/host.sock")  # too long for a socket
    remote = open_host("/dev/null")
    remote.start()
    app = make_app(remote)
    try:
        async with run(app, SIZE) as pilot:
            await until(pilot, lambda: "host gone" in header(app), "the header saying the host is gone")
            assert any("cannot start an openclaw-tui host" in t and "at most" in t for t in toasts(app))
            r = await remote.call({"tool": "process", "action": "list"})
            assert r["details"]["failureKind"] == "host-gone" and "cannot start" in r["text"], r
    finally:
        await remote.close()
