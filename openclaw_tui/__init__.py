"""openclaw-tui: run and supervise the shell jobs AI agents start.

The public Python API is :class:`ToolHost`: ``await host.call({"tool": "exec", ...}, agent="main")``. It is
imported on first use, so a command that needs none of the host (``openclaw-tui call``, which scripts run in
loops) starts without loading it.

The folder tree is the architecture, each layer importing only those below it (the import-linter contracts in
``pyproject.toml``): ``cli``, the entry point, over ``commands`` (the subcommands that talk to a running
host), over ``ui`` (the Textual dashboard) and ``toolhost`` (the product's host: the core's ``SessionHost``
with the terminal engine and the configured nodes), over ``remote`` (the socket, the mirror of a host in
another process, MCP and nodes), over ``terminal`` (the terminal engine and its emulator), over ``core``
(sessions and the two tools, with no UI). Each package's ``__init__`` says what it offers other packages (its
face: see :mod:`openclaw_tui.core.exports`) and holds the notes on its design.

The command line is a thin layer over the host: ``cli`` only parses arguments and hands over, and imports
nothing before it is needed (``call`` runs in scripts' loops, and loads only a socket client)::

    openclaw-tui [--demo]        the dashboard on the host serving the socket (one is started in the
                                 background if none serves; quitting can leave its sessions running)
    openclaw-tui serve           the host with no UI, for agents and dashboards, outliving them all
    openclaw-tui serve --reexec  the running host re-executes itself on the code installed now
    openclaw-tui --version       this command's version and the serving host's
    openclaw-tui attach          the dashboard on a running host (never starts one)
    openclaw-tui mcp [--agent]   an MCP server on stdio for an agent (starts `serve` if none runs)
    openclaw-tui call '<json>'   one tool call against the running host, JSON result on stdout
                                 (``-`` reads the call from stdin, ``@FILE`` from a file)
    openclaw-tui bridge          this machine's host socket on stdin/stdout (what `ssh NODE` runs)
    openclaw-tui nodes           the configured nodes and whether each answers
    openclaw-tui attach --node N the dashboard on node N's host, over ssh
    openclaw-tui sandbox         what a sandboxed run would not see here, and what it sees by the
                                 operator's choice (``--agent NAME`` for an agent's own settings)
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: importing it costs a script a few ms per call

if TYPE_CHECKING:
    from .toolhost import ToolHost

from .core.version import __version__

__all__ = ["ToolHost", "__version__"]


def __getattr__(name: str) -> object:
    if name == "ToolHost":
        from .toolhost import ToolHost

        return ToolHost
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
