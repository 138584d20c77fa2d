"""Containment: which processes are a session's, and how to end them all with proof.

A session runs in one container, named by ``details.containment``: its own cgroup v2 on the gateway where the
host can make one, else a marked family under a subreaper host, or bubblewrap's PID namespace in the sandbox
(``enclosures``). The host's side (``hostcontainment``) sets up what must survive the host's sudden death (the
``watchdog``, the ``liverecord``) and answers which session a process belongs to, for the socket's caller
check. ``runner`` starts a child under a pipe or a PTY and moves its bytes on the event loop (each read stamped with
its time, once a millisecond), ``preexec`` is the child's step into its container
before the command runs, ``sandbox`` wraps a run in bubblewrap, ``leftovers`` finds a session's family without
a cgroup and ends what a dead host left, and ``run`` is what the launcher keeps while a run lives;
``credentials`` is the table of the stores where the user's tools keep their credentials, which sandboxed runs
find empty.

**The three containers** (``enclosures``), each ending its members the same way
(``procs.termination.end_members``) and reporting what it could not end:

- ``cgroup``: the session's own cgroup v2, which its leader joins before exec. Its members are exactly the
  session's processes, however they detached, and an empty group is the proof.
- ``subreaper``: no cgroup could be had; the session's family is found by its marker, its process group and
  session, and ancestry (``leftovers.family``), with the host adopting orphans.
- ``sandbox``: bubblewrap's PID namespace holds everything the program starts, and it dies with its first
  process, so the launcher's process group is all there is to end; once the leader is gone, the kernel has
  already killed and reaped the whole namespace.

**The host's containment** (``hostcontainment``). On the gateway each session gets its own cgroup v2 when the
host can make one (root, or a delegated subtree of the host's own cgroup), else the host becomes a child
subreaper and marks every session's processes; sandboxed sessions are held by the sandbox itself.
``host.containment`` in the config (``auto``, the default, or ``subreaper``) can force the fallback.
Everything that must survive the host's sudden death is set up with the first gateway session: the host's
cgroup, the watchdog and the live record. Leaving ends what is left and removes them. A new host sweeps the
records of dead hosts (``Containment.sweep``). It also answers who a process belongs to
(``Containment.session_of``), so the socket can confine a caller running inside a session: its cgroup first,
then its ancestry (a session's leader, or its process group), then the marker it carries.

**A family without a cgroup** (``leftovers``). A session's family is every process that carries its marker, is
in its process group or the session its leader leads, or descends from one of those: between them that catches
``&``, ``nohup``, a changed process group, ``setsid`` and a double fork (the marker is inherited through all
of them), and a descendant that cleared its environment while its parent is still one of ours.

**When a host dies.** A host killed outright (SIGKILL, the OOM killer) runs no cleanup, and
``PR_SET_PDEATHSIG`` only takes each session's leader with it. Its ``watchdog`` (at once) and the next host to
start (from the on-disk live record) end what it left: its cgroups, the processes carrying its markers, and
the groups of its sessions' leaders. Both run outside any event loop. A process group number is trusted only
while its leader's pid is unused or still the leader (same start time), and every signal goes through
``procs.proctable.signal_exact``, so a pid reused since the record was written is never touched. ``leftovers``
imports only the standard library and two modules of ``procs`` (``cgroups`` and ``proctable``), so the
watchdog can load it without the rest of the package.

- The watchdog is a tiny process that each host running gateway sessions starts (``python -I -S`` on
  ``watchdog.py``, in a session of its own so a terminal's signals never reach it), whose stdin is a pipe from
  the host. It only reads it: end of file means every copy of the write end is closed, i.e. the host is gone
  (or closed it on purpose when shutting down). It then ends whatever is left of the host, as the next host's
  sweep would (``leftovers.end_host``, from the host's live record), notes what it ended in that record for
  the next host to report, prints one line, and exits. The host's write end is close-on-exec, so no session
  inherits it. A host that re-execs itself in place calls ``Watchdog.keep_across_exec`` first: the fd then
  survives the exec, nothing reaches end of file, and the watchdog keeps watching the new image. Run as a
  script, ``watchdog.py`` loads ``containment.leftovers`` (and the ``procs`` modules it uses) by path under a
  private package name, so the watchdog starts in milliseconds without importing the rest of the product.
- The live record is for the case where the watchdog died too: each host keeps a small record under the state
  directory (``$XDG_STATE_HOME/openclaw-tui/live/<host id>.json``, ``~/.local/state/...`` by default): its own
  pid and start time, its containment and cgroup, and per running gateway session the leader's pid, start time
  and process group, and cgroup. Every host start sweeps the records of hosts that are dead (pid gone, or
  reused: the start time differs), ends what they left, and reports it, together with what their watchdog
  already ended. Cgroups named after a dead host but without a record (the host died before writing one) are
  ended and removed too. Writes are a few kilobytes, replaced atomically, on the loop, at most once per loop
  iteration (a burst of starts costs one write); failing to write (a read-only home) is logged once and never
  fails a run. A session started just before the host died may miss the record: the watchdog and the sweep
  still find it through the host's cgroup or marker, which the record names from the first gateway session on.

**Entering the container** (``preexec``). Two things must hold from the child's first instruction on: it is in
its session's cgroup (so everything it starts is too), and it dies if the host dies (``PR_SET_PDEATHSIG``).
Both are done in the child itself, before the command's own program starts. Running Python there costs a full
``fork`` of the host and its interpreter's after-fork work (about 10 ms per spawn for a host of a few hundred
MB, all of it on the event loop), so pipe children use a tiny launcher instead and keep the cheap ``vfork``
path: ``/bin/sh`` writes itself into ``cgroup.procs`` and execs util-linux's ``setpriv --pdeathsig KILL``,
which execs the command, all in the same process. Without ``setpriv`` (or for PTY children, which ptyprocess
forks in Python anyway) the same two steps run as a ``preexec_fn``. The kernel sends the parent-death signal
when the *thread* that forked exits, so spawns stay on the event loop's thread, which lives as long as the
host.

**Moving bytes** (``runner``). One runner serves both kinds of child: the output fds are watched with
``loop.add_reader`` and drained with non-blocking reads (several per wake-up, so a flooding child is read at
close to PTY speed and never blocks on a full buffer), stdin writes are queued and drained with
``loop.add_writer`` so a child that never reads cannot stall the loop, and the exit is observed through a
pidfd, so no thread per session and no blocking ``waitpid``. On a PTY master ``EIO`` means every slave fd is
closed: end of file. A host that re-executes itself in place hands each child over whole (``Child.handover``):
it stays the host's child across the exec, so the next image adopts its fds and opens its pidfd again.

**The sandbox** (``sandbox``). A sandboxed run sees the system read-only and writes only its workdir, ``/tmp``
and ``$TMPDIR``. Like Codex's workspace-write sandbox, ``/tmp`` is the host's own (a tool, a virtualenv or a
file under ``/tmp`` is the same inside as outside, and what a run writes there is where the user looks for
it), unless ``tools.exec.sandbox.tmp = "private"`` gives each run an empty one of its own. Secret paths are
found empty, under ``/tmp`` too (glob patterns such as ``/tmp/ssh-*`` are expanded at each run, so agent
sockets made after the host started are hidden as well); only paths that exist are masked, so no mount point
is ever created in the user's home, and a path the operator shows inside a hidden directory is bound back,
read-only, from the host's own. Inside a writable directory (a workdir that holds a hidden file, as the home
directory does), each directory on the way to a mask is bound onto itself: it stays writable, but a mount
point cannot be renamed, so no run can move a secret to a path the next run would not hide. Most secrets do
not exist, so each costs one ``faccessat`` at a spawn; the others are resolved once per directory.

What a mask costs is bwrap's: every bind (and every ``--remount-ro``) makes it read the whole mount table
again (about 0.3 ms each on an idle machine, several times that under load, and more as the table grows),
while a tmpfs costs next to nothing. So a hidden directory is a tmpfs of mode 0555, unwritable without a
remount (a run that chmods it writes to a tmpfs of its own that ends with it; a bwrap older than 0.5, which
cannot set the mode, remounts it read-only instead), and the tmpfs masks nothing is mounted in come last, so
no bind reads their lines. A hidden file must be a bind of ``/dev/null``, so a tool directory (the one a
store of the table sits in, never the home directory, an XDG base, a runtime directory or ``/tmp``) that
holds nothing but hidden entries is hidden whole, as one tmpfs (``toolgroups``): the run sees no more and no
less than the masks one by one would show it, an empty directory instead of one of empty files. Not where a
run may write (at, in or above a writable mount), since a file the tool writes beside its secret must reach
the disk as before, and not when something inside is shown or an entry is a link. A run has
its own PID and IPC namespaces (and, with networking off, an empty network one). The host must manage it
exactly like a host run, so the wrapping serves the host's process-group kill: ``bwrap`` runs in the session's
group with the terminating signals ignored (``env --ignore-signal``), so a SIGTERM reaches the program inside
and gets its grace period instead of collapsing the sandbox at once, while SIGKILL kills ``bwrap`` and
``--die-with-parent`` takes the namespace with it; the program gets default dispositions back before its shell
starts. ``--new-session`` is not used: it would cut a PTY run off its controlling terminal (it guards a shared
terminal against injected input, and a session's PTY is its own); instead a small helper makes a PTY job the
terminal's foreground group, so Ctrl-C and the kernel's input-wait evidence see the program rather than the
launcher. Whether the sandbox works is probed once per process, off the event loop, and cached.

**The credential table** (``credentials``). Each row is one tool's store as that tool's own documentation
places it: a file or directory under ``{home}``, ``{config}``, ``{data}``, ``{state}``, ``{cache}`` (each XDG
base directory *and* its default under the home directory, since a file left in ``~/.config`` still holds its
secret when ``XDG_CONFIG_HOME`` points elsewhere), ``{runtime}`` (``$XDG_RUNTIME_DIR`` and
``/run/user/<uid>``) or ``{uid}``, and the variable that moves it (both places are hidden then). Where a tool
mixes credentials with ordinary configuration or caches, the row names only the credential files (``names``),
so that ``~/.cargo/registry``, ``~/.m2/repository`` or the Hugging Face cache keep working inside. A row whose
``at`` is empty exists only through its variable (``GOOGLE_APPLICATION_CREDENTIALS`` names a key file).

Only the host's own environment expands the table, never a call's ``env``: an agent that sets
``HOME=/elsewhere`` must not move what is hidden. The expansion is pure string work, cached per
environment; whether each place exists is asked at every run (``sandbox.masks``), so the stores a
user creates later are hidden from the runs that start after them.

**What a run keeps** (``run``). The launcher's ``start`` (:func:`~openclaw_tui.core.launch.launcher.start`)
returns a :class:`~.run.SessionRun` instead of writing on the session: the child (its pid, its PTY), where it
runs (its placement: the sandbox or the host itself), the container that holds it, and the PTY size it was
opened with. The session takes the facts it must remember (``Session.launched``); the launcher keeps its own
bookkeeping there, for ending the run: whether a sandboxed program can already hear signals, and the one
termination every kill of the run shares.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import credentials as credentials, sandbox as sandbox
    from .credentials import Kind as Kind, Store as Store
    from .enclosures import ContainmentKind as ContainmentKind, Enclosure as Enclosure
    from .hostcontainment import Containment as Containment
    from .liverecord import Swept as Swept
    from .run import Placement as Placement, SessionRun as SessionRun
    from .runner import Child as Child, spawn_pipe as spawn_pipe, spawn_pty as spawn_pty
    from .sandbox import HIDING as HIDING, Mask as Mask, masks as masks

__all__, __getattr__ = lazy_exports(__name__, __file__)
