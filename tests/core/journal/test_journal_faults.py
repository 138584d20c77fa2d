"""The journal against real faults: a host SIGKILLed mid-write, files cut or damaged, a full disk, a
read-only or vanished state directory. Whatever happens, every complete record before the damage is
read back, nothing raises into the host, and ``problem`` says what went wrong in one line."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from openclaw_tui.core.journal import Journal, Limits, Recovered

from ...support.smalldisk import small_disk

CHILD = Path(__file__).with_name("journalchild.py")
SESSIONS = Path("journal", "sessions")


def numbered(text: str) -> list[int]:
    """The line numbers of ``%08d`` lines, checked to be one contiguous run."""
    got = [int(line) for line in text.split()]
    assert got == list(range(got[0], got[0] + len(got))), "lines are missing in the middle"
    return got


@pytest.mark.parametrize("durable_lines", [1, 5, 20])
def test_a_host_killed_mid_write_loses_no_record_it_had_written(tmp_path, durable_lines) -> None:
    proc = subprocess.Popen([sys.executable, str(CHILD), str(tmp_path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline() == "EXITED\n"
        seen = [proc.stdout.readline() for _ in range(durable_lines)]
    finally:
        proc.kill()  # SIGKILL: no flush, no close, the writer stopped wherever it was
        seen += proc.communicate()[0].splitlines()
    _recovered_after_crash(tmp_path, seen)


def test_a_host_killed_inside_a_record_loses_only_that_record(tmp_path) -> None:
    limit = 100_003  # the kernel ends the child (SIGXFSZ) in the write that crosses this size
    proc = subprocess.run([sys.executable, str(CHILD), str(tmp_path), str(limit)], stdout=subprocess.PIPE,
                          text=True, timeout=60, check=False)
    assert proc.returncode == -signal.SIGXFSZ
    torn = tmp_path / SESSIONS / "loud-hawk.jnl"
    assert torn.stat().st_size == limit
    _recovered_after_crash(tmp_path, proc.stdout.splitlines()[1:])
    assert torn.stat().st_size < limit, "the torn record was cut off"


def _recovered_after_crash(state: Path, reports: list[str]) -> None:
    """What the child said was written is all back, and nothing is missing in the middle."""
    durable = max(int(line.split()[1]) for line in reports)
    journal = Journal.open(state)
    try:
        found = journal.load()
    finally:
        journal.close()
    assert found.problems == [] and journal.problem is None  # a torn last record is expected, not damage
    done, loud = found.sessions["done-crane"], found.sessions["loud-hawk"]
    assert done.exit == {"exitCode": 0} and done.output.tail_text() == "all good\n" and len(done.inputs) == 1
    assert loud.exit is None, "it was running when its host died"
    lines = numbered(loud.output.tail_text())
    assert lines[-1] >= durable and loud.output.total_chars == 9 * (lines[-1] + 1)
    raw = numbered(loud.raw.decode())
    assert raw[-1] >= durable and loud.raw_end == 9 * (raw[-1] + 1)
    assert sorted(found.issued) == ["done-crane", "loud-hawk"]
    assert not [p for p in (state / SESSIONS).iterdir() if p.suffix != ".jnl"], "no compaction left behind"


def _lines_journal(path: Path, count: int) -> list[int]:
    """A session of ``count`` one-line records; returns where each record ends in its file, computed from
    the format (a 9-byte header, then the stream name's length, the name and the text)."""
    journal = Journal.open(path)
    sj = journal.session("cut-fern")
    sj.meta({"id": "cut-fern"})
    assert journal.flush()
    ends = [(path / SESSIONS / "cut-fern.jnl").stat().st_size]
    for n in range(count):
        sj.output("stdout", f"{n:08d}\n")
        assert journal.flush()
        ends.append(ends[-1] + 9 + 1 + len("stdout") + 9)
    journal.close()
    assert (path / SESSIONS / "cut-fern.jnl").stat().st_size == ends[-1]
    return ends


def test_a_file_cut_anywhere_keeps_every_whole_record_before_the_cut(tmp_path) -> None:
    ends = _lines_journal(tmp_path / "orig", 12)
    whole = (tmp_path / "orig" / SESSIONS / "cut-fern.jnl").read_bytes()
    for cut in range(ends[0], len(whole)):
        state = tmp_path / f"cut{cut}"
        (state / SESSIONS).mkdir(parents=True)
        (state / SESSIONS / "cut-fern.jnl").write_bytes(whole[:cut])
        journal = Journal.open(state)
        found = journal.load()
        kept = sum(1 for end in ends[1:] if end <= cut)
        assert found.problems == [], cut
        assert found.sessions["cut-fern"].output.tail_text() == "".join(f"{n:08d}\n" for n in range(kept))
        assert (state / SESSIONS / "cut-fern.jnl").stat().st_size == ends[kept], "cut back to the last record"
        journal.session("cut-fern").exit({"exitCode": 1})  # and the repaired file takes new records
        journal.close()
        journal = Journal.open(state)
        again = journal.load().sessions["cut-fern"]
        journal.close()
        assert again.exit == {"exitCode": 1} and again.output.total_chars == 9 * kept
        shutil.rmtree(state)


def _load(state: Path) -> tuple[Recovered, str | None]:
    journal = Journal.open(state)
    found = journal.load()
    journal.close()
    return found, journal.problem


def test_garbage_after_the_records_is_cut_off_and_reported(tmp_path) -> None:
    _lines_journal(tmp_path, 5)
    with open(tmp_path / SESSIONS / "cut-fern.jnl", "ab") as fh:
        fh.write(b"garbage! " * 20)
    found, problem = _load(tmp_path)
    assert found.sessions["cut-fern"].output.total_chars == 45
    assert found.problems == [problem] and "cut-fern.jnl: 180 bytes after offset" in (problem or "")
    assert _load(tmp_path)[1] is None, "reported once: the file is clean now"


def test_a_damaged_record_keeps_the_ones_before_it(tmp_path) -> None:
    ends = _lines_journal(tmp_path, 6)
    path = tmp_path / SESSIONS / "cut-fern.jnl"
    data = bytearray(path.read_bytes())
    data[ends[3] + 12] ^= 0x40  # a bit flipped inside the fourth line's record
    path.write_bytes(bytes(data))
    found, problem = _load(tmp_path)
    assert found.sessions["cut-fern"].output.tail_text() == "".join(f"{n:08d}\n" for n in range(3))
    assert "cut-fern.jnl" in (problem or "") and "not valid records" in (problem or "")


def test_a_zero_filled_tail_reads_as_a_torn_record_not_damage(tmp_path) -> None:
    _lines_journal(tmp_path, 3)
    with open(tmp_path / SESSIONS / "cut-fern.jnl", "ab") as fh:
        fh.write(b"\0" * 5000)
    found, problem = _load(tmp_path)
    assert problem is None and found.sessions["cut-fern"].output.total_chars == 27


def test_a_file_that_is_not_a_journal_is_set_aside_and_the_rest_load(tmp_path) -> None:
    _lines_journal(tmp_path, 2)
    (tmp_path / SESSIONS / "wild-yak.jnl").write_bytes(os.urandom(3000))
    (tmp_path / SESSIONS / "torn-elm.jnl").write_bytes(b"OCTJ")  # crashed while writing its first bytes
    found, problem = _load(tmp_path)
    assert set(found.sessions) == {"cut-fern"}
    assert problem == "journal file wild-yak.jnl is not a readable journal; set aside as wild-yak.jnl.corrupt"
    assert sorted(p.name for p in (tmp_path / SESSIONS).iterdir()) == ["cut-fern.jnl", "wild-yak.jnl.corrupt"]


@pytest.fixture(name="small_disk")
def small_disk_fixture(tmp_path: Path) -> Iterator[Path]:
    """A 256 KB tmpfs of our own."""
    with small_disk(tmp_path, "256k") as mount:
        yield mount


def test_a_full_disk_degrades_the_journal_and_keeps_what_was_written(small_disk) -> None:
    state = small_disk / "state"
    journal = Journal.open(state, Limits(flush_interval=0.005, write_rate=0))
    done = journal.session("done-crane")
    done.output("stdout", "finished before the disk filled\n")
    done.exit({"exitCode": 0})
    assert journal.flush()
    _fill(small_disk / "filler")
    loud = journal.session("loud-hawk")
    n = 0
    while journal.writing and n < 1_000_000:
        loud.output("stdout", "".join(f"{i:08d}\n" for i in range(n, n + 50)))
        n += 50
        journal.flush()
    assert journal.problem is not None and "No space left on device" in journal.problem
    loud.output("stdout", "after\n")  # the host goes on: every call is harmless now
    loud.exit({"exitCode": 0})
    journal.issued("new-id")
    journal.forget("done-crane")
    assert not journal.flush()
    journal.close()
    found, problem = _load(state)
    assert problem is None and found.sessions["done-crane"].exit == {"exitCode": 0}
    lines = numbered(found.sessions["loud-hawk"].output.tail_text())
    assert found.sessions["loud-hawk"].exit is None and lines[-1] < n


def _fill(path: Path) -> None:
    """Take every free byte of the file system but a few KB."""
    with open(path, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"x" * 4096)
        except OSError:
            pass
    os.truncate(path, path.stat().st_size - (8 << 10))


def test_a_read_only_state_directory_leaves_the_journal_off(small_disk) -> None:
    state = small_disk / "state"
    journal = Journal.open(state)
    journal.session("old-elk").exit({"exitCode": 0})
    journal.close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    journal = Journal.open(state)
    assert not journal.writing and "Read-only file system" in (journal.problem or "")
    journal.session("new-elk").output("stdout", "kept in memory\n")
    assert journal.load().sessions == {} and not journal.flush()
    journal.close()


def test_a_state_directory_that_is_a_file_leaves_the_journal_off(tmp_path) -> None:
    (tmp_path / "state").write_text("not a directory")
    journal = Journal.open(tmp_path / "state")
    assert journal.problem == f"journal off: cannot use state directory {tmp_path}/state/journal: Not a directory"
    journal.session("a-b").exit({"exitCode": 0})
    journal.close()


def test_a_state_directory_the_os_cannot_name_leaves_the_journal_off(tmp_path) -> None:
    journal = Journal.open(f"{tmp_path}/bad\0name")
    assert not journal.writing and "embedded null byte" in (journal.problem or "")


def test_a_state_directory_removed_under_the_journal_stops_it(tmp_path) -> None:
    journal = Journal.open(tmp_path / "state", Limits(flush_interval=0.005))
    sj = journal.session("lost-ray")
    sj.output("stdout", "first\n")
    assert journal.flush()
    shutil.rmtree(tmp_path / "state")
    sj.output("stdout", "second\n")
    assert not journal.flush()
    assert "the state directory disappeared" in (journal.problem or "")
    assert not (tmp_path / "state").exists(), "nothing written where no one will read it"
    journal.close()
