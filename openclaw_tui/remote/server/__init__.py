"""The host's side of the socket, and ``openclaw-tui serve``.

``hostserver`` answers tool calls, the event stream and raw output for every frontend; ``rpcparams``
checks a request's params before anything runs; ``callers`` knows who is on the other end, so a caller
inside a session acts only as that session's agent; ``listener`` holds the socket's lock. ``serve`` runs
the host with no UI until a signal ends it, and ``reexec`` moves it onto new code in place.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .serve import check_resume as check_resume, run_serve as run_serve

__all__, __getattr__ = lazy_exports(__name__, __file__)
