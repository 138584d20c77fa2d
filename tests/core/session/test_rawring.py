"""The raw output ring: bounded, addressed by absolute offset, honest about what it dropped."""

from __future__ import annotations

from openclaw_tui.core.session.rawring import RawRing


def test_ring_keeps_the_newest_bytes_and_absolute_offsets() -> None:
    ring = RawRing(10)
    ring.append(b"0123456")
    ring.append(b"789abc")
    assert (ring.start, ring.end, len(ring)) == (3, 13, 10)
    assert ring.read(0) == (3, b"3456789abc")  # asked for dropped bytes: told where it really starts
    assert ring.read(8) == (8, b"89abc")
    assert ring.read(13) == (13, b"")
    assert ring.read(5, limit=3) == (5, b"567")
    assert ring.tail(4) == (9, b"9abc")


def test_a_write_larger_than_the_ring_keeps_its_end() -> None:
    ring = RawRing(4)
    ring.append(b"abcdefgh")
    assert ring.read(0) == (4, b"efgh") and ring.end == 8


async def test_sessions_keep_a_1_mib_raw_ring_by_default(host) -> None:
    r = await host.call({"tool": "exec", "command": "head -c 3000000 /dev/zero", "background": True}, agent="main")
    s = host.session(r["details"]["sessionId"])
    await s.done.wait()
    assert s.raw.end == 3_000_000 and len(s.raw) == 1 << 20
