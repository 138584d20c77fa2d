"""The desktop hook on a real D-Bus session bus (``dbus-daemon --session``) with a small notification
listener on it; ``notify-send`` (libnotify, a client of its own) talks to the same listener, so the listener
is checked against another implementation than ours."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.core.attention import MEMBER, METHOD_CALL, Bus, DBusError, read_message

from ...support.notifying import PROMPT, notifying
from ...support.sessions import start_background
from ...support.waiting import wait_for

pytestmark = pytest.mark.skipif(shutil.which("dbus-daemon") is None,
                                reason="dbus-daemon is not installed (Debian package dbus-daemon; .ci/run installs it)")

NAME = "org.freedesktop.Notifications"


class Listener:
    """Owns org.freedesktop.Notifications on the bus and keeps each Notify call's arguments."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.notes: list[list[Any]] = []

    async def serve(self) -> None:
        while True:
            try:
                message = await read_message(self.bus.reader)
            except DBusError:
                return
            if message.kind != METHOD_CALL:
                continue
            member = message.fields.get(MEMBER)
            if member == "Notify":
                self.notes.append(message.body)
                self.bus.reply(message, "u", [len(self.notes)])
            elif member == "GetServerInformation":
                self.bus.reply(message, "ssss", ["test-listener", "openclaw-tui tests", "1", "1.2"])
            elif member == "GetCapabilities":
                self.bus.reply(message, "as", [["body"]])
            else:
                self.bus.reply(message)


@pytest.fixture
async def session_bus(sock_dir: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Listener]:
    address = f"unix:path={sock_dir / 'bus'}"  # a socket: short whatever --basetemp is
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={address}", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert daemon.stdout is not None
        printed = await asyncio.to_thread(daemon.stdout.readline)
        assert printed.startswith("unix:path="), daemon.stderr.read() if daemon.stderr else printed
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", printed.strip())
        bus = await Bus.connect(str(sock_dir / "bus"))
        (owner,) = await bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "RequestName", "su", [NAME, 4])
        assert owner == 1, "the listener must own the name"
        listener = Listener(bus)
        serving = asyncio.ensure_future(listener.serve())
        yield listener
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
        bus.close()
    finally:
        daemon.terminate()
        await asyncio.to_thread(daemon.wait, 10)


async def test_a_waiting_session_reaches_the_desktop_over_dbus(session_bus: Listener) -> None:
    async with notifying(desktop=True) as (host, heard):
        sid = await start_background(host.call, PROMPT, pty=True, agent="main")
        await wait_for(lambda: session_bus.notes, 30, "the Notify call")
        app, replaces, icon, summary, body, actions, hints, timeout = session_bus.notes[0]
        assert (app, replaces, summary, actions, timeout) == ("openclaw-tui", 0, "openclaw: main/read", [], -1)
        assert body == f"{sid} (read, main) waits for input: Overwrite existing config? [y/N]"
        assert hints == {"urgency": ("y", 1)}
        await wait_for(lambda: host.attention.recent, 30, "the delivery's outcome")  # once the answer is read
        assert host.attention.recent[-1].ok and host.attention.recent[-1].detail == "notification 1"


@pytest.mark.skipif(shutil.which("notify-send") is None,
                    reason="notify-send is not installed (Debian package libnotify-bin; .ci/run installs it)")
async def test_the_readmes_notify_send_command_reaches_the_same_listener(session_bus: Listener) -> None:
    async with notifying(command="notify-send 'openclaw: {agent}/{name}' '{prompt}'") as (host, heard):
        await start_background(host.call, PROMPT, pty=True, agent="main")
        await wait_for(lambda: session_bus.notes, 30, "notify-send's Notify call")
        note = session_bus.notes[0]
        assert (note[3], note[4]) == ("openclaw: main/read", "Overwrite existing config? [y/N]")


async def test_without_a_session_bus_the_desktop_hook_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    async with notifying(desktop=True) as (host, heard):
        await start_background(host.call, "exit 3", agent="main")
        await wait_for(lambda: host.attention.recent, 30, "the outcome")
        outcome = host.attention.recent[-1]
        assert not outcome.ok and outcome.detail.startswith("no session bus")
