"""A session and its parts: output, input log, exit record; and the registry of sessions.

A ``Session`` is one supervised command. It writes only its own state; its parts keep theirs: the output
(``capture``: the raw ring for terminal views and the bounded text buffers agents read), who typed what
(``inputlog``) and how it ended (``exitrecord``, whose record says its ``Status``). The ``Registry`` owns
the sessions of a host, their scopes and lifetimes, and ``events`` is the bus on which every change goes
out: an ``EventKind`` and the frozen payload that kind carries, turned into the socket's JSON and back in
one place (``Event.to_json``/``from_json``). A journaled session hands its changes to a ``SessionRecord``
(``record``), which the journal above implements.

The vocabularies (``Status``, ``EventKind``, and below, ``Placement`` and ``ContainmentKind``) are
``StrEnum``s: a member is its word, so JSON, the journal and an agent's text carry plain strings, and one read
back from JSON compares equal to its member; where a typed value is kept, it is converted on reading
(``Session.from_json``).
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .buffers import STDERR as STDERR, Output as Output, TailBuffer as TailBuffer
    from .capture import now_ms as now_ms
    from .events import (
        NEW_OUTPUT as NEW_OUTPUT,
        Event as Event,
        EventBus as EventBus,
        EventKind as EventKind,
        ExitNotice as ExitNotice,
        JournalState as JournalState,
        LinkGone as LinkGone,
        LinkState as LinkState,
        Listener as Listener,
        OutputCoalescer as OutputCoalescer,
        Payload as Payload,
        SessionState as SessionState,
        Snapshot as Snapshot,
    )
    from .exitrecord import HOST_DIED as HOST_DIED, ExitRecord as ExitRecord, end_words as end_words
    from .inputlog import INPUT_HISTORY as INPUT_HISTORY, InputLog as InputLog
    from .names import derive_name as derive_name
    from .rawring import DEFAULT_CAPACITY as DEFAULT_CAPACITY, RawRing as RawRing, SizeMark as SizeMark
    from .registry import Registry as Registry
    from .session import Replier as Replier, Session as Session, iso as iso
    from .status import Status as Status

__all__, __getattr__ = lazy_exports(__name__, __file__)
