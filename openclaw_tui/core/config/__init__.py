"""Settings: the defaults of the contract, then the TOML file, then environment overrides.

``load_settings`` (``settings``) is the one reader; ``Settings`` holds the host's part and ``ExecSettings``
the exec and process tools' part (per agent too, captured when a call is admitted). ``[nodes.NAME]`` tables
are read by ``nodesettings``. Nothing here imports another package of the core.

**Keys.** They are those of the seed documents (``tools.exec.backgroundMs``, ``timeoutSec``, ``cleanupMs``,
``notifyOnExit``, ``notifyOnExitEmptySuccess``) plus the environment variables agents' hosts already set
(``OPENCLAW_BASH_*``, with the older ``PI_BASH_*`` names read when the new one is unset). Every number is
clamped to the range the contract gives, so a bad setting degrades to a sane one instead of breaking runs. A
value in the environment that is not a plain integer is ignored with a warning, never guessed at. Where runs
execute is configured here too (``tools.exec.host``, ``tools.exec.sandbox.*``, ``pathPrepend``,
``loginPath``), and so are the other machines calls may run on (``[nodes.NAME]``). The default secret paths
(the agents that hand out keys, the sockets that reach outside the sandbox, the host's own) are computed from
the environment and from facts of the machine (``/run/user/<uid>``), so that they include every directory the
host's socket can be in; the credential stores sandboxed runs find empty are the table in
``containment.credentials``, and ``[tools.exec.sandbox]`` ``hide``/``show``/``passEnv`` make the operator's
exceptions. Whether sessions are journaled (``tools.exec.persist``) and where the host keeps its state
(``[host] stateDir``, default ``$XDG_STATE_HOME/openclaw-tui``: the journal and the record of live sessions)
are host-wide; the state directory is a default secret too, since it holds every agent's output, and neither
it nor the socket directory can be shown.

**Nodes** (``[nodes.NAME]``): other machines whose hosts run calls, reached over OpenSSH. A node is named
once, here, and that name is what agents pass as ``node`` and what prefixes the ids of its sessions
(``gpu-box/brisk-atlas``), so it must be a plain word: letters, digits, ``.``, ``_`` and ``-``. ``ssh`` is any
destination ssh takes (``user@box``, ``box``, an alias of ``~/.ssh/config``), never an option. ``command`` is
the remote ``openclaw-tui`` as a shell command (for when it is not on ssh's non-interactive PATH, e.g.
``"~/.local/bin/openclaw-tui"`` or ``"/opt/venv/bin/python -m openclaw_tui"``), ``socket`` the remote host's
socket when it is not the default, and ``options`` extra ssh arguments, put before ours so they win (ssh keeps
the first value it reads for each option). A table that cannot be used is left out with a warning saying why
(given to the ``warn`` the config loader passes in, so ``nodesettings`` needs nothing of ``settings``); the
rest of the configuration still loads.

**Exec approvals** are configured here as OpenClaw has them (``tools.exec.security``, ``ask``, ``askFallback``,
``approvalTimeoutMs``, ``approvalRunningNoticeMs``, per agent too); their allowlist is a file of its own
(``exec-approvals.json`` beside the config, ``default_approvals_file``), hidden from the sandbox, so that
allowing a command for good never rewrites the TOML file.
**Notifications** (``[notify]``, ``notifysettings``): the hooks through which the host tells the operator of a
session that needs them (a shell ``command``, a ``webhook`` with its ``headers`` and body ``format``, the
``desktop`` over D-Bus), which ``events`` reach them, the hooks' ``timeoutMs`` and whether an attached
dashboard rings the terminal ``bell``. The rules and the hooks themselves are ``core.attention``'s.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .nodesettings import NodeSettings as NodeSettings
    from .notifysettings import (
        DEFAULT_EVENTS as DEFAULT_EVENTS,
        EVENTS as EVENTS,
        NotifySettings as NotifySettings,
    )
    from .places import (
        default_approvals_file as default_approvals_file,
        default_secrets as default_secrets,
        runtime_dirs as runtime_dirs,
        within as within,
    )
    from .settings import (
        ASK_LEVELS as ASK_LEVELS,
        DEFAULT_MAX_OUTPUT as DEFAULT_MAX_OUTPUT,
        DEFAULT_PENDING_MAX as DEFAULT_PENDING_MAX,
        HEAD_CHARS as HEAD_CHARS,
        MAX_FINISHED as MAX_FINISHED,
        MAX_RETAINED_TOTAL as MAX_RETAINED_TOTAL,
        POLL_WAIT_MAX_MS as POLL_WAIT_MAX_MS,
        PTY_SIZE as PTY_SIZE,
        SECURITY_LEVELS as SECURITY_LEVELS,
        TAIL_CHARS as TAIL_CHARS,
        YIELD_RANGE as YIELD_RANGE,
        ConfigWarning as ConfigWarning,
        ContainmentMode as ContainmentMode,
        ExecSettings as ExecSettings,
        PlacementMode as PlacementMode,
        Settings as Settings,
        clamp as clamp,
        default_config_path as default_config_path,
        load_settings as load_settings,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
