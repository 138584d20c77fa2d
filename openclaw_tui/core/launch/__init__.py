"""From an exec request to a supervised child: shell, environment, workdir and placement.

Everything that can be refused is checked before anything is spawned (a missing workdir, an ``env`` the policy
refuses, a command line too long for the kernel, a sandbox that is required but unusable, a workdir the
sandbox would hide), so a refused call leaves nothing behind. A run goes to the sandbox or to the host
(``gateway``) as ``tools.exec.host`` and ``elevated`` decide; a sandboxed run finds the credential stores of
the host's environment empty (``containment.credentials``) and inherits none of its secret variables
(``secretenv``), while a gateway run keeps the user's whole environment. What the login shell puts on PATH and
``pathPrepend`` are added after the env check, so configuration can extend PATH while a call still cannot
replace it. ``launcher.start`` then spawns the run inside its container (``containment``: a cgroup, a marked
family under a subreaper host, or the sandbox), which is what "nothing outlives the session" is checked
against, and ``supervise`` (one task per session) waits for the leader's exit or the timeout, makes sure no
descendant outlives the session, and only then declares it ended.

**The shell** (``shell``). Commands run in the user's ``$SHELL`` when it is one that takes ``-c`` as a POSIX
shell does (bash, zsh, dash, ksh, mksh, sh), without its rc files so a run does not depend on them; ``sh``
when it is unset or unusable; and, as upstream does, bash (when it is on PATH, else ``sh``) for a shell that
would read the command in another language (fish, nu, xonsh, tcsh...). A host started by a desktop launcher,
systemd or an MCP client often has a bare PATH, without what the user's login profile adds (nvm's node,
``~/.local/bin``), so commands that work in the user's terminal are "not found". The login shell (the same
choice as above, with ``-l``) is therefore asked for its PATH once per host, in a worker thread, and the
answer is cached: it runs with stdin at end of file (a profile that reads input does not wait), in a session
of its own, killed with everything it started after ``PROBE_TIMEOUT_S``; only what it prints between two
sentinels counts, so a greeting or other junk from a profile is ignored. ``merged_path`` adds the entries the
host's PATH lacks, each where the login shell has it relative to the entries both share, so the host's own
order (a virtualenv first, say) is kept and nvm's node still comes before the system's. Relative entries are
never added.

**The environment** (``envpolicy``). The command says what runs; ``env`` is for settings. A variable is
refused when setting it changes what runs, or whom the program trusts, without the command saying so,
following upstream OpenClaw's list for the same tools; every refusal names the key and its reason, and keys
are compared case-insensitively (``https_proxy`` is ``HTTPS_PROXY``). The table in ``envpolicy`` lists every
key, by reason: the shell and the loader (``PATH``, which ``tools.exec.pathPrepend`` extends instead,
``LD_*``, ``BASH_ENV`` ...); language runtimes that load code or options from the environment before the
program's own (``PYTHONPATH``, ``NODE_OPTIONS``, Ruby's ``GEM_PATH``/``GEM_HOME``/``BUNDLE_GEMFILE``, which
decide which gems ``require`` loads, the JVM's ``JAVA_TOOL_OPTIONS`` and the launchers' ``JAVA_OPTS`` and the
like, since ``-javaagent`` runs code, .NET's profiler variables, Lua's and PHP's); build tools told to run
another program around or instead of their compiler (``RUSTC_WRAPPER``, ``CARGO_HOME``, whose config names
wrappers, ``RUSTFLAGS`` for ``-C linker=``, ``GOFLAGS`` for ``-toolexec``, ``MAKEFLAGS``, CMake's compiler
launchers); helper commands git, ssh and less run behind the command (``GIT_SSH_COMMAND``, ``LESSOPEN`` ...),
and another repository or configuration whose hooks and settings run commands (``GIT_DIR``, ``GIT_CONFIG*``,
``HGRCPATH``); TLS trust (``NODE_TLS_REJECT_UNAUTHORIZED``, the CA bundles, OpenSSL's configuration and
modules, curl's and wget's configuration, which can turn checks off, and ``SSLKEYLOGFILE``, which writes the
keys that decrypt the traffic: children never inherit it from the host either); proxies (``HTTPS_PROXY`` and
the like, and ``NO_PROXY`` too, which decides what skips the proxy the host was set up with and so bypasses a
filtering or inspecting proxy); and package indexes, where code is downloaded from and whether it is checked
(``PIP_INDEX_URL``, ``UV_INDEX*``, every ``npm_config_*``, ``GOPROXY``, ``GOSUMDB``, ``CARGO_REGISTRIES_*``
...). Not refused, on purpose: ``PAGER``, ``GIT_PAGER``, ``EDITOR``, ``VISUAL``, ``GIT_EDITOR``, ``BROWSER``
(agents set them to ``cat`` or ``true`` to keep a run from waiting on a person, the safe direction; upstream
refuses them), ``CC``, ``CXX``, ``CFLAGS`` and the like (the build's own settings, as upstream has them),
``HOME`` and ``XDG_*`` (tests and tools need a scratch home), and variables that choose credentials or a
daemon (``KUBECONFIG``, ``DOCKER_HOST``, ``AWS_PROFILE``): they run nothing themselves.

**The kernel's limits** (``arglimits``). A command runs as one argument of the shell (``sh -c COMMAND``), and
Linux refuses to exec a program when any single argument or environment string is longer than
``MAX_ARG_STRLEN`` (32 pages, 131,072 bytes with its terminating NUL), or when all of them together pass
``ARG_MAX`` (``sysconf(SC_ARG_MAX)``, a quarter of the stack limit). Checked before the spawn, a 500 KB
command is refused at once, by name and with the limit, instead of travelling to the spawner to fail there as
"Argument list too long".

**Secret variables** (``secretenv``). A variable is withheld when its name looks secret by the rule that masks
names in the session list (``session.looks_secret``: KEY, TOKEN, SECRET, PASSWORD/PASSWD/PASSPHRASE,
CREDENTIAL, AUTH, or a PASS/PW part), when it is one of the well-known secrets that rule misses
(``WELL_KNOWN``: DSNs, webhook URLs, connection strings, JWTs, cookies, 1Password's and Bitwarden's session
keys, ``MYSQL_PWD``), or when its value carries a URL credential (``scheme://user:pass@host``, as in
``DATABASE_URL``, and a lone http user name, often a token), whatever its name. ``[tools.exec.sandbox]
passEnv`` (names or fnmatch globs, case-sensitive, as variables are) keeps any of them; the call's own ``env``
always arrives, since the agent chose it; a gateway run keeps the whole environment.

Names the rule catches on purpose, though they hold no secret themselves: ``SSH_AUTH_SOCK`` (the agent's
socket is hidden anyway, so inside it would name nothing; ssh then says it has no agent),
``XAUTHORITY`` (it names the X cookie, which lets a program type into every window; the cookie file is
hidden too), ``PASSWORD_STORE_*`` and ``GNOME_KEYRING_CONTROL`` (they point into stores the run cannot
see), ``PIP_KEYRING_PROVIDER``-style settings (no keyring is reachable inside). Names it leaves alone:
``GPG_AGENT_INFO``/``GPG_TTY``, ``KUBECONFIG``, ``DOCKER_CONFIG`` (paths; what they name is hidden by the
credential table), and the parts ``session.redact`` knows to name no secret (``GIT_AUTHOR_NAME``, so commits
inside keep their author; ``KEYBOARD``; ``TOKENIZERS_PARALLELISM``). A proxy variable whose URL holds a
password is withheld like any other credential; ``passEnv = ["HTTPS_PROXY"]`` keeps it.

**What a run would not see** (``exposure``). The facts behind ``openclaw-tui sandbox``, computed from the same
settings, credential table, masks and variable rule the runs use, so the report cannot drift from what a run
gets: the paths are those that exist now (a run masks what exists when it starts), the variables are names,
never values."""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .arglimits import too_long as too_long
    from .exposure import Exposure as Exposure, sandbox_exposure as sandbox_exposure
    from .launcher import (
        LaunchError as LaunchError,
        check_env as check_env,
        choose_placement as choose_placement,
        end_session as end_session,
        known_started as known_started,
        resolve_workdir as resolve_workdir,
        start as start,
        supervise as supervise,
        until_program_started as until_program_started,
    )
    from .secretenv import sandbox_environment as sandbox_environment
    from .shell import (
        end_probes as end_probes,
        login_path_async as login_path_async,
        start_probe as start_probe,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)
