"""PTY sizes travel with the raw bytes: an attached dashboard's copy of the ring replays like the host's.

The host records each resize in the session's raw ring at the offset where it happened; a ``raw``
notification carries the size in force where its bytes start and every resize among them (a resize with
no output after it comes as a ``raw`` without data). The mirror's ring must then hold the same bytes and
the same size marks, and a screen rebuilt from either equals the other.
"""

from __future__ import annotations

from openclaw_tui.remote.mirror.remotehost import RemoteHost
from openclaw_tui.terminal import LiveView

from ..support.waiting import wait_for

SIZES = "stty size; while read line; do stty size; done"  # the program's own view of its size, on each Enter


def in_force_from(marks: list, start: int) -> list:
    """The marks a copy starting at ``start`` holds: the one in force there, then every later one (several
    marks at ``start`` itself act as their last one: no byte was drawn between them)."""
    before = [m for m in marks if m.offset <= start]
    return before[-1:] + [m for m in marks if m.offset > start]


async def test_the_mirror_gets_each_resize_where_it_happened(served) -> None:
    host, sock = served
    r = await host.call({"tool": "exec", "command": SIZES, "pty": True, "background": True, "workdir": "/tmp"})
    sid = r["details"]["sessionId"]
    session = host.session(sid)
    remote = await RemoteHost.connect(sock)
    mirrored = await wait_for(lambda: remote.session(sid))
    assert mirrored.pty_size == (120, 30) and mirrored.details()["ptySize"] == {"cols": 120, "rows": 30}
    stop = mirrored.add_raw_listener(lambda: None)
    for cols, rows in [(80, 24), (60, 10), (100, 40)]:
        session.resize(cols, rows)
        session.send(b"\r", "operator", "type")
        await wait_for(lambda c=cols, r=rows: f"{r} {c}" in session.output.full_text(), what=f"{cols}x{rows}")
    await wait_for(lambda: mirrored.raw.end == session.raw.end, what="the mirror to have every byte")
    session.resize(50, 10)  # resizes with no output between them, nor after: they still arrive, in order
    session.resize(70, 20)
    await wait_for(lambda: len(mirrored.raw.marks_from(0)) == len(in_force_from(session.raw.marks_from(0), 0))
                   and mirrored.pty_size == (70, 20), what="the mirror to catch up, last sizes included")
    where = [tuple(m)[:3] for m in in_force_from(session.raw.marks_from(0), 0)]  # a mirror needs no times
    assert [tuple(m)[:3] for m in mirrored.raw.marks_from(0)] == where
    assert [tuple(m)[1:3] for m in session.raw.marks_from(0)][-5:] == [(80, 24), (60, 10), (100, 40), (50, 10),
                                                                       (70, 20)]
    ours, theirs = LiveView(mirrored), LiveView(session)
    assert (ours.screen.cols, ours.screen.rows) == (70, 20)
    assert ours.screen.display() == theirs.screen.display()
    stop()

    late = await RemoteHost.connect(sock)  # subscribes after the resizes: told the size where it starts
    copy = await wait_for(lambda: late.session(sid))
    unsubscribe = copy.add_raw_listener(lambda: None)
    await wait_for(lambda: copy.raw.end == session.raw.end and copy.raw.size == (70, 20), what="the late copy")
    assert LiveView(copy).screen.display() == theirs.screen.display()
    unsubscribe()
    await late.close()
    await remote.close()
    await host.call({"tool": "process", "action": "kill", "sessionId": sid})
