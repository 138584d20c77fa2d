"""What journaling costs, measured side by side in one run.

1. Append throughput: the journal's calls (raw bytes in 4 KiB reads, as a PTY hands them over, and the
   same output as text) with its writer running, against a PTY flood drained by a blocking read loop in
   the same run (PERF P1's limit, ~50-70 MB/s): the ratio says how far the calls outpace a flood, and
   the share says how much of a flooding session's time on the loop they would take.
2. Disk writes per MB of output: a flood at that measured PTY rate through one session; bytes the journal
   wrote (its own count and the kernel's ``wchar``/``write_bytes``), compactions and the largest file seen,
   with the default limits and with the write rate unlimited, and the CPU the writer thread took (which
   the GIL takes from the event loop).
3. Load: sessions filled to their caps (text tail, raw tail, head, inputs, exit), loaded by a new journal,
   against reading the same files plainly; written in big batches (a flood), and ending in as many
   one-line records as a file may hold before compaction (a slow logger: the slowest file to read).

Run: ``python bench/journal.py [--mb 100] [--sessions 50]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from ingest import blocking_baseline, make_file  # the P1 baseline, exactly as the ingest bench runs it

from openclaw_tui.core.journal import Caps, Journal, Limits
from openclaw_tui.core.journal.replay import header

MB = 1 << 20
READ = 4096  # what one PTY read returns
TEXT = 64 << 10  # text handed over per call (the session converts in batches)


def io_counters() -> dict[str, int]:
    with open("/proc/self/io") as fh:
        return {k: int(v) for k, v in (line.split(":") for line in fh)}


def pty_rate(path: str, mb: int, rounds: int) -> float:
    """MB/s of the blocking-read PTY drain (best of ``rounds``)."""
    return mb / min(blocking_baseline(path) for _ in range(rounds))


def push(journal: Journal, data: bytes, text: bool, rate: float = 0.0, sample: str | None = None) -> tuple[float, int]:
    """Push ``data`` through one session (paced at ``rate`` MB/s if given); returns (seconds spent in
    the calls, the largest size ``sample``'s session files reached)."""
    sj = journal.session("flood")
    spent, biggest, start = 0.0, 0, time.perf_counter()
    for at in range(0, len(data), TEXT):
        block = data[at : at + TEXT]
        t0 = time.perf_counter()
        for i in range(0, len(block), READ):
            sj.raw(at + i, block[i : i + READ])
        if text:
            sj.output("stdout", block.decode("utf-8", "replace"))
        spent += time.perf_counter() - t0
        if sample is not None and at % MB == 0:
            biggest = max(biggest, largest_file(sample))
        if rate:
            time.sleep(max(0.0, start + (at + len(block)) / (rate * MB) - time.perf_counter()))
    return spent, biggest


def largest_file(folder: str) -> int:
    sizes = [0]
    for entry in os.scandir(folder):
        try:
            sizes.append(entry.stat().st_size)
        except FileNotFoundError:  # a compaction renamed it meanwhile
            pass
    return max(sizes)


def throughput(data: bytes, tmp: str, text: bool) -> float:
    state = tempfile.mkdtemp(dir=tmp)
    journal = Journal.open(state)
    spent, _ = push(journal, data, text)
    journal.close()
    shutil.rmtree(state)
    return len(data) / MB / spent


def flood_writes(data: bytes, tmp: str, rate: float, limits: Limits) -> dict[str, float]:
    state = tempfile.mkdtemp(dir=tmp)
    journal = Journal.open(state, limits)
    before, cpu, wall = io_counters(), time.process_time(), time.perf_counter()
    spent, biggest = push(journal, data, True, rate, os.path.join(state, "journal", "sessions"))
    journal.flush()
    after, cpu, wall = io_counters(), time.process_time() - cpu, time.perf_counter() - wall
    stats = journal.stats
    journal.close()
    shutil.rmtree(state)
    mb = len(data) / MB
    return {"journal": stats["bytes_written"] / mb, "wchar": (after["wchar"] - before["wchar"]) / mb,
            "disk": (after["write_bytes"] - before["write_bytes"]) / mb, "compactions": stats["compactions"],
            "biggest": biggest / MB, "lost": stats["lost_chars"] + stats["lost_bytes"],
            "writer": max(0.0, cpu - spent) / wall}  # CPU the rest of the process used: the writer, the pacing


def fill(journal: Journal, sid: str, mb: float, slow_lines: int = 0) -> None:
    """A session filled past its caps (``mb`` MB in big writes), then ``slow_lines`` lines written one
    round each (a record a line, as a slow logger's are), 200 inputs and an exit."""
    sj = journal.session(sid)
    sj.meta({"id": sid, "command": "make -j8", "pty": True, "settings": {"ttlMs": 1800000}})
    line = b"".join(b"%07d a line of build output with some words in it\n" % n for n in range(64))
    offset = 0
    for _ in range(int(mb * MB) // len(line)):
        sj.raw(offset, line)
        sj.output("stdout", line.decode())
        offset += len(line)
        if offset % MB < len(line):
            journal.flush()
    for n in range(slow_lines):
        sj.raw(offset, f"GET /things/{n} 200\r\n".encode())
        sj.output("stdout", f"GET /things/{n} 200\n")
        offset += len(f"GET /things/{n} 200\r\n")
        journal.flush()
    for i in range(200):
        sj.input({"at": i, "source": "main", "action": "write", "preview": "y", "bytes": 2})
    sj.size(offset, 120, 40)
    sj.exit({"exitCode": 0, "endedAt": "2026-12-01T00:00:00Z"})


def load_time(tmp: str, sessions: int, slow: bool) -> tuple[float, float, float]:
    """(seconds to open and load, seconds to read the same files plainly, MB on disk). ``slow``: each
    session ends with a record a line up to the compaction's record bound (the slowest file to read);
    one is written through the journal and copied, under each session's id."""
    state = tempfile.mkdtemp(dir=tmp)
    journal = Journal.open(state, Limits(write_rate=0))
    folder = os.path.join(state, "journal", "sessions")
    if slow:
        fill(journal, "s-0", 2.5, slow_lines=Limits().session_records // 2 - 10)
        journal.close()
        with open(os.path.join(folder, "s-0.jnl"), "rb") as fh:
            data = fh.read()
        start = len(header("s-0", Caps().fitted(Limits())))
        for n in range(1, sessions):
            with open(os.path.join(folder, f"s-{n}.jnl"), "wb") as fh:
                fh.write(header(f"s-{n}", Caps().fitted(Limits())) + data[start:])
    else:
        for n in range(sessions):
            fill(journal, f"s-{n}", 2.5 + n % 3 / 2)  # 2.5-3.5 MB: full caps, files at 2-4 MB
        journal.close()
    size = sum(e.stat().st_size for e in os.scandir(folder)) / MB
    t0 = time.perf_counter()
    reader = Journal.open(state)
    found = reader.load()
    loaded = time.perf_counter() - t0
    reader.close()
    assert len(found.sessions) == sessions and not found.problems
    assert all(len(s.raw) == MB and s.output.dropped_chars > 0 for s in found.sessions.values())
    t0 = time.perf_counter()
    for e in os.scandir(folder):
        with open(e.path, "rb") as fh:
            fh.read()
    plain = time.perf_counter() - t0
    shutil.rmtree(state)
    return loaded, plain, size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flood.log")
        make_file(path, args.mb)
        with open(path, "rb") as fh:
            data = fh.read()[: args.mb * MB]
        pty = pty_rate(path, args.mb, args.rounds)
        raw_only = max(throughput(data, tmp, False) for _ in range(args.rounds))
        both = max(throughput(data, tmp, True) for _ in range(args.rounds))
        print(f"PTY flood (blocking read loop): {pty:.0f} MB/s")
        print(f"journal calls, raw in 4 KiB reads: {raw_only:.0f} MB/s = {raw_only / pty:.1f}x the flood "
              f"({pty / raw_only:.0%} of a flooding session's time)")
        print(f"journal calls, raw + the same text: {both:.0f} MB/s = {both / pty:.1f}x the flood "
              f"({pty / both:.0%} of a flooding session's time)")
        for name, limits in (("default limits (4 MB/s)", Limits()), ("write rate unlimited", Limits(write_rate=0))):
            w = flood_writes(data, tmp, pty, limits)
            print(f"{args.mb} MB flood at {pty:.0f} MB/s, {name}: {w['journal'] / 1024:.0f} KB written per MB of "
                  f"output, {w['journal'] * args.mb / MB:.1f} MB in all (kernel: wchar {w['wchar'] / 1024:.0f} KB/MB, "
                  f"block layer {w['disk'] / 1024:.0f} KB/MB); {w['compactions']:.0f} compactions, largest file "
                  f"{w['biggest']:.1f} MB, {w['lost']:.0f} chars+bytes lost; writer thread CPU {w['writer']:.0%} of a core")
        for slow, kind in ((False, "written in big batches"), (True, "ending in a record a line")):
            loaded, plain, size = load_time(tmp, args.sessions, slow)
            print(f"load of {args.sessions} sessions at their caps, {kind} ({size:.0f} MB): {loaded * 1000:.0f} ms "
                  f"= {loaded / plain:.1f}x reading the same files plainly ({plain * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
