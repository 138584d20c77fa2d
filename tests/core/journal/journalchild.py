"""A test child that journals like a busy host until it is killed.

Run as ``python journalchild.py STATE_DIR [MAX_FILE_BYTES]``: records a finished session ``done-crane`` (exit and all) and
prints ``EXITED``; then floods session ``loud-hawk`` with numbered 9-character lines (``%08d\\n``) as text
and raw bytes, with a writer that never waits and a small per-session bound (so it is nearly always
writing or compacting), and after every 2,000 lines waits for the journal to say they are written and
prints ``DURABLE <last line number>``. It never ends by itself, unless MAX_FILE_BYTES is given: then
the kernel kills it (SIGXFSZ) in the middle of the write that crosses that file size, a real crash that
tears a record.
"""

import resource
import signal
import sys

from openclaw_tui.core.journal import Caps, Journal, Limits

if len(sys.argv) > 2:
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it; the default ends the process

journal = Journal.open(sys.argv[1], Limits(session_bytes=256 << 10, flush_interval=0.002, write_rate=0))
assert journal.writing, journal.problem
journal.issued("done-crane")
done = journal.session("done-crane")
done.meta({"id": "done-crane", "command": "true"})
done.output("stdout", "all good\n")
done.input({"at": 1.0, "source": "main", "action": "write", "preview": "y", "bytes": 2})
done.exit({"exitCode": 0})
assert journal.flush()
print("EXITED", flush=True)

journal.issued("loud-hawk")
loud = journal.session("loud-hawk", Caps(tail_chars=9000, raw_bytes=18000))
loud.meta({"id": "loud-hawk", "command": "seq"})
n = 0
while True:
    lines = "".join(f"{i:08d}\n" for i in range(n, n + 100))
    loud.output("stdout", lines)
    loud.raw(n * 9, lines.encode())
    n += 100
    if n % 2000 == 0:
        assert journal.flush()
        print("DURABLE", n - 1, flush=True)
