"""The re-exec retry policy ``openclaw-tui call`` and the MCP server share: which calls are sent again, how
many re-execs in a row they ride through, and the words when they give up (``remote/wire/retry.py``).
The same policy seen through the clients' sockets: ``test_call_ride.py`` and the MCP test here."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.remote.mcp.mcp_server import McpBridge
from openclaw_tui.remote.wire import RideThrough

from ..support.scriptedhost import Peer, ScriptedHost, hello_of

RESTARTED = ("the openclaw-tui host restarted (re-executed itself in place, keeping its sessions) while this call "
             "ran, so its outcome is unknown; check with list/poll before retrying")
READS = ["list", "poll", "log", "screen"]
RUNS = ["write", "send-keys", "submit", "paste", "kill", "clear", "remove"]


@pytest.mark.parametrize("action", READS)
def test_a_read_rides_through_three_re_execs_in_a_row_and_not_a_fourth(action) -> None:
    ride = RideThrough({"tool": "process", "action": action, "sessionId": "s1"})
    assert [ride.restarted() for _ in range(4)] == [
        None, None, None, "the openclaw-tui host restarted 4 times while this call ran; it was not answered"]


@pytest.mark.parametrize("call", [{"tool": "exec", "command": "make"}]
                         + [{"tool": "process", "action": a, "sessionId": "s1"} for a in RUNS])
def test_a_call_that_may_have_run_is_never_sent_again(call) -> None:
    assert RideThrough(call).restarted() == RESTARTED


def test_the_words_name_the_socket_when_the_client_gives_one() -> None:
    path = Path("/run/user/1000/openclaw-tui/host.sock")
    assert RideThrough({"tool": "exec", "command": "make"}, path).restarted() == f"{RESTARTED} (host on {path})"
    ride = RideThrough({"tool": "process", "action": "list"}, path)
    assert [ride.restarted() for _ in range(4)][-1] == (
        f"the host on {path} restarted 4 times while this call ran; it was not answered")


def drops_calls(host_id: str = "h1"):
    """A host that answers every request but a tool call, and closes the connection at a call."""
    async def play(peer: Peer) -> None:
        while (msg := await peer.read()) is not None and msg.get("method") != "call":
            if "id" in msg:
                peer.answer(msg, hello_of(host_id) if msg["method"] == "hello" else {})
    return play


async def bridge_call(sock: Path, plays: list, tool: str, args: dict) -> tuple[dict, ScriptedHost]:
    async with ScriptedHost(sock, plays) as host:
        bridge = McpBridge("main", None, sock)
        try:
            res = await bridge.call(tool, args)
        finally:
            await bridge.close()
    return res, host


async def test_an_mcp_server_sends_a_read_again_through_three_re_execs_and_gives_up_at_the_fourth(sock) -> None:
    res, host = await bridge_call(sock, [drops_calls() for _ in range(5)], "process", {"action": "list"})
    assert res["details"]["failureKind"] == "host-restarted"
    assert res["text"] == "the openclaw-tui host restarted 4 times while this call ran; it was not answered"
    assert host.methods().count("call") == 4 and host.connections == 5


async def test_an_mcp_server_fails_a_run_the_host_restarted_under_without_sending_it_again(sock) -> None:
    res, host = await bridge_call(sock, [drops_calls() for _ in range(3)], "exec", {"command": "make"})
    assert (res["text"], res["details"]["failureKind"]) == (RESTARTED, "host-restarted")
    assert host.methods().count("call") == 1 and host.connections == 2
