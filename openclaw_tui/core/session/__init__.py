"""A session and its parts: output, input log, exit record; and the registry of sessions.

A ``Session`` (``session``) is one supervised command: what both an agent (through ``process``) and the
operator (through the dashboard) look at. It is small on purpose and writes only its own state; its parts keep
theirs: the output (``capture``: the raw ring ``rawring`` for terminal views and the bounded text buffers
``buffers`` agents read), who typed what (``inputlog``) and how it ended (``exitrecord``). Launching hands it
what the launcher learned (a ``SessionRun`` of ``containment``). It answers the questions both sides ask: is
it still running, how did it end, is it waiting for input. ``to_json`` writes all of it in one shape and
``from_json`` rebuilds the record (without the live child), for a host that must keep its sessions across a
restart or a mirror that rebuilds them. The ``Registry`` owns the sessions of a host, their scopes and
lifetimes, ``events`` is the bus on which every change goes out, and ``ids``, ``names`` and ``redact`` say
what a session is called. A journaled session (``Session.keep_record``) hands its changes to a
``SessionRecord`` (``record``) piece by piece as it changes (its metadata, its output and inputs through its
parts), which the journal above implements; a session only ever calls that protocol.

**Output: raw bytes and text** (``capture``). Every byte a child writes goes into the raw ring at once (escape
sequences and all, with the PTY sizes), while turning bytes into text waits a moment (or until someone reads
the text), so that a flood is converted once per batch and only the part that the retention caps would keep is
converted at all. The text is bounded buffers (``buffers.Output``: head, tail, pending), per stream decoded
and stripped of escape sequences (``vt.StreamText``). ``to_json``/``from_json`` write both out and read them
back, which is how a restarted host or a mirror gets a session's output without its child. A journaled
session's capture also hands each change to its journal record as it happens: raw bytes at their offset, size
marks, text, and the characters a flood skipped (cheap in-memory edits; the journal's own thread writes them).

**Times** (``rawring``, ``capture``, ``recording``). Every chunk of raw output carries the millisecond it
arrived (a ``TimeMark`` at its offset, kept only when the millisecond changed, so a flood costs a mark a
millisecond at most), and every size mark its time; the times come from the session's ``SessionClock``, the
monotonic clock anchored once to the wall clock, so a recording never jumps when the system clock is set.
The runner stamps its reads as it makes them and hands the stamps with the bytes. ``recording`` takes a copy of
all of it for an export (``Recording``), cut by a ``Window``, and writes a pipe session's timed text.

**The text buffers** (``buffers``). A child may print a gigabyte; the host must keep a bounded amount whatever
happens. Retained output keeps the newest ``cap`` characters (the tail) and, separately, the first
``HEAD_CHARS`` (the head), because the start of a build log often says what went wrong and the end says how it
ended. Pending output (not yet returned by a poll) is capped per stream, dropping the oldest. Chunks keep the
stream they came from so a log view can tell stderr from stdout. A reader that remembers how many characters
it has seen asks for what came after them with ``since``; ``to_json``/``from_json`` carry the whole state
across a socket or a restart.

**The raw ring** (``rawring``). The terminal view needs the child's bytes exactly as written (escape sequences
and all) while the agent-facing text is stripped. Keeping every byte would grow without bound, so the ring
keeps only the newest ``capacity`` bytes, addressed by absolute offset; readers remember the offset they
reached and learn, on their next read, whether bytes were dropped before they got to them (then they catch up
from the tail). A program draws for the size its terminal has, so the bytes alone do not say what the screen
showed: the ring also records every resize as a size mark ``(offset, cols, rows)`` at the offset where it
happened (bytes from ``offset`` on were written for that size). Marks are trimmed with the bytes, but the mark
in force at ``start`` is always kept, so any replay of the ring can start at the right size and apply each
later resize where it happened. Marks are numbered from the first ever recorded, so a reader that has applied
some knows which come next even when several fall on one offset. Memory is only taken as output arrives: an
idle session with no output costs an empty deque. The ring and its marks go to JSON and back too, so a
restarted host still shows what a session's terminal showed.

**Who typed what** (``inputlog``). Agents (through ``process``) and the operator (through the dashboard) share
a session's stdin, so every piece of input is recorded with who sent it, shown in ``log`` results and under
the session in the dashboard; the last ``INPUT_HISTORY`` inputs are kept. What is recorded is a preview, never
more than ``PREVIEW_CHARS``: a 10 MB paste is not kept twice, and input typed at a password prompt (the
terminal's echo off) is recorded as ``•••``, so the transcript says who answered but never the secret, which
agents and dashboards could read back. Keystrokes typed through (action ``type``) join the record of the line
they belong to, so a typed answer is one record, as a written one is, and a hidden one does not show its
length keystroke by keystroke. A journaled session's log hands each record to its journal record as it is
made.

**How it ended** (``exitrecord``). Ending a run is spread over time and over several actors: an agent's kill,
the timeout, the host's shutdown, the leader's exit, the check that nothing of it survived. Each records what
it learned in the exit record, through one method per fact, and the record alone says what status a session
has (``running``, ``completed``, ``failed``, and ``approval-pending`` for a run that waits for the operator's
approval and has not started) and how to word its end, a run that never started included (denied, not
answered in time, its host died). It is plain data, so a session's end
survives a restart of the host (see ``Session.to_json``) and a mirror can rebuild it from a session's details.

**The registry** (``registry``). Only backgrounded sessions are listed and kept after they end; a run that
finished inside its yield window was already answered in full and is forgotten. Finished sessions expire after
the TTL their exec captured, and the registry never holds more than 50 finished sessions or two million
retained characters in all: the oldest finished go first, and the most recently finished always keeps its
(capped) output. Scope is by agent: an agent sees only what it started; the operator (``None``) sees all. Ids
are never reused: the registry remembers every id it issued (``on_issued`` hears of each, for the journal), so
a stale id finds no session. Sessions a host brings back from its journal are restored with what is left of
their TTL.

**Events** (``events``). Whoever watches (the dashboard, the socket server, the MCP server) subscribes and
gets a snapshot first and then every change, through a plain callback called on the loop (no Textual here: the
UI turns callbacks into its own messages). Output arrives far faster than anyone can look at it, so a consumer
that cannot keep up wraps its listener in an ``OutputCoalescer``: it hears of a session's output once, and
again only after it says it handled that. Every consumer does so the same way (``watch()`` here, the socket
server, the dashboard's bridge); everything else is delivered in order. A host in another process is mirrored
onto a bus of its own, so frontends subscribe to either alike. An event is a kind (``EventKind``), the session
it concerns and a frozen payload of the one type that kind carries (``PAYLOADS``); ``Event.to_json`` and
``Event.from_json`` are the one place an event becomes the socket's ``event`` notification ``{kind, sessionId,
data}`` and comes back from it, so a frontend reads the same JSON whoever published the event, and a mirror
republishes what it received as the events it was. A new kind is one ``EventKind`` member and its entry in
``PAYLOADS`` (a new payload class beside the others when no existing one fits).

**Vocabularies** (``status``, ``events``; ``Placement`` and ``ContainmentKind`` in ``containment``). Statuses
and event kinds are ``StrEnum``s: a member is its word, so JSON, the journal and an agent's text carry plain
strings, and one read back from JSON compares equal to its member; where a typed value is kept, it is
converted on reading (``Session.from_json``). A new status is one ``Status`` member.

**Ids** (``ids``). Ids are readable random slugs (``brisk-atlas``), each naming one job for the host's whole
life: slugs because agents and operators say them out loud, type them into prompts and spot them in a list;
random so that one agent cannot guess another's sessions by counting. An id is never issued twice: an agent
holding a stale id must get "no such session", never another job, so every issued id is remembered
(``IssuedIds``), not only the live ones. The space widens as it fills: ``adjective-noun`` (5,250 slugs), then
``-2``…``-9``, then a third word, then a random suffix that grows as long as it must, so issuing never fails
and never loops for long.

**Names** (``names``). A session's name summarises its command as "verb + target", so a list of sessions reads
like a list of jobs. The target is the first later word that is neither an option nor an option's value: ``top
-d 2`` is ``top``, ``read -p "Name? " n`` is ``read``, ``node "my server.js" --port 8080`` is ``node my
server.js``. Knowing which options take a value needs no table for every program: a one-letter option followed
by a number (``-n 5``) or by a quoted prompt (``-p "Name? "``), a long option followed by a number (``--port
8080``) or named like a secret (``--token x``) takes it; a small table covers the well-known value-taking
options of common programs. Only the start of a command is read (a 500 KB command costs what a short one
does), with a single linear pass instead of ``shlex``.

**Secrets** (``redact``). A session's name appears in the list, the dashboard, exit notifications and toasts,
where other agents' operators and screen-sharing viewers can read it, so a secret typed into a command must
not survive into it: ``OPENAI_API_KEY=sk-…`` shows as ``OPENAI_API_KEY=***``. What counts as a secret: the
value of a ``NAME=value`` whose name looks secret (KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
CREDENTIAL, AUTH, or a PASS/PW part), the value of an option named like one (``--token x``, ``--password=x``),
an ``Authorization:``-style header and a ``Bearer``/``Basic`` credential, and the password (or, for http, a
lone token) in a URL's ``user:pass@``. A few whole name parts hold one of those words yet name something else
(git's ``GIT_AUTHOR_NAME``, ``KEYBOARD``, ``KEYMAP``, Hugging Face's ``TOKENIZERS_PARALLELISM``) and do not
count; over-redacting any other harmless name (``MONKEY=1``) is the accepted cost of never showing a real key.
The same rule (``looks_secret``, ``url_credentials``) decides which of the host's variables a sandboxed run
does not inherit (``launch.secretenv``). The full command stays in ``details.command``, which only the
session's own agent and the operator see.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .buffers import STDERR as STDERR, Output as Output, TailBuffer as TailBuffer
    from .capture import now_ms as now_ms
    from .events import (
        APPROVAL_KINDS as APPROVAL_KINDS,
        NEW_OUTPUT as NEW_OUTPUT,
        ApprovalState as ApprovalState,
        Event as Event,
        EventBus as EventBus,
        EventKind as EventKind,
        ExitNotice as ExitNotice,
        JournalState as JournalState,
        LinkGone as LinkGone,
        LinkState as LinkState,
        Listener as Listener,
        NodeDown as NodeDown,
        Notified as Notified,
        OutputCoalescer as OutputCoalescer,
        Payload as Payload,
        Resources as Resources,
        SessionState as SessionState,
        Snapshot as Snapshot,
    )
    from .exitrecord import (
        APPROVAL_DENIED as APPROVAL_DENIED,
        APPROVAL_TIMEOUT as APPROVAL_TIMEOUT,
        APPROVAL_WITHDRAWN as APPROVAL_WITHDRAWN,
        HOST_CLOSED as HOST_CLOSED,
        HOST_DIED as HOST_DIED,
        ExitRecord as ExitRecord,
        end_words as end_words,
    )
    from .inputlog import INPUT_HISTORY as INPUT_HISTORY, InputLog as InputLog
    from .names import derive_name as derive_name
    from .rawring import (
        DEFAULT_CAPACITY as DEFAULT_CAPACITY,
        RawRing as RawRing,
        SizeMark as SizeMark,
        TimeMark as TimeMark,
    )
    from .recording import (
        Recording as Recording,
        Window as Window,
        local_time as local_time,
        timed_text as timed_text,
        when_ms as when_ms,
    )
    from .redact import (
        MASK as MASK,
        looks_secret as looks_secret,
        masked as masked,
        url_credentials as url_credentials,
    )
    from .registry import Registry as Registry
    from .session import Replier as Replier, Session as Session, iso as iso
    from .status import Status as Status

__all__, __getattr__ = lazy_exports(__name__, __file__)
