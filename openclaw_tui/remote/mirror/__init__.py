"""A host seen from another process: the frontends' view of a host, and a mirror of one over the socket.

``viewprotocols`` is the seam: ``HostView`` and ``SessionView``, which the core's host and sessions fit
by their shape, and which ``RemoteHost``/``RemoteSession`` (``remotehost``) implement over the socket for
an attached dashboard. ``hostlink`` keeps that connection, made again by itself whenever it drops.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .remotehost import RemoteHost as RemoteHost, subscribe as subscribe
    from .viewprotocols import HostView as HostView, SessionView as SessionView

__all__, __getattr__ = lazy_exports(__name__, __file__)
