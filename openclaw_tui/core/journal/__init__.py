"""The durable record of sessions: what outlives the host, a crash included.

A host journals every session it backgrounds under its state directory (``$XDG_STATE_HOME/openclaw-tui``), so
that after any start, even after a SIGKILL, finished sessions come back with their ids, output and exit codes,
sessions that were running read as ended by the host's death, and no id is ever issued twice. The record is
bounded (per session and in all, the oldest finished sessions going first), survives a torn last record, and
never harms the host: the calls below only queue work for one writer thread, and a disk that fails turns the
journal degraded (``Journal.problem``) while the host goes on in memory.

How the host uses it (``tools.exec.persist = false`` means ``Journal.disabled()``, whose calls do nothing; the
wiring is ``restore``, ``Supervisor.record``/``restore`` and ``SessionHost.persist``):

At start, off the event loop (``restore.open_journal``), then on it (``Supervisor.restore``)::

    journal = Journal.open(settings.state_dir, name=journal_name(socket))  # never raises (journal.problem)
    found = journal.load()                            # blocking: run it with asyncio.to_thread
    registry.issued.add(...) for found.issued         # ids are never reused across restarts
    for s in found.sessions.values():                 # restore.rebuild, through Session.from_json
        # a finished one past its TTL (from its exit record's time) is forgotten (journal.forget);
        # s.exit is None: the session was running when its host died. Its processes are gone (the
        # containment sweep ends what is left): it is marked ended and that is recorded at once:
        journal.session(s.session_id).exit({"exit": {..., "failure": "host-died"}, ...})

While running, from the loop (each call returns at once)::

    journal.issued(sid)                                # Registry.new_id (Registry.on_issued)
    sj = journal.session(sid, Caps(tail_chars=..., raw_bytes=...))   # when backgrounded (restore.caps_of)
    sj.meta({...})                                     # Session.record_meta: what to_json says besides its
                                                       # parts, how far polls read, whether the agent was told
    sj.raw(offset, data)                               # OutputCapture.ingest, offset = raw.end before append
    sj.size(offset, cols, rows)                        # OutputCapture.resize, offset = raw.end
    sj.output(stream, text) / sj.skip(nchars)          # as the capture's text grows / skips in a flood
    sj.input(record.to_json(), replace_last=...)       # InputLog.record (True when it joined the last record)
    sj.exit({...})                                     # Session.record_exit: the exit record, duration,
                                                       # last output time, the notice queued for it
    journal.forget(sid)                                # Registry.drop: cleared, removed, expired, evicted
    journal.mutes({"sessions": [...], "agents": [...]})  # the operator muted or unmuted (written at once)
    journal.problem                                    # shown in the log, a list note and the header

At exit: ``await asyncio.to_thread(journal.close)`` (writes and fsyncs what is waiting). ``flush()`` waits
until everything handed over is written (before a re-exec).

Durability: appends reach the kernel within ``flush_interval`` (0.1 s) of the call, so a crash of the host
loses at most that much; exit records and issued ids are written at once and fsynced, compactions are fsynced
and renamed atomically. A power cut may lose appends not yet flushed to disk by the kernel. Under a flood the
writer holds to ``write_rate`` (4 MB/s) and coalesces meanwhile, so the record may lag by up to a session's
retained size divided by that rate (about 0.3 s at the default caps).

**The pieces.** ``store`` is ``Journal``, the host's side: every call from the host only updates a session's
``Batch`` (``batch``) under a lock, through its ``SessionJournal`` (``sessionjournal``: a few microseconds,
never a system call), so the event loop never waits on the disk. One writer thread wakes when there is work
(exits, issued ids and ``flush`` wake it at once), writes each session's batch as one append (or compacts the
file instead, when the batch would take it past its bounds), deletes the oldest finished sessions when the
total is over its bound, and then waits at least ``flush_interval`` (longer when the last round wrote more
than ``write_rate`` allows) while new output coalesces. Any failure of the disk (a full disk, a directory made
unwritable or removed) turns the journal degraded: ``problem`` says why in one line, every later call does
nothing, and nothing is ever raised to the caller. Each call also tells the journal how much more (or less)
its batch now holds, so the journal can wake its writer and keep the memory waiting for the disk bounded; a
forgotten or evicted session, and any session of a journal that is off, ignores its calls. ``restore`` wires
the journal to a host (below).

**Coalescing a flood** (``batch``). A flood is coalesced rather than written: between two writes the text is
kept in a tail buffer of the session's own cap and the raw bytes in a ring of its own cap, so whatever a child
prints in that time, at most one tail and one raw tail reach the disk (the characters the cap pushed out are
written as a count). Text that falls in the head window is pinned instead, since the head is never trimmed, so
no trimming ever loses it. Metadata, input and exit records are small and rare; they are encoded when they are
handed over, so the writer never reads a caller's object while the caller may still change it.

**Bounds** (``limits``). ``Limits`` bound the whole store (bytes on disk per session and in all, the write
rate, the memory that waits for the writer); ``Caps`` say what one session retains (head and tail of its text,
the raw tail, how many input records), mirroring the session's own caps so a recovered session looks as it
did. A session's caps are fitted inside its disk bound, so that a snapshot of what it retains always leaves
room to append before the next compaction.

**Files** (``disk``). Layout: ``<state>/journal/lock`` (held with ``flock`` while a host uses the directory,
so a second host cannot read live files as if their host had died), ``<state>/journal/issued.jnl``,
``<state>/journal/approvals.jnl`` (every approval request and decision: the operator's audit trail, bounded to
its newest records), ``<state>/journal/sessions/<id>.jnl``, and ``<state>/journal/mutes.jnl``, the operator's
mutes (``mutefile``: one record, the file replaced whole on each change); a named journal (a host's, named after its socket) has the same under
``<state>/journal/<name>/``. Directories are private (0700) and files 0600: the records hold what commands
printed. Everything in ``disk`` runs on the writer thread, or on the caller's thread at load time with the
writer held off, and raises ``OSError`` for the caller to turn into a degraded journal. Appends reach the
kernel when written, so a crash of the host loses nothing written; exit records, ids and approvals are fsynced, and a
compaction fsyncs its new file before the rename and the directory after it.

**Format** (``records``). A file is a magic line, then records, each ``<payload length: u32><crc32 of kind and
payload: u32><kind: 1 byte><payload>`` (little-endian). A reader trusts a record only when the whole of it is
there and its checksum matches, so a record torn by a crash or a full disk is recognised and dropped, and
everything before it still reads. Records are appended, never rewritten in place; a file is only ever replaced
whole (compaction writes a new one and renames it over the old). Payloads are JSON for the rare, structured
records and binary for the frequent ones (output text, raw bytes, size marks). Format 2 (named in the caps
record) adds the raw bytes' times (``TIMES``, after each raw record) and size marks with their time and who
resized (``SIZE_AT``); a format 1 file reads as it is, its sessions without times.

**The audit** (``timeline``). ``read_acts`` reads a journal directory without taking its lock or writing
anything, and lists every act it holds from the records that hold it: starts, inputs, resizes, kills and ends
from the session files; approval requests and decisions, and the host's own acts (a session removed, with the
acts its file took with it; a re-exec) from the approvals file (``Journal.act``). A new kind of act joins
``ACTS`` and the reader of its record.

**Reading back** (``recover``, ``replay``). A torn last record (the host died mid-write, or the disk filled)
is expected: it is cut off silently and the file takes appends again. Anything else that does not read (bytes
after the valid records that are not a torn record, a record that does not parse, a file that is not a
journal) is reported in one line per file and never stops the load: the records before the damage are kept,
and a file that is not a journal at all is set aside as ``*.corrupt``. Recovered sessions are registered with
the ``Disk`` so the budgets and eviction count them, and the ids file and the session files together give
every id ever issued. Replay follows the same rules as the live session's buffers (``session.buffers.Output``
and ``session.rawring.RawRing``): output fills the head while it is short of its cap and joins a tail that
keeps the newest characters; a skip counts characters that went by and restarts the tail; raw bytes keep the
newest ``raw_bytes`` by absolute offset. Loading a file and compacting one are the same replay, so a snapshot
holds exactly what a reader would have rebuilt from the records it replaces.

**A host's journal** (``restore``). The journal of a host is named after the socket it serves
(``<state>/journal/<name>/``, the name a hash of the socket's path, with a ``socket`` file inside saying
which): the next host on that socket is "the same host started again" and gets the sessions back, while hosts
on other sockets (a test's, a node's) never share or take over each other's record. A host that serves no
socket keeps its sessions in memory. Rebuilding turns a journal record (``RecoveredSession``) into a
``Session`` with no child, through the same ``Session.from_json`` a serialised session goes through. Output a
poll had not yet returned is pending again, so the agent's next poll gets it. A session whose record has no
exit was running when its host died: it is marked ended, ``failureKind: "host-died"``, its cleanup confirmed
unless the start-up sweep of dead hosts (``containment.liverecord``) could not end something of it.
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
        journal_name as journal_name,
        leftover_of as leftover_of,
        open_journal as open_journal,
        owed_notice as owed_notice,
        rebuild as rebuild,
        status as status,
    )
    from .sessionjournal import HeldRecord as HeldRecord, SessionJournal as SessionJournal
    from .store import Journal as Journal
    from .timeline import ACTS as ACTS, AuditAct as AuditAct, acts_of as acts_of, read_acts as read_acts

__all__, __getattr__ = lazy_exports(__name__, __file__)
