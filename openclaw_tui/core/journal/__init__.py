"""The durable record of sessions: what outlives the host, a crash included.

A host journals every session it backgrounds under its state directory (``$XDG_STATE_HOME/openclaw-tui``),
so that after any start, even after a SIGKILL, finished sessions come back with their ids, output and exit
codes, sessions that were running read as ended by the host's death, and no id is ever issued twice. The
record is bounded (per session and in all, the oldest finished sessions going first), survives a torn
last record, and never harms the host: the calls below only queue work for one writer thread, and a disk
that fails turns the journal degraded (``Journal.problem``) while the host goes on in memory.

How the host uses it (``tools.exec.persist = false`` means ``Journal.disabled()``, whose calls do nothing;
the wiring is :mod:`..persist`, ``Supervisor.record``/``restore`` and ``SessionHost.persist``):

At start, off the event loop (``persist.open_journal``), then on it (``Supervisor.restore``)::

    journal = Journal.open(settings.state_dir, name=journal_name(socket))  # never raises (journal.problem)
    found = journal.load()                            # blocking: run it with asyncio.to_thread
    registry.issued.add(...) for found.issued         # ids are never reused across restarts
    for s in found.sessions.values():                 # RecoveredSession -> Session.from_json (persist.rebuild)
        # a finished one past its TTL (from its exit record's time) is forgotten (journal.forget);
        # s.exit is None: the session was running when its host died. Its processes are gone (the
        # containment sweep ends what is left): it is marked ended and that is recorded at once:
        journal.session(s.session_id).exit({"exit": {..., "failure": "host-died"}, ...})

While running, from the loop (each call returns at once)::

    journal.issued(sid)                                # Registry.new_id (Registry.on_issued)
    sj = journal.session(sid, Caps(tail_chars=..., raw_bytes=...))   # when backgrounded (persist.caps_of)
    sj.meta({...})                                     # Session.record_meta: what to_json says besides its
                                                       # parts, how far polls read, whether the agent was told
    sj.raw(offset, data)                               # OutputCapture.ingest, offset = raw.end before append
    sj.size(offset, cols, rows)                        # OutputCapture.resize, offset = raw.end
    sj.output(stream, text) / sj.skip(nchars)          # as the capture's text grows / skips in a flood
    sj.input(record.to_json(), replace_last=...)       # InputLog.record (True when it joined the last record)
    sj.exit({...})                                     # Session.record_exit: the exit record, duration,
                                                       # last output time, the notice queued for it
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

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .limits import Caps as Caps, Limits as Limits
    from .recover import Recovered as Recovered
    from .replay import RecoveredOutput as RecoveredOutput, RecoveredSession as RecoveredSession
    from .restore import (
        Restored as Restored,
        caps_of as caps_of,
        leftover_of as leftover_of,
        open_journal as open_journal,
        owed_notice as owed_notice,
        rebuild as rebuild,
        status as status,
    )
    from .sessionjournal import HeldRecord as HeldRecord, SessionJournal as SessionJournal
    from .store import Journal as Journal

__all__, __getattr__ = lazy_exports(__name__, __file__)
