"""Nodes: other machines' hosts, reached over OpenSSH, in the calls and in one dashboard.

``ssh`` opens ``ssh NODE openclaw-tui bridge`` (``bridge`` is that command's side), ``nodelink`` keeps one
node's connection over time, ``sshnodes`` implements the core's node calls over those links, and
``fleet`` shows this machine's host and every node's as one host to the dashboard.
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
