"""The session journal on real files: what goes in comes back, within its bounds, whatever the batching.

The oracle for retained output is the live session's own buffers (``core.buffers.Output``, ``RawRing``),
fed the same calls; a journal that compacts often is compared with one that never does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from openclaw_tui.core.journal import Caps, Journal, Limits, Recovered
from openclaw_tui.core.session.buffers import Output
from openclaw_tui.core.session.rawring import RawRing

SMALL = Caps(head_chars=50, tail_chars=200, raw_bytes=300, inputs=5)


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[list[Journal]]:
    """Journals a test opens; all closed at the end."""
    journals: list[Journal] = []
    yield journals
    for j in journals:
        j.close()


def open_in(opened: list[Journal], path: Path, **limits: object) -> Journal:
    journal = Journal.open(path, Limits(**limits))  # type: ignore[arg-type]
    opened.append(journal)
    return journal


def reopen(opened: list[Journal], path: Path, journal: Journal) -> Recovered:
    """Close ``journal`` and load the directory in a new one, as the next host start does."""
    journal.close()
    return open_in(opened, path).load()


def files(path: Path) -> dict[str, int]:
    """Each session file's size; a compaction's ``.tmp`` renamed away between the listing and its stat (the
    journal's thread writes while the test looks) is not counted."""
    sizes = {}
    for p in (path / "journal" / "sessions").iterdir():
        try:
            sizes[p.name] = p.stat().st_size
        except FileNotFoundError:
            continue
    return sizes


def test_a_session_comes_back_whole_in_the_next_journal(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    j.issued("brisk-atlas")
    sj = j.session("brisk-atlas", SMALL)
    sj.meta({"id": "brisk-atlas", "command": "make", "pty": True, "settings": {"ttlMs": 60000}})
    sj.output("stdout", "compiling\n")
    sj.output("stderr", "warning: x\n")
    sj.raw(0, b"\x1b[1mcompiling\x1b[0m\r\n")
    sj.size(0, 120, 30)
    sj.size(10, 80, 24)
    sj.input({"at": 1.5, "source": "main", "action": "write", "preview": "y", "bytes": 2})
    sj.exit({"exitCode": 2, "exitSignal": None, "timedOut": False})
    found = reopen(opened, tmp_path, j)
    s = found.sessions["brisk-atlas"]
    assert found.issued == ["brisk-atlas"] and found.problems == []
    assert s.meta["settings"] == {"ttlMs": 60000} and s.caps == SMALL
    assert s.output.head == "compiling\nwarning: x\n"
    assert s.output.tail == [("stdout", "compiling\n"), ("stderr", "warning: x\n")]
    assert (s.raw_start, s.raw) == (0, b"\x1b[1mcompiling\x1b[0m\r\n")
    assert s.sizes == [(0, 120, 30, 0, None), (10, 80, 24, 0, None)]  # no time nor resizer given
    assert s.inputs == [{"at": 1.5, "source": "main", "action": "write", "preview": "y", "bytes": 2}]
    assert s.exit == {"exitCode": 2, "exitSignal": None, "timedOut": False} and s.ended_at is not None


def test_a_session_that_never_ended_comes_back_with_no_exit(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    j.session("calm-otter").output("stdout", "still going\n")
    s = reopen(opened, tmp_path, j).sessions["calm-otter"]
    assert s.exit is None and s.output.tail_text() == "still going\n"


# Calls a session makes: output on either stream, a skip, raw bytes; "flush" ends a batch.
CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("output"), st.sampled_from(["stdout", "stderr"]), st.text(max_size=120)),
        st.tuples(st.just("skip"), st.integers(0, 400)),
        st.tuples(st.just("raw"), st.binary(min_size=1, max_size=160)),
        st.tuples(st.just("flush")),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=CALLS, compact_often=st.booleans())
def test_recovered_output_is_what_the_sessions_own_buffers_hold(tmp_path_factory, calls, compact_often) -> None:
    path = tmp_path_factory.mktemp("j")
    limits = Limits(session_bytes=4096 if compact_often else 1 << 22, write_rate=0)
    journal = Journal.open(path, limits)
    try:
        sj = journal.session("s", SMALL)
        sj.meta({"id": "s"})
        out = Output(SMALL.tail_chars, SMALL.tail_chars, head_max=SMALL.head_chars)
        ring = RawRing(SMALL.raw_bytes)
        for call in calls:
            if call[0] == "output":
                out.append(call[1], call[2])
                sj.output(call[1], call[2])
            elif call[0] == "skip":
                out.skip(call[1])
                sj.skip(call[1])
            elif call[0] == "raw":
                sj.raw(ring.end, call[1])
                ring.append(call[1])
            else:
                assert journal.flush()
        journal.close()
        reader = Journal.open(path)
        s = reader.load().sessions["s"]
        reader.close()
    finally:
        journal.close()
    assert s.output.head == out.head
    assert s.output.tail_text() == out.tail.text()
    assert s.output.total_chars == out.total_chars and s.output.dropped_chars == out.gap()
    assert (s.raw_start, s.raw) == ring.read(ring.start)


def _busy_session(journal: Journal, sid: str) -> None:
    """Every kind of record, enough of them to compact a 32 KB file many times."""
    sj = journal.session(sid, Caps(head_chars=100, tail_chars=1000, raw_bytes=4000, inputs=20))
    offset = 0
    for i in range(3000):
        if i % 500 == 0:
            sj.meta({"id": sid, "round": i})
        sj.output("stderr" if i % 7 == 0 else "stdout", f"line {i:05d}\n")
        data = f"\x1b[32mline {i:05d}\x1b[0m\r\n".encode()
        sj.raw(offset, data)
        offset += len(data)
        if i % 40 == 0:
            sj.size(offset, 80 + i % 9, 24)
        if i % 30 == 0:
            sj.input({"at": i, "source": "main", "action": "type", "preview": str(i), "bytes": 1},
                     replace_last=i % 60 == 0)
        if i % 100 == 0:
            assert journal.flush()
    sj.exit({"exitCode": 0})


def test_compaction_keeps_head_tail_raw_sizes_inputs_and_exit(opened, tmp_path) -> None:
    whole = open_in(opened, tmp_path / "whole", write_rate=0)
    compacted = open_in(opened, tmp_path / "compacted", session_bytes=32 << 10, write_rate=0)
    _busy_session(whole, "brisk-atlas")
    _busy_session(compacted, "brisk-atlas")
    assert whole.flush() and compacted.flush()
    assert whole.stats["compactions"] == 0 and compacted.stats["compactions"] >= 3
    assert max(files(tmp_path / "compacted").values()) <= 32 << 10
    a = reopen(opened, tmp_path / "whole", whole).sessions["brisk-atlas"]
    b = reopen(opened, tmp_path / "compacted", compacted).sessions["brisk-atlas"]
    assert a.output.tail_text().endswith("line 02999\n") and len(a.inputs) == 20 and a.meta["round"] == 2500
    assert (a.output, a.raw_start, a.raw, a.sizes, a.inputs, a.exit, a.meta) == (
        b.output, b.raw_start, b.raw, b.sizes, b.inputs, b.exit, b.meta)


def test_a_session_writing_a_record_a_line_is_compacted_by_record_count(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path, session_records=100, write_rate=0)
    sj = j.session("slow-mole", Caps(tail_chars=1000))
    for n in range(1000):
        sj.output("stdout", f"{n:08d}\n")
        assert j.flush()
    assert j.stats["compactions"] >= 9
    s = reopen(opened, tmp_path, j).sessions["slow-mole"]
    everything = "".join(f"{n:08d}\n" for n in range(1000))
    assert s.output.total_chars == 9000 and s.output.tail_text() == everything[-1000:]
    assert s.output.head == everything[:4000]


LINES = "".join(f"{n:07d} the quick brown fox jumps over the lazy dog\n" for n in range(64))


def _flood(journal: Journal, path: Path, mb: int, rate: float = 0.0, drain_each_mb: bool = False) -> int:
    """``mb`` MB through one session's raw and text calls, paced at ``rate`` MB/s (0: as fast as the calls
    go); returns the largest file size seen. ``drain_each_mb``: wait for the writer after every MB, so what
    it writes does not depend on how often a loaded machine lets its thread run."""
    sj = journal.session("loud-hawk")
    data, offset, biggest, start = LINES.encode(), 0, 0, time.monotonic()
    while offset < mb << 20:
        sj.raw(offset, data)
        sj.output("stdout", LINES)
        offset += len(data)
        if offset % (1 << 20) < len(data):
            if drain_each_mb:
                assert journal.flush()
            biggest = max(biggest, *files(path).values(), 0)
            if rate:
                time.sleep(max(0.0, start + offset / (rate * (1 << 20)) - time.monotonic()))
    assert journal.flush()
    return max(biggest, *files(path).values())


def test_a_100_mb_flood_writes_a_few_mb_and_keeps_the_tail(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)  # default limits: 4 MB a session, writes held to 4 MB/s (the flood's 1/12)
    before = _wchar()
    biggest = _flood(j, tmp_path, 100, rate=50)  # a PTY's pace: about 2 s
    written = _wchar() - before
    assert written < 16 << 20, f"a 100 MB flood wrote {written} bytes"
    assert biggest <= 4 << 20
    s = reopen(opened, tmp_path, j).sessions["loud-hawk"]
    assert s.output.total_chars == s.raw_end == (100 << 20) // len(LINES) * len(LINES) + len(LINES)
    assert s.output.lost_chars == s.raw_lost == 0, "coalesced, not dropped"
    assert s.output.tail_text().endswith(LINES) and s.raw.endswith(LINES.encode())


def test_an_unthrottled_flood_is_compacted_within_the_session_bound(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path, flush_interval=0.002, write_rate=0)
    biggest = _flood(j, tmp_path, 100, drain_each_mb=True)
    assert j.stats["compactions"] > 0 and biggest <= 4 << 20
    s = reopen(opened, tmp_path, j).sessions["loud-hawk"]
    assert s.output.tail_text().endswith(LINES) and len(s.raw) == 1 << 20


def _wchar() -> int:
    with open("/proc/self/io") as fh:
        return next(int(v) for k, v in (ln.split(":") for ln in fh) if k == "wchar")


def test_the_total_bound_evicts_the_oldest_finished_never_a_running_one(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path, total_bytes=100_000, write_rate=0)
    j.session("running-early").output("stdout", "x" * 20_000)
    for n in range(8):
        sj = j.session(f"done-{n}")
        sj.output("stdout", "y" * 20_000)
        sj.exit({"exitCode": 0})
        assert j.flush()
    left = files(tmp_path)
    assert sum(left.values()) <= 100_000
    assert "running-early.jnl" in left and "done-7.jnl" in left
    assert "done-0.jnl" not in left and j.stats["evictions"] >= 4
    kept = sorted(int(name[5]) for name in left if name.startswith("done-"))
    assert kept == list(range(kept[0], 8)), "the newest finished are the ones kept"


def test_the_most_recently_finished_keeps_its_record_even_over_the_total(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path, total_bytes=1000, write_rate=0)
    for n in range(3):
        sj = j.session(f"done-{n}")
        sj.output("stdout", "z" * 5000)
        sj.exit({"exitCode": n})
        assert j.flush()
    assert list(files(tmp_path)) == ["done-2.jnl"]
    assert reopen(opened, tmp_path, j).sessions["done-2"].exit == {"exitCode": 2}


def test_issued_ids_outlive_the_journal_and_their_sessions(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    ids = [f"id-{n}" for n in range(1000)]
    for sid in ids:
        j.issued(sid)
    j.session("id-5").exit({"exitCode": 0})
    j.forget("id-7")
    found = reopen(opened, tmp_path, j)
    assert sorted(found.issued) == sorted(ids) and set(found.sessions) == {"id-5"}
    os.unlink(tmp_path / "journal" / "issued.jnl")  # lost: the session files still name their ids
    found = reopen(opened, tmp_path, opened[-1])
    assert found.issued == ["id-5"]


def test_forget_deletes_the_record_and_later_calls_do_nothing(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    sj = j.session("gone-fox")
    sj.output("stdout", "hello\n")
    assert j.flush() and "gone-fox.jnl" in files(tmp_path)
    j.forget("gone-fox")
    sj.output("stdout", "more\n")
    assert j.flush() and files(tmp_path) == {}


def test_a_writer_far_behind_drops_output_and_says_so(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path, flush_interval=30.0, buffer_bytes=10_000)
    sj = j.session("fast-lynx", Caps(tail_chars=100_000))
    j.flush()  # the writer now waits out its interval while output piles up
    sj.raw(0, b"r" * 20_000)
    for n in range(3000):
        sj.output("stdout", f"{n:05d}\n")
    s = reopen(opened, tmp_path, j).sessions["fast-lynx"]
    assert j.stats["lost_chars"] > 0 and s.output.lost_chars == j.stats["lost_chars"]
    assert s.output.total_chars == 18_000 and s.raw_lost == 20_000
    tail = s.output.tail_text().split()
    assert tail == [f"{n:05d}" for n in range(int(tail[0]), 3000)], "what is kept is one contiguous tail"


def test_values_json_cannot_hold_never_reach_the_caller_as_errors(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    sj = j.session("odd-owl")
    sj.meta({"id": "odd-owl", "cwd": Path("/tmp"), "lone": "\udce9"})
    cycle: list[object] = []
    cycle.append(cycle)
    sj.input({"preview": cycle})
    sj.exit({"exitSignal": "\udce9"})
    s = reopen(opened, tmp_path, j).sessions["odd-owl"]
    assert s.meta == {"id": "odd-owl", "cwd": "/tmp", "lone": "\udce9"} and s.exit == {"exitSignal": "\udce9"}
    assert s.inputs == [{"unrecordable": "Circular reference detected"}]


def test_ids_that_are_not_slugs_never_name_a_path(opened, tmp_path) -> None:
    j = open_in(opened, tmp_path)
    j.session("../../etc/x").exit({"exitCode": 0})
    assert j.flush()
    assert [n.startswith("x-") for n in files(tmp_path)] == [True]
    assert "../../etc/x" in reopen(opened, tmp_path, j).sessions


def test_a_second_journal_on_the_same_directory_is_refused(opened, tmp_path) -> None:
    open_in(opened, tmp_path)
    second = open_in(opened, tmp_path)
    assert not second.writing and f"in use by another host (pid {os.getpid()})" in (second.problem or "")
    assert second.load().sessions == {}


def test_a_disabled_journal_keeps_nothing(tmp_path) -> None:
    j = Journal.disabled()
    j.issued("a-b")
    j.session("a-b").output("stdout", "x")
    assert not j.flush() and j.problem is None and j.load().sessions == {}
    j.close()
