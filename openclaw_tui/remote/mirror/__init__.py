"""A host seen from another process: the frontends' view of a host, and a mirror of one over the socket.

``viewprotocols`` is the seam: ``HostView`` and ``SessionView``, which the core's host and sessions fit by
their shape, and which ``RemoteHost``/``RemoteSession`` (``remotehost``) implement over the socket for an
attached dashboard. ``hostlink`` keeps that connection, made again by itself whenever it drops.

**The seam** (``viewprotocols``). The dashboard shows a host in this process (``openclaw_tui.ToolHost``, the
core's ``SessionHost`` and its ``Session``) or a host in another one, mirrored over the socket (``RemoteHost``
and its ``RemoteSession``). Both provide these protocols, and the dashboard is written against them alone, so
it never asks which it has. As asyncio's ``Process`` depends on its protocol and never the reverse, the core
knows nothing of the seam: its classes fit it by their shape, which the type checker proves.

**The mirror** (``remotehost``). ``RemoteHost`` and ``RemoteSession`` are filled from the host's event stream
(state, republished on a bus of the mirror's own), its raw-output stream (the terminal view's bytes,
subscribed only while someone views the session) and on-demand output fetches (the log view, and the recorded
inputs, fetched again when someone reads them after the host reported new input). Input goes to the host's one
input path (``session.input``). The connection is made again by itself when it drops (a re-exec of the host),
and the mirror resyncs in place. Closing a ``RemoteHost`` only closes the connection: the sessions keep
running on the host. A node's host mirrored into a dashboard across nodes (``remote.nodes.fleet``) is given
the node's name: its sessions then show as ``NODE/ID`` while every request names them by the node's own id
(``key``).

**The link** (``hostlink``). A host re-executes in place (``openclaw-tui serve --reexec``) keeping its
listening socket, so a dropped connection is most often a host about to answer again: ``HostLink`` retries the
same socket with a growing pause and, once through, has its owner subscribe and resync. The host is taken for
gone for good only when its socket file has been missing a while (a host that ends removes its socket) or
nothing has answered for ``GIVE_UP_S``. Its state (connecting, live, reconnecting, gone) is reported to the
owner at each change, and a request made while it is not live waits until it settles rather than failing at
once.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .remotehost import RemoteHost as RemoteHost
    from .viewprotocols import HostView as HostView, SessionView as SessionView

__all__, __getattr__ = lazy_exports(__name__, __file__)
