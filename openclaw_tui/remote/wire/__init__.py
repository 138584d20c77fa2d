"""The host protocol and the clients' side of it: JSON-RPC 2.0 over newline-delimited JSON on a Unix socket.

``protocol`` documents the methods and encodes messages, ``socketpaths`` finds the per-user socket,
``client`` is the asyncio client (requests with futures, notifications to listeners), ``oneshot`` the
blocking one, for commands that must start fast, and ``autostart`` starts a host for a client that found none.

A lost connection is met the same way by every client that meets it: ``retry`` says how one call rides
through its host re-executing itself in place (which calls are sent again, how many times, how long the host
may take to be back, and the words when they are not), for ``openclaw-tui call`` and the MCP server alike;
``backoff`` spaces the tries of a link that keeps its host over time (the dashboard's, a node's) to connect
again.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import oneshot as oneshot, protocol as protocol
    from .autostart import (
        HostUnavailable as HostUnavailable,
        host_opener as host_opener,
        start_host as start_host,
    )
    from .backoff import ReconnectBackoff as ReconnectBackoff
    from .client import HostClient as HostClient, NoHost as NoHost
    from .retry import BACK_S as BACK_S, RideThrough as RideThrough
    from .socketpaths import (
        SocketPathError as SocketPathError,
        check_length as check_length,
        ensure_private_dir as ensure_private_dir,
        find_host as find_host,
        socket_path as socket_path,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
