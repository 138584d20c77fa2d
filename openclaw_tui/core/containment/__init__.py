"""Containment: which processes are a session's, and how to end them all with proof.

A session runs in one container, named by ``details.containment``: its own cgroup v2 on the gateway where
the host can make one, else a marked family under a subreaper host, or bubblewrap's PID namespace in the
sandbox (``enclosures``). The host's side (``hostcontainment``) sets up what must survive the host's
sudden death (the watchdog, the live record) and answers which session a process belongs to, for the
socket's caller check. ``runner`` starts a child under a pipe or a PTY, ``preexec`` is the child's step
into its container before the command runs, and ``run`` is what the launcher keeps while it lives.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import sandbox as sandbox
    from .enclosures import ContainmentKind as ContainmentKind
    from .hostcontainment import Containment as Containment
    from .liverecord import Swept as Swept
    from .run import Placement as Placement, SessionRun as SessionRun
    from .runner import Child as Child, spawn_pipe as spawn_pipe, spawn_pty as spawn_pty

__all__, __getattr__ = lazy_exports(__name__, __file__)
