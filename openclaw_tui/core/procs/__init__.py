"""Processes as the kernel shows them: ``/proc``, cgroups, the subreaper, ending them, and waiting for input.

The bottom of the process side: reading the process table (identity is pid and start time), cgroup v2,
the host as a child subreaper, signalling a set of processes until the OS confirms none is left
(``termination``), and the kernel's evidence that a PTY program is blocked reading its terminal
(``inputwait``, with the scan cache ``groupcache``).
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import (
        cgroups as cgroups,
        proctable as proctable,
        subreaper as subreaper,
        termination as termination,
    )
    from .groupcache import ForegroundGroups as ForegroundGroups
    from .inputwait import (
        IDLE_BEFORE_CHECK_MS as IDLE_BEFORE_CHECK_MS,
        echo_hidden as echo_hidden,
        foreground_group as foreground_group,
        kernel_evidence_available as kernel_evidence_available,
        kernel_wait_reason as kernel_wait_reason,
        reads_lines as reads_lines,
    )
    from .proctable import MARKER as MARKER, Proc as Proc
    from .subreaper import die_with_parent as die_with_parent
    from .termination import (
        POLL_S as POLL_S,
        fresh_table as fresh_table,
        holders as holders,
        members as members,
        terminate_pids as terminate_pids,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
