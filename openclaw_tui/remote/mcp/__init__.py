"""``openclaw-tui mcp``: the tools ``exec`` and ``process`` for an agent, as an MCP server on stdio.

``mcp_tools`` says what the agent sees (the tools, their descriptions and schemas, results mapped to MCP
content); ``mcp_server`` connects to the host serving this user's socket, starting one if none does.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .mcp_server import run_mcp as run_mcp

__all__, __getattr__ = lazy_exports(__name__, __file__)
