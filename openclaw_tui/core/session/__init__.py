"""A session and its parts: output, input log, exit record; and the registry of sessions.

A ``Session`` is one supervised command. It writes only its own state; its parts keep theirs: the output
(``capture``: the raw ring for terminal views and the bounded text buffers agents read), who typed what
(``inputlog``) and how it ended (``exitrecord``). The ``Registry`` owns the sessions of a host, their
scopes and lifetimes, and ``events`` is the bus on which every change goes out. A journaled session hands
its changes to a ``SessionRecord`` (``record``), which the journal above implements.
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
    from .exitrecord import (
        APPROVAL_DENIED as APPROVAL_DENIED,
        APPROVAL_PENDING as APPROVAL_PENDING,
        APPROVAL_TIMEOUT as APPROVAL_TIMEOUT,
        APPROVAL_WITHDRAWN as APPROVAL_WITHDRAWN,
        COMPLETED as COMPLETED,
        FAILED as FAILED,
        HOST_CLOSED as HOST_CLOSED,
        HOST_DIED as HOST_DIED,
        RUNNING as RUNNING,
        ExitRecord as ExitRecord,
        end_words as end_words,
    )
    from .inputlog import INPUT_HISTORY as INPUT_HISTORY, InputLog as InputLog
    from .names import derive_name as derive_name
    from .rawring import DEFAULT_CAPACITY as DEFAULT_CAPACITY, RawRing as RawRing, SizeMark as SizeMark
    from .redact import masked as masked
    from .registry import Registry as Registry
    from .session import Replier as Replier, Session as Session, iso as iso

__all__, __getattr__ = lazy_exports(__name__, __file__)
