"""Nodes: other machines' hosts, reached over OpenSSH, in the calls and in one dashboard.

``ssh`` opens ``ssh NODE openclaw-tui bridge`` (``bridge`` is that command's side), ``nodelink`` keeps one
node's connection over time, ``sshnodes`` implements the core's node calls over those links, and ``fleet``
shows this machine's host and every node's as one host to the dashboard.

**The transport** (``ssh``). OpenSSH is the transport every operator already trusts (keys, agents, jump hosts,
``~/.ssh/config`` aliases, known-hosts checking), so we add no listener, no port and no authentication of our
own: the remote ``openclaw-tui bridge`` joins ssh's stdio to that machine's host socket and the protocol runs
through unchanged, one connection reused for every call. The node's own ``options`` come first, so they win
over ours (ssh keeps the first value it reads for an option): no terminal (``-T``), never a prompt
(``BatchMode``: there is nobody to answer it), a bounded connect, and keep-alives so a dead link is noticed.
When ssh fails, what it said on stderr is kept, so the failure names the node, the command line that was tried
and ssh's own last word; a remote without the command (exit 127) says what to set.

**The bridge** (``bridge``: ``openclaw-tui bridge``). A faithful byte bridge, as ``docker system dial-stdio``
is for Docker's ``ssh://`` hosts: bytes from stdin go to the socket and bytes from the socket go to stdout,
untouched, so the other side speaks to the host exactly as a local client does. When no host serves, one is
started (``openclaw-tui serve``, detached, as ``mcp`` does) unless ``--no-start`` says not to: a node client
asks that when it reconnects after a drop, since a host that went away was stopped or crashed, and an operator
who stopped it meant it. Under an ssh forced command (``command="openclaw-tui bridge"`` in
``authorized_keys``) the command line the client asked for arrives in ``$SSH_ORIGINAL_COMMAND``; of it, only
``--no-start`` is honoured, since it can only do less. It ends when either side closes: end of input
half-closes the socket, so answers already on their way still arrive, and the bridge exits once the host has
closed its side (or after ``DRAIN_S``); the host closing ends it at once. Nothing it starts is left running
but the host, which is meant to stay. Exit status: 0 after a clean end, 2 (one line on stderr) when no host
could be reached or started.

**One node over time** (``nodelink``). A ``NodeLink`` holds at most one ssh bridge and, over it, a
``RemoteHost`` mirror of the node's sessions, kept current from the node's event stream: the same mirror
``attach`` shows. The first use connects (and lets the bridge start a host there if none runs); a call in
flight then costs one round trip on the open connection. When the connection drops, the node is *unreachable*:
the mirror keeps the sessions last seen, a task reconnects with backoff (without starting a host: one that
went away was stopped or crashed, as ``mcp`` treats its own), and a call made meanwhile tries again itself if
the last try is old enough (a second, doubling with each failed try in a row), else fails at once with what
the last try said. When the node answers again its sessions are live again. The mirror is a new one after each
reconnect (``on_up`` says when).

**The core's node calls** (``sshnodes``: the core's ``tools.nodecalls.Nodes`` over one ssh bridge per node).
Every call for a node goes over that node's ``NodeLink`` in the caller's scope, and its result comes back in
this host's terms: the node's session ids become ``NODE/ID`` (in ``details`` and wherever the text names them)
and ``details.node`` says where it ran. Exit notices are the delicate part, since two paths carry them: the
node publishes each on its event stream, which the link mirrors, and it also queues it for the agent and
prepends it to the agent's next result *on that node*. Each notice is handed to this host (``NoticeRelay``:
queued for the agent's next result wherever it goes, and published as this host's own ``exit-notification``)
the first time either path brings it, and never again: the ids already told are remembered per node host (its
pid, so a restarted node's new ids are not mistaken for old ones). A poll that returned a session's end, or a
kill, counts as told, as it does for local sessions. When a link comes up, each agent with sessions there is
listed once, which collects what the node queued while nobody was connected.

**The dashboard across nodes** (``fleet``). With ``[nodes.NAME]`` in the config, the dashboard shows the local
host's sessions and every node's in one list. ``FleetHost`` is that one host, a ``HostView`` like any other,
so the dashboard needs no other code path: beside the local host it holds one mirror per node, over the same
ssh bridge ``attach --node`` uses (``FleetNode``). A node's session shows as ``NODE/ID``, the id agents see,
so an id copied from the dashboard works in an agent's call, and every action on it (tool calls, input,
resize, the terminal view's raw stream) goes to that node's host with the bare id. A node that goes away keeps
its sessions as last seen (``node_states`` says why it does not answer, the dashboard greys its rows) while a
task connects again with backoff, each time over a new link and a new mirror; when one comes up, its sessions
are live again. No host is started on a node that went away: one that did was stopped or crashed.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .bridge import run_bridge as run_bridge
    from .fleet import open_fleet as open_fleet
    from .nodelink import mirror_over as mirror_over
    from .ssh import NodeUnreachable as NodeUnreachable, SshLink as SshLink
    from .sshnodes import SshNodes as SshNodes

__all__, __getattr__ = lazy_exports(__name__, __file__)
