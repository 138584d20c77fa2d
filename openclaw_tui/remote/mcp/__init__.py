"""``openclaw-tui mcp``: the tools ``exec`` and ``process`` for an agent, as an MCP server on stdio.

``mcp_tools`` says what the agent sees (the tools, their descriptions and schemas, results mapped to MCP
content); ``mcp_server`` connects to the host serving this user's socket, starting one if none does.

Built on the official MCP Python SDK (``mcp`` 2.x, the lowlevel ``Server``). The server holds no sessions
itself: every tool call is forwarded to the running host over its Unix socket (``HostClient``), so agents and
operators see the same sessions, and jobs outlive this process.

**Finding the host.** A host serving at any of the user's candidate socket paths is used
(``openclaw_tui.remote.wire.socketpaths.find_host``: the runtime directory, whether or not the client passed
``XDG_RUNTIME_DIR`` on, then ``/tmp``; ``$OPENCLAW_TUI_SOCKET`` names the one path). When none serves at
start-up, this server starts one on the preferred path (``socket_path()``): ``python -m openclaw_tui [--config
FILE] serve``, detached (its own session, stdin ``/dev/null``, stdout and stderr appended to ``serve.log``
next to the socket, the working directory and environment of this process), and waits without blocking, up to
``AUTOSTART_TIMEOUT_S``, until the socket accepts connections. That host outlives this server on purpose:
background jobs survive the agent's client restarting. Stop it like any ``serve`` (SIGTERM: its sessions end
the way a kill does). The connection is made in the background, so ``initialize`` and ``tools/list`` answer at
once; the first tool call waits for it.

**If the host goes away** (stopped or crashed), calls in flight and later calls return a ``failed`` result
saying so; this server keeps serving. Every later call first tries to reconnect to a host that is running
again (no second auto-start: an operator who stopped the host meant it), and the first result after a
reconnect says that sessions from before are gone. **If the host re-executes itself** (``serve --reexec``: the
same host, same pid and ``hostId``, its sessions kept), this server reconnects at once, by itself, and follows
its events again; a call in flight is sent again when it only reads (``process`` list, poll, log, screen) and
otherwise fails with ``failureKind: "host-restarted"``, saying to check with list/poll before retrying, since
it may or may not have run.

**Scope.** Every call runs in one agent scope: ``--agent NAME``, else the MCP client's name
(``clientInfo.name`` of the ``initialize`` request; on 2026-07-28 connections, of the first request's
envelope), else ``"mcp"``. An agent sees only the sessions its scope started.

**Results.** ``text`` becomes the text content, ``details`` the structured content, and ``details.status ==
"failed"`` sets ``isError``. An ``exec`` without ``workdir`` runs in this server's working directory (the
agent's project), not in the shared host's. A malformed call (unknown tool, bad or missing arguments) is a
failed result naming the problem, never a crash. Only what the SDK refuses before a tool is called
(``arguments`` that are not an object, a request without ``params``) is a JSON-RPC error, -32602, and a line
on stdin that is not JSON is dropped by the SDK's transport; the server keeps serving either way.

**Exit notifications.** The server subscribes to the host's events and turns every ``exit-notification`` for
its scope into an MCP log message (``notifications/message``, level ``info``, or ``warning`` when the job
failed), logger ``openclaw-tui``, data the notice text. The host also prepends queued notices to the agent's
next result; this server does not add them again. The SDK marks logging deprecated as of protocol 2026-07-28
(SEP-2577) and that revision has no other unsolicited server-to-client message, so delivery depends on the era
the client opened: on handshake connections (``initialize``, every client today) the message goes out at once
on the connection, honouring ``logging/setLevel``; on 2026-07-28 connections it rides a tool call still in
flight that opted in to log messages (for instance a timed ``poll``), and otherwise the notice arrives at the
top of the next result.

**Schemas** (``mcp_tools``). The input schemas are generated from the pydantic models the host validates with,
so the MCP surface can never drift from what the host accepts; the descriptions tell an agent how to use
yield, background and timed polls instead of sleep loops. Two things the models know that pydantic's schema
leaves out are added: a parameter's other names (``timeoutSeconds`` for exec's ``timeout``), which
``additionalProperties: false`` would otherwise forbid, and the limit the host clamps a poll's wait to. And
every property is given the one plain ``type`` that clients build their forms and argument conversion from:
pydantic writes an optional parameter as ``anyOf: [X, null]`` with no top-level ``type``, which the MCP
Inspector (and clients that map schemas onto a single-``type`` dialect, such as Gemini's) read as "a string" —
an array of keys then arrives as the text ``'["Enter"]'``. Leaving a parameter out is how a client says null.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .mcp_server import run_mcp as run_mcp

__all__, __getattr__ = lazy_exports(__name__, __file__)
