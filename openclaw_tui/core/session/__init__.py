"""A session and its parts: output, input log, exit record; and the registry of sessions.

A ``Session`` is one supervised command. It writes only its own state; its parts keep theirs: the output
(``capture``: the raw ring for terminal views and the bounded text buffers agents read), who typed what
(``inputlog``) and how it ended (``exitrecord``, whose record says its ``Status``). The ``Registry`` owns
the sessions of a host, their scopes and lifetimes, and ``events`` is the bus on which every change goes
out. A journaled session hands its changes to a ``SessionRecord`` (``record``), which the journal above
implements.

The vocabularies (``Status``, and below, ``Placement`` and ``ContainmentKind``) are
``StrEnum``s: a member is its word, so JSON, the journal and an agent's text carry plain strings, and one read
back from JSON compares equal to its member; where a typed value is kept, it is converted on reading
(``Session.from_json``).
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import events as events
    from .buffers import STDERR as STDERR, Output as Output, TailBuffer as TailBuffer
    from .capture import now_ms as now_ms
    from .events import (
        NOTIFICATION as NOTIFICATION,
        Event as Event,
        EventBus as EventBus,
        Listener as Listener,
        OutputCoalescer as OutputCoalescer,
    )
    from .exitrecord import HOST_DIED as HOST_DIED, ExitRecord as ExitRecord, end_words as end_words
    from .inputlog import INPUT_HISTORY as INPUT_HISTORY, InputLog as InputLog
    from .names import derive_name as derive_name
    from .rawring import DEFAULT_CAPACITY as DEFAULT_CAPACITY, RawRing as RawRing, SizeMark as SizeMark
    from .registry import Registry as Registry
    from .session import Replier as Replier, Session as Session, iso as iso
    from .status import Status as Status

__all__, __getattr__ = lazy_exports(__name__, __file__)
