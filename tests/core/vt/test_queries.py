"""Finding terminal queries in PTY output as it arrives, in whatever pieces the reads give."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.session.rawring import RawRing
from openclaw_tui.core.vt.queries import FULL_SCAN, QueryScanner
from openclaw_tui.terminal import LiveView

from ...support.rawsources import ASKER

QUERIES = [b"\x1b[6n", b"\x1b[?6n", b"\x1b[5n", b"\x1b[c", b"\x1b[0c", b"\x1b[>c", b"\x1b[>0c"]


def found_ends(pieces: list[bytes]) -> list[tuple[int, bytes]]:
    """(absolute end offset, query) as the session computes them, feeding ``pieces`` in order."""
    scanner, ring, out = QueryScanner(), RawRing(), []
    for piece in pieces:
        ring.append(piece)
        out += [(ring.end - back, query) for back, query in scanner.feed(piece)]
    return out


@pytest.mark.parametrize("query", QUERIES)
def test_each_query_is_found_with_its_end_offset(query: bytes) -> None:
    assert found_ends([b"abc" + query + b"tail"]) == [(3 + len(query), query)]


def test_lookalikes_are_not_queries() -> None:
    assert found_ends([b"\x1b[?5n \x1b[1;6n \x1b[6m \x1b[2c \x1b[?1c 6n [c"]) == []


def test_a_query_split_at_every_point_is_found_once() -> None:
    stream = b"hello \x1b[?6n and \x1b[c end"
    whole = found_ends([stream])
    assert [q for _, q in whole] == [b"\x1b[?6n", b"\x1b[c"]
    for cut in range(1, len(stream)):
        assert found_ends([stream[:cut], stream[cut:]]) == whole, cut
    assert found_ends([bytes([b]) for b in stream]) == whole


def test_a_query_after_a_found_one_in_the_carry_is_not_reported_twice() -> None:
    assert found_ends([b"\x1b[6n", b"\x1b[6n", b"x"]) == [(4, b"\x1b[6n"), (8, b"\x1b[6n")]


def test_a_flood_is_searched_only_at_its_end() -> None:
    # a program waiting for its answer leaves the query last; earlier ones in a flood chunk are not looked for
    flood = b"\x1b[6n" + b"x" * FULL_SCAN + b"\x1b[5n"
    assert found_ends([flood]) == [(len(flood), b"\x1b[5n")]


# -- answered by the host, with or without views ----------------------------------------------------


@pytest.mark.parametrize("views", [0, 2])
async def test_a_pty_program_gets_one_answer_per_query_whoever_watches(host: ToolHost, views: int) -> None:
    # with no dashboard (an agent's run) the host answers; with two views open (embedded and attached
    # dashboards) the program still gets exactly one answer each, or the next read would show a second one
    r = await host.call({"tool": "exec", "command": f"{sys.executable} -c '{ASKER}'", "pty": True, "background": True},
                        agent="main")
    session = host.session(r["details"]["sessionId"])
    opened = [LiveView(session, 120, 30) for _ in range(views)]
    done = asyncio.ensure_future(session.done.wait())
    deadline = time.monotonic() + 20
    try:
        while not done.done():  # the views keep up as a dashboard's frames would
            assert time.monotonic() < deadline, f"the program still waits: {session.output.full_text()!r}"
            for view in opened:
                view.advance()
            await asyncio.wait([done], timeout=0.01)
    finally:
        done.cancel()
        for view in opened:
            view.close()
    assert session.exit.code == 0
    assert "ESC[1;4R ESC[?62;22c ESC[0n ESC[?1;4;1R" in session.output.full_text()


def test_a_query_inside_a_dcs_string_is_none_and_one_after_it_is_found() -> None:
    # tmux passthrough carries an inner program's bytes in a DCS string: tmux answers none of them
    stream = b"\x1bPtmux;\x1b\x1b[6n\x1b\x1b[c\x1b\\" + b"\x1b[5n"
    assert [q for _, q in found_ends([stream])] == [b"\x1b[5n"]
    for cut in range(1, len(stream)):
        assert [q for _, q in found_ends([stream[:cut], stream[cut:]])] == [b"\x1b[5n"], cut


def test_a_query_with_a_control_inside_is_a_query_as_the_screen_reads_it() -> None:
    assert found_ends([b"\x1b[\x076n", b"\x1b[6\x18n"]) == [(5, b"\x1b[\x076n")]  # CAN aborts the second
