"""Where the host keeps its state and allowlist, and the places besides the credential stores that a sandboxed
run must not see (agents' sockets, ways out of the sandbox, the host's own directories)."""

from __future__ import annotations

import os
from collections.abc import Mapping

APPROVALS_FILE = "exec-approvals.json"


# Sockets that let a sandboxed program start processes outside it: container engines, D-Bus/systemd, and
# the servers of terminal multiplexers and editors, which run whatever command a client asks for.
SYSTEM_ESCAPES = (
    "/run/docker.sock",
    "/run/containerd/containerd.sock",
    "/run/podman/podman.sock",
    "/run/dbus/system_bus_socket",
    "/run/systemd/private",
    "/run/screen",
)
# The same, per user, under the runtime directory.
RUNTIME_ESCAPES = ("docker.sock", "podman", "bus", "systemd", "emacs")
# Agents under the runtime directory that hand out what the hidden keys and keyrings hold: gpg-agent,
# GNOME Keyring's control and ssh sockets (and gcr's ssh agent since GNOME 44), systemd's user ssh-agent,
# and KeePassXC's browser integration.
RUNTIME_AGENTS = ("gnupg", "keyring", "gcr", "ssh-agent.socket", "org.keepassxc.KeePassXC.BrowserServer")
# Under the host's /tmp, which sandboxed runs share: ssh-agent's sockets (a glob, expanded at each run),
# tmux's, emacs's and screen's servers, and the host's own fallback socket directory.
TMP_SECRETS = ("/tmp/ssh-*", "/tmp/tmux-{uid}", "/tmp/emacs{uid}", "/tmp/screens", "/tmp/openclaw-tui-{uid}")


def within(path: str, parent: str) -> bool:
    """``path`` is ``parent`` or below it (both absolute and normalised)."""
    parent = parent.rstrip("/") or "/"
    return path == parent or path.startswith(parent if parent == "/" else parent + "/")


def runtime_dirs(env: Mapping[str, str]) -> list[str]:
    """The user's runtime directories: ``$XDG_RUNTIME_DIR``, and ``/run/user/<uid>`` whether or not the
    environment names it (a client such as the MCP SDK may start us without ``XDG_RUNTIME_DIR``)."""
    dirs = [env["XDG_RUNTIME_DIR"]] if env.get("XDG_RUNTIME_DIR") else []
    return list(dict.fromkeys([*dirs, f"/run/user/{os.getuid()}"]))


def host_socket_dirs(env: Mapping[str, str]) -> list[str]:
    """Every directory the host's socket can be in, by the host's rule: ``$OPENCLAW_TUI_SOCKET``'s
    directory, else ``openclaw-tui`` in a runtime directory, else ``/tmp/openclaw-tui-<uid>``."""
    dirs = [os.path.join(runtime, "openclaw-tui") for runtime in runtime_dirs(env)]
    dirs.append(f"/tmp/openclaw-tui-{os.getuid()}")
    if env.get("OPENCLAW_TUI_SOCKET"):
        dirs.append(os.path.dirname(os.path.abspath(os.path.expanduser(env["OPENCLAW_TUI_SOCKET"]))))
    return list(dict.fromkeys(dirs))


def default_secrets(env: Mapping[str, str]) -> tuple[str, ...]:
    """Paths sandboxed runs must not see besides the credential stores (``credentials.py``): the agents
    that hand out keys, the ways out of the sandbox, and the host's own socket and state directories.

    All of the host's socket directories are listed (:func:`host_socket_dirs`), since hiding one that does
    not exist costs nothing. The ssh and gpg agents' sockets and the keyrings' are listed because they
    would hand out what hiding ``~/.ssh``, ``~/.gnupg`` and the keyrings keeps back; the container engines'
    sockets, the D-Bus buses (through which systemd starts anything) and the servers of tmux, screen and
    emacs because each is a way out of the sandbox.
    """
    paths = host_socket_dirs(env)
    for runtime in runtime_dirs(env):
        paths += [os.path.join(runtime, p) for p in (*RUNTIME_AGENTS, *RUNTIME_ESCAPES)]
    paths += [p.format(uid=os.getuid()) for p in TMP_SECRETS]
    paths += SYSTEM_ESCAPES
    paths.append(default_state_dir(env))  # the journal: every agent's output and input
    paths.append(default_approvals_file(env))  # what runs without asking: a sandboxed run must not widen it
    bus = env.get("DBUS_SESSION_BUS_ADDRESS", "")
    if bus.startswith("unix:path="):
        paths.append(bus.removeprefix("unix:path=").split(",")[0])
    if env.get("SSH_AUTH_SOCK"):
        paths.append(os.path.abspath(os.path.expanduser(env["SSH_AUTH_SOCK"])))
    return tuple(dict.fromkeys(paths))


def default_state_dir(env: Mapping[str, str]) -> str:
    """``$XDG_STATE_HOME/openclaw-tui``, else ``~/.local/state/openclaw-tui`` (a relative
    ``XDG_STATE_HOME`` is ignored, as the XDG spec says)."""
    base = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".local", "state")
    return os.path.join(base, "openclaw-tui")


def default_approvals_file(env: Mapping[str, str]) -> str:
    """``$XDG_CONFIG_HOME/openclaw-tui/exec-approvals.json`` (``~/.config``): the exec approvals' allowlist."""
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(base, "openclaw-tui", APPROVALS_FILE)
