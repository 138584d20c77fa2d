"""Processes as the kernel shows them: ``/proc``, cgroups, the subreaper, ending them, and waiting for input.

The bottom of the process side: reading the process table (identity is pid and start time), cgroup v2, the
host as a child subreaper, signalling a set of processes until the OS confirms none is left (``termination``),
and the kernel's evidence that a PTY program is blocked reading its terminal (``inputwait``, with the scan
cache ``groupcache``). Reading one process's or one cgroup's files is a small read or write (microseconds),
safe on the event loop; a scan of all of ``/proc`` is not, so it runs in a worker thread, shared by concurrent
waiters and cached as below.

**Identity.** A pid alone names a process only while it lives, so anything that signals a process found
earlier (the sweep after a host died, the watchdog) identifies it by pid *and* start time (``stat`` field 22)
and signals it through a pidfd opened after checking (``proctable.signal_exact``), so a reused pid is never
killed. Where no cgroup can be had, a session's processes are recognised by what they carry and where they
come from: the marker variable every gateway session's environment holds (``OPENCLAW_TUI_SESSION=<host
id>/<session id>``, inherited by everything it starts), its process group and session, and ancestry.

**cgroups** (for gateway sessions). A cgroup is the one container a process cannot leave by ``setsid``, a
double fork or closing its fds, and the kernel keeps its membership, so "the group is empty"
(``cgroup.events``: ``populated 0``) is proof that nothing of a session is left, and ``cgroup.kill`` ends
every member at once, forks in flight included. The host makes one directory of its own under the cgroup it
runs in (``openclaw-tui.<host id>``) and one per session beneath it, so a host's sessions can also be killed
as a whole (the watchdog does that when the host dies). The v2 hierarchy is found from
``/proc/self/mountinfo``: it is ``/sys/fs/cgroup`` on unified machines and, for example,
``/sys/fs/cgroup/unified`` beside v1 hierarchies. Making groups works as root or in a delegated subtree (the
host's cgroup and its ``cgroup.procs`` writable by the host's user); anywhere else ``cgroups.host_parent``
says why not.

**The subreaper** (for hosts that cannot make cgroups). Without a cgroup, a process that detaches (``setsid``,
a double fork) would be re-parented to init and lost from sight. With ``PR_SET_CHILD_SUBREAPER`` the host
adopts every orphan of its descendants instead, so escapees stay in the host's family, and the host must then
reap those that die (a zombie costs a pid slot). The host only reaps children it can attribute to one of its
sessions (a session process seen alive, by marker or group, or a zombie in a session's group): other code in
the same process (a test, an embedding program) may have children of its own whose exit status it waits for.
``PR_SET_PDEATHSIG`` is set in each session's leader between fork and exec, so the leader is killed the moment
the host dies. The kernel fires it when the *thread* that forked exits, which is why every spawn happens on
the event loop's thread, which lives as long as the host.

**Ending with proof** (``termination``). Every way of containing a session (its cgroup, its marker and family,
the sandbox's process group) ends it the same way: SIGTERM to every member, a grace period, SIGKILL to
whatever is left (again to anything that appears meanwhile), then looking until the OS shows none remain. A
closed pipe or a reaped leader proves nothing about descendants, so only that last look counts; what it still
finds is handed back, and the caller reports the cleanup as uncertain, naming those pids, instead of clean. A
scan of ``/proc`` reads every process's ``stat`` file (and, for marker scans, its environment), so concurrent
waiters (a host closing 1000 sessions) share one scan instead of each doing their own: a waiter takes the
first scan that *started* after it asked, which keeps the answer as fresh as a private scan would be.

**Waiting for input** (``inputwait``). The idle rule (stdin writable and no output for a while) is what agents
get, and it is slow on purpose. On Linux the kernel can say more within a second: the terminal's foreground
process group is asleep in a read (or a select/poll) of the terminal, and if the terminal's echo is off while
it waits in canonical mode, it is almost certainly a password prompt. This is reported as ``waitingReason``
and makes ``waitingForInput`` true at once, so no result says a session waits while the flag says it does not.
The evidence needs the live members of a terminal's foreground group, and only a scan of ``/proc`` finds every
member of a group; scanning on every tick while any PTY session sat idle was most of an idle host's CPU (PERF
P8). Foreground groups seldom change, so ``groupcache`` keeps the last scan and trusts it while the groups
asked about are intact (each remembered member still alive and still in that group, or in the session that
group leads, as the scan's table lists them), and scans again when one is not, when a group is one the scan
did not see, and at the latest every ``RESCAN_S``, so a member that joined a group since is found soon.
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
    from .usage import Figures as Figures, Listening as Listening, Meter as Meter, ProcRow as ProcRow

__all__, __getattr__ = lazy_exports(__name__, __file__)
