"""One host, many frontends: the core behind a Unix socket, and the clients that reach it.

The wire format is JSON-RPC 2.0, one JSON object per line (the methods are in the docstring of ``wire``). Its
packages, bottom to top, each importing only those below it (an import-linter contract): ``wire`` (the
protocol and the clients' side of it), ``mirror`` (a host seen from another process, the seam the dashboard is
written against), and on them ``server`` (the host's side of the socket, and ``openclaw-tui serve``),
``nodes`` (other machines' hosts over OpenSSH) and ``mcp`` (the tools for an agent, as an MCP server on
stdio). One host serves every frontend of a user: agents' MCP servers, ``openclaw-tui call``, dashboards and
other machines' bridges all reach the same sessions, and the host outlives them all.
"""
