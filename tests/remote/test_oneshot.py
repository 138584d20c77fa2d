"""The blocking client (``remote/wire/oneshot.py``) over a real socket: what ``--version`` and ``serve --reexec``
say when the host answers, drops them or is not there, and what the client itself returns and raises.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.version import __version__
from openclaw_tui.remote.wire import oneshot

from ..support.scriptedhost import Peer, ScriptedHost, closes, drops, greets, hello_of


async def command(sock: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "openclaw_tui", *args], text=True, capture_output=True, timeout=90,
        env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}, check=False)


async def test_version_names_the_hosts_version_pid_and_re_execs(sock) -> None:
    async with ScriptedHost(sock, [greets("h1", generation=2)]):
        done = await command(sock, "--version")
    assert done.stdout == (f"openclaw-tui {__version__} (this command)\n"
                           f"serving: openclaw-tui 0 (pid 1, re-executed 2 times) on {sock}\n")


async def test_version_with_a_host_that_closes_unanswered_says_no_host(sock) -> None:
    async with ScriptedHost(sock, [closes]):
        done = await command(sock, "--version")
    assert done.returncode == 0 and done.stdout.endswith(f"serving: no host on {sock}\n"), done


async def test_reexec_of_a_host_that_closes_unanswered_is_one_line_and_status_1(sock) -> None:
    async with ScriptedHost(sock, [closes]):
        done = await command(sock, "serve", "--reexec")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "openclaw-tui: the host closed the connection before answering; nothing to re-execute\n"


async def test_reexec_with_no_host_is_one_line_and_status_1(sock_dir) -> None:
    sock = sock_dir / "nobody" / "host.sock"
    done = await command(sock, "serve", "--reexec")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"openclaw-tui: no openclaw-tui host is running on {sock}; nothing to re-execute\n"


async def chatters(peer: Peer) -> None:
    """Answers both requests, the second first, with a notification and a line that is not JSON among them."""
    hello, call = await peer.read(), await peer.read()
    peer.send({"method": "raw", "params": {"sessionId": "s1", "offset": 0, "data": ""}})
    peer.writer.write(b"not json\n")
    peer.answer(call, {"text": "ok", "details": {"status": "completed"}})
    peer.send({"id": None, "error": {"code": -32700, "message": "parse error"}})
    peer.answer(hello, hello_of("h1"))


REQUESTS = [("hello", {"client": "test"}), ("call", {"call": {"tool": "process", "action": "list"}, "agent": None})]


async def test_exchange_returns_the_answers_in_order_passing_over_everything_else(sock) -> None:
    async with ScriptedHost(sock, [chatters]):
        hello, result = await asyncio.to_thread(oneshot.exchange, sock, REQUESTS, 30)
    assert hello["hostId"] == "h1" and result["text"] == "ok"


async def test_a_host_that_drops_the_call_is_dropped_with_the_hello_it_gave_first(sock) -> None:
    async with ScriptedHost(sock, [drops("h7")]):
        with pytest.raises(oneshot.Dropped) as lost:
            await asyncio.to_thread(oneshot.exchange, sock, REQUESTS, 30)
    assert str(lost.value) == "the host closed the connection before answering"
    assert lost.value.answered == {1: hello_of("h7")}


async def test_same_host_is_the_hello_of_the_same_host_only(sock) -> None:
    before = hello_of("h1")
    async with ScriptedHost(sock, [greets("h1", 1), greets("h2"), closes]):
        assert (await asyncio.to_thread(oneshot.same_host, sock, before, "test"))["generation"] == 1
        assert await asyncio.to_thread(oneshot.same_host, sock, before, "test") is None  # another host
        assert await asyncio.to_thread(oneshot.same_host, sock, before, "test") is None  # none answers


def test_a_socket_nobody_listens_on_is_not_running(sock_dir) -> None:
    path = sock_dir / "host.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as bound:
        bound.bind(str(path))  # bound, never listening: connecting is refused, as after a host died
        with pytest.raises(oneshot.NotRunning, match=f"^no openclaw-tui host is running on {re.escape(str(path))}$"):
            oneshot.hello(path, "test")


def test_a_socket_path_too_long_is_unreachable_naming_the_limit(tmp_path) -> None:
    path = tmp_path / ("d" * 120) / "host.sock"
    with pytest.raises(oneshot.HostUnreachable, match="at most") as no:
        oneshot.hello(path, "test")
    assert not isinstance(no.value, oneshot.NotRunning)
