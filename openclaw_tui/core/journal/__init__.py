"""The durable record of sessions: what outlives the host, a crash included.

A host journals every session it admits under its state directory (``$XDG_STATE_HOME/openclaw-tui``), so
that after any start, even after a SIGKILL, finished sessions come back with their ids, output and exit
codes, sessions that were running read as ended by the host's death, and no id is ever issued twice. The
record is bounded (per session and in all, the oldest finished sessions going first), survives a torn
last record, and never harms the host: the calls below only queue work for one writer thread, and a disk
that fails turns the journal degraded (``Journal.problem``) while the host goes on in memory.

How the host uses it (``tools.exec.persist = false`` means ``Journal.disabled()``, whose calls do nothing):

At start, off the event loop::

    journal = Journal.open(settings.state_dir, name=...)  # never raises; journal.problem says why if degraded
    found = journal.load()                            # blocking: run it with asyncio.to_thread
    issued = IssuedIds(found.issued)                  # ids are never reused across restarts
    for s in found.sessions.values():                 # RecoveredSession
        # TTL: drop (journal.forget) a finished one whose exit is older than its cleanupMs (in s.meta);
        # rebuild the rest as ended sessions: s.output.head / .tail / .total_chars into an Output,
        # s.raw_start + s.raw into a RawRing (append_at), s.sizes, s.inputs (InputRecord.from_json).
        # s.exit is None: the session was running when its host died. Its process is gone (the
        # containment sweep ends what is left): record that it ended, so the next start knows too:
        journal.session(s.session_id).exit({"failureKind": "host-died", ...})

While running, from the loop (each call returns at once)::

    journal.issued(sid)                                # Registry.new_id
    sj = journal.session(sid, Caps(tail_chars=..., raw_bytes=...))   # at admission, from its settings
    sj.meta({...})                                     # id, command, name, agent, cwd, pty, host, settings,
                                                       # started time; again when any of it changes
    sj.raw(offset, data)                               # Session.on_data, offset = raw.end before append
    sj.size(offset, cols, rows)                        # Session.resize, offset = raw.end
    sj.output(stream, text) / sj.skip(nchars)          # Output.append / Output.skip
    sj.input(record.to_json(), replace_last=...)       # Session.send (True when it joined the last record)
    sj.exit({...})                                     # when the session has ended: code, signal,
                                                       # timedOut, killedBy, cleanup, ended time
    journal.forget(sid)                                # Registry.drop: cleared, removed, expired, evicted
    journal.problem                                    # shown in the log, a list note and the header

At exit: ``await asyncio.to_thread(journal.close)`` (writes and fsyncs what is waiting). ``flush()`` waits
until everything handed over is written (before a re-exec).

Durability: appends reach the kernel within ``flush_interval`` (0.1 s) of the call, so a crash of the host
loses at most that much; exit records and issued ids are written at once and fsynced, compactions are
fsynced and renamed atomically. A power cut may lose appends not yet flushed to disk by the kernel. Under
a flood the writer holds to ``write_rate`` (4 MB/s) and coalesces meanwhile, so the record may lag by up to
a session's retained size divided by that rate (about 0.3 s at the default caps).
"""

from .limits import Caps, Limits
from .recover import Recovered
from .replay import RecoveredOutput, RecoveredSession
from .session import SessionJournal
from .store import Journal

__all__ = ["Caps", "Journal", "Limits", "Recovered", "RecoveredOutput", "RecoveredSession", "SessionJournal"]
