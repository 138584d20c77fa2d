"""The command line's subcommands that talk to a running host: ``call``, ``--version``, ``serve --reexec``,
``nodes``, ``attach --node`` and ``approvals``.

Each is a function ``cli.py`` calls with the parsed arguments and whose return value is the exit status:
0, 1 for a failed result, 2 with one line on stderr when the call cannot be made. They start fast: each
imports only what it uses, and none loads the host itself.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .approvals import run_approvals as run_approvals
    from .call import run_call as run_call
    from .hostcontrol import run_reexec as run_reexec, run_version as run_version
    from .nodelist import run_attach_node as run_attach_node, run_nodes as run_nodes

__all__, __getattr__ = lazy_exports(__name__, __file__)
