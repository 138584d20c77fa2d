"""A flooding PTY is read by a thread of its own, which hands it back to the loop when the flood pauses:
every byte arrives, in order, with times that share a stamp per millisecond, and no thread outlives it."""

from __future__ import annotations

import threading
import time

from ...support.hosts import make_host
from ...support.waiting import wait_for

FLOOD_BYTES = 30_000_000
COMMAND = (f"yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c {FLOOD_BYTES}; echo; echo paused; "
           "read x; echo after-$x; yes tail-end | head -c 2000000; echo; echo the-end")


def expected_bytes() -> int:
    """What the PTY carries for :data:`COMMAND`: each newline as \\r\\n, the typed ``go`` echoed."""
    line, tail = b"0123456789abcdefghijklmnopqrstuvwxyz\n", b"tail-end\n"
    flood = (line * (FLOOD_BYTES // len(line) + 1))[:FLOOD_BYTES]
    rest = (tail * (2_000_000 // len(tail) + 1))[:2_000_000]
    out = flood + b"\npaused\n" + b"go\n" + b"after-go\n" + rest + b"\nthe-end\n"
    return len(out) + out.count(b"\n")


def readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("reader-")]


async def test_a_flood_goes_to_a_reader_thread_and_back_to_the_loop_losing_nothing() -> None:
    async with make_host() as host:
        r = await host.call({"tool": "exec", "command": COMMAND, "pty": True, "background": True}, agent="main")
        session = host.session(r["details"]["sessionId"])
        began = time.monotonic()
        await wait_for(lambda: readers(), 60, "a reader thread taking the flood")
        await wait_for(lambda: "paused" in session.output.tail.text(), 120, "the flood's end")
        flood_s = time.monotonic() - began
        await wait_for(lambda: not readers(), 30, "the thread handing the PTY back after the pause")
        marks = session.raw.times_from(0)
        assert marks and len(marks) <= flood_s * 1000 + 10  # a stamp per millisecond at most
        assert [m.at for m in marks] == sorted(m.at for m in marks)
        session.send(b"go\r", "main", "write")  # read by the loop's own reader again, then a second flood
        await wait_for(session.done.is_set, 120, "the end")
        text = session.output.tail.text().replace("\r", "")
        assert text.endswith("tail-end\ntail-end\nta\nthe-end\n"), text[-200:]
        assert session.raw.end == expected_bytes()  # every byte, in a PTY's \r\n
        assert session.exit.code == 0
    assert readers() == []
