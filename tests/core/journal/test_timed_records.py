"""Times in the record: the raw ring's time marks, and the journal's format 2 records that carry them, next to
format 1 files that still load without them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from openclaw_tui.core.journal import Caps, Journal, Limits, records as rec
from openclaw_tui.core.journal.replay import header, snapshot
from openclaw_tui.core.session import RawRing, SizeMark, TimeMark

CAPS = Caps(head_chars=50, tail_chars=200, raw_bytes=300, inputs=5)


@pytest.fixture
def journals(tmp_path: Path) -> Iterator[list[Journal]]:
    opened: list[Journal] = []
    yield opened
    for j in opened:
        j.close()


def reopened(journals: list[Journal], path: Path):  # noqa: ANN201
    """What the next host start finds (every journal opened so far closed first: one host at a time)."""
    for earlier in journals:
        earlier.close()
    j = Journal.open(path, Limits())
    journals.append(j)
    return j.load()


def test_reads_within_one_millisecond_share_a_stamp_and_a_clock_never_runs_backwards() -> None:
    ring = RawRing(100)
    ring.append(b"ab", at=1000)
    ring.append(b"cd", at=1000)  # the same millisecond: no new mark
    ring.append(b"ef", at=1003)
    ring.append(b"gh", at=1001)  # a clock that went back: the bytes keep the newer stamp
    assert ring.times_from(0) == [TimeMark(0, 1000), TimeMark(4, 1003)]
    assert ring.times_from(5) == [TimeMark(5, 1003)]  # the one in force there, moved to the start asked
    assert (ring.time_at(3), ring.time_at(7)) == (1000, 1003)


def test_marks_go_with_the_bytes_the_ring_drops_and_survive_a_copy_and_json() -> None:
    ring = RawRing(4)
    ring.append(b"ab", at=1)
    ring.append(b"cd", at=2)
    ring.append(b"ef", at=3)
    ring.resize(80, 24, at=4)
    assert ring.times_from(ring.start) == [TimeMark(2, 2), TimeMark(4, 3)]
    copy = ring.copy()
    ring.append(b"gh", at=5)
    assert copy.times_from(copy.start) == [TimeMark(2, 2), TimeMark(4, 3)] and copy.end == 6
    back = RawRing.from_json(json.loads(json.dumps(ring.to_json())))
    assert back.times_from(back.start) == ring.times_from(ring.start)
    assert back.marks_from(0) == [SizeMark(6, 80, 24, 4)]
    old = ring.to_json()
    del old["times"]  # a ring written before times were kept
    assert RawRing.from_json(old).times_from(0) == []


def test_times_and_who_resized_come_back_from_the_journal_and_its_compaction(journals, tmp_path) -> None:
    j = Journal.open(tmp_path, Limits())
    journals.append(j)
    sj = j.session("timed-one", CAPS)
    sj.raw(0, b"one\r\n", [TimeMark(0, 5000)])
    sj.size(5, 80, 24, 5100, "operator")
    sj.raw(5, b"two\r\n", [TimeMark(5, 5300)])
    found = reopened(journals, tmp_path).sessions["timed-one"]
    assert found.times == [(0, 5000), (5, 5300)]
    assert found.sizes == [(5, 80, 24, 5100, "operator")]
    path = tmp_path / "journal" / "sessions" / "timed-one.jnl"
    path.write_bytes(snapshot(found))  # what a compaction writes
    again = reopened(journals, tmp_path).sessions["timed-one"]
    assert (again.times, again.sizes, again.raw) == (found.times, found.sizes, found.raw)


def test_a_format_1_journal_still_loads_and_its_sessions_have_no_times(journals, tmp_path) -> None:
    folder = tmp_path / "journal" / "sessions"
    folder.mkdir(parents=True)
    old = (rec.MAGIC + rec.json_record(rec.CAPS, {"id": "old-one", "caps": CAPS.to_json()})
           + rec.raw_record(0, b"hello\r\n") + rec.size_record(0, 120, 30) + rec.size_record(7, 80, 24))
    (folder / "old-one.jnl").write_bytes(old)
    found = reopened(journals, tmp_path).sessions["old-one"]
    assert found.raw == b"hello\r\n" and found.times == []
    assert found.sizes == [(0, 120, 30, 0, None), (7, 80, 24, 0, None)]
    _, caps_payload, _ = rec.scan(header("new-one", CAPS)).records[0]
    assert rec.read_json(caps_payload)["format"] == rec.FORMAT == 2  # what a file written now says it is


def test_a_times_record_of_a_later_layout_is_skipped_and_the_bytes_stay(journals, tmp_path) -> None:
    folder = tmp_path / "journal" / "sessions"
    folder.mkdir(parents=True)
    later = rec.frame(rec.TIMES, bytes([rec.TIMES_VERSION + 1]) + b"whatever it holds")
    (folder / "next-one.jnl").write_bytes(header("next-one", CAPS) + rec.raw_record(0, b"kept") + later)
    found = reopened(journals, tmp_path).sessions["next-one"]
    assert (found.raw, found.times) == (b"kept", [])
