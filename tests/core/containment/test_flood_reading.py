"""A flooding PTY, read on the loop: every byte arrives, in order, with times that share a stamp per
millisecond, input typed after a pause reaches the program, and a second flood follows."""

from __future__ import annotations

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


async def test_a_flood_is_read_whole_in_order_with_a_stamp_per_millisecond_at_most() -> None:
    async with make_host() as host:
        r = await host.call({"tool": "exec", "command": COMMAND, "pty": True, "background": True}, agent="main")
        session = host.session(r["details"]["sessionId"])
        began = time.monotonic()
        await wait_for(lambda: "paused" in session.output.tail.text(), 120, "the flood's end")
        flood_s = time.monotonic() - began
        marks = session.raw.times_from(0)
        assert marks and len(marks) <= flood_s * 1000 + 10  # a stamp per millisecond at most
        assert [m.at for m in marks] == sorted(m.at for m in marks)
        session.send(b"go\r", "main", "write")  # then a second flood
        await wait_for(session.done.is_set, 120, "the end")
        text = session.output.tail.text().replace("\r", "")
        assert text.endswith("tail-end\ntail-end\nta\nthe-end\n"), text[-200:]
        assert session.raw.end == expected_bytes()  # every byte, in a PTY's \r\n
        assert session.exit.code == 0
