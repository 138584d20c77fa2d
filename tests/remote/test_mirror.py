"""The attached view of a host: sessions, output, raw bytes and input mirrored over the socket."""

from __future__ import annotations

from openclaw_tui.remote.mirror.remotehost import RemoteHost

from ..support.waiting import wait_for


async def test_attached_view_mirrors_sessions_output_and_input(served) -> None:
    host, sock = served
    before = await host.call({"tool": "exec", "command": "sleep 60", "background": True}, agent="agent-a")
    remote = await RemoteHost.connect(sock)
    events = []
    remote.subscribe(events.append)
    assert [s.id for s in remote.sessions()] == [before["details"]["sessionId"]]
    assert events[0].kind == "snapshot"

    r = await remote.call({"tool": "exec", "command": "printf '\\033[32mgreen\\033[0m ready\\n'; read x; echo got $x",
                           "pty": True, "background": True})
    sid = r["details"]["sessionId"]
    mirrored = await wait_for(lambda: remote.session(sid))
    assert mirrored.pty and mirrored.running and mirrored.agent is None
    assert [s.id for s in remote.sessions()][0] == sid  # newest first

    changed = []
    stop = mirrored.add_raw_listener(lambda: changed.append(1))
    await wait_for(lambda: b"\x1b[32mgreen" in mirrored.raw.read(0)[1], what="raw bytes")
    await wait_for(lambda: "ready" in mirrored.output.full_text(), what="output text")
    await remote.send_input(sid, b"yes\r", "operator", "type")
    await wait_for(lambda: not mirrored.running, what="session to finish")
    await wait_for(lambda: "got yes" in mirrored.output.full_text(), what="answer in output")
    await wait_for(lambda: [i.source for i in mirrored.inputs] == ["operator"], what="input record")
    assert mirrored.exit.code == 0 and changed
    stop()

    await remote.close()
    assert host.session(before["details"]["sessionId"]).running  # detaching ends nothing


async def test_removed_sessions_leave_the_mirror(served) -> None:
    host, sock = served
    remote = await RemoteHost.connect(sock)
    r = await host.call({"tool": "exec", "command": "sleep 60", "background": True}, agent="a")
    sid = r["details"]["sessionId"]
    await wait_for(lambda: remote.session(sid))
    await host.call({"tool": "process", "action": "remove", "sessionId": sid}, agent="a")
    await wait_for(lambda: remote.session(sid) is None, what="removal")
    await remote.close()
