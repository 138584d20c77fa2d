"""Where the host's socket lives: a per-user directory nobody else can enter, found from facts."""

from __future__ import annotations

import os
import socket
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

# The longest path a Unix socket address holds: sun_path, less the terminating NUL Python insists on.
SOCKET_PATH_MAX = 103 if sys.platform == "darwin" else 107
CHOOSE_PRIVATE = "set $OPENCLAW_TUI_SOCKET to a path in a directory only you can use (mode 0700)"


class SocketPathError(OSError):
    """The socket's path cannot be used: too long for a Unix socket, or something other than a socket."""


class SocketDirError(SocketPathError):
    """The socket directory exists but is not safely ours."""


RUN_USER = "/run/user"  # where systemd-logind makes each user's runtime directory
TMP = "/tmp"
CONNECT_TIMEOUT_S = 1.0
SOCKET_NAME = "host.sock"


def socket_path(env: Mapping[str, str] | None = None) -> Path:
    """Where a new host serves: ``$OPENCLAW_TUI_SOCKET``, else the first of :func:`candidate_paths`."""
    return candidate_paths(env)[0]


def candidate_paths(env: Mapping[str, str] | None = None) -> list[Path]:
    """Every path a host of this user may serve on, the preferred first (only the named one when
    ``$OPENCLAW_TUI_SOCKET`` is set)."""
    env = os.environ if env is None else env
    if env.get("OPENCLAW_TUI_SOCKET"):
        return [Path(env["OPENCLAW_TUI_SOCKET"])]
    found: list[Path] = []
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        found.append(Path(runtime) / "openclaw-tui" / SOCKET_NAME)
    users = Path(RUN_USER) / str(os.getuid())
    if _is_mine(users):
        found.append(users / "openclaw-tui" / SOCKET_NAME)
    found.append(Path(TMP) / f"openclaw-tui-{os.getuid()}" / SOCKET_NAME)
    return list(dict.fromkeys(found))


def find_host(env: Mapping[str, str] | None = None) -> Path | None:
    """The candidate path a host is serving on now (the first that accepts a connection), or None.

    Blocking (a connect per candidate that exists, bounded by ``CONNECT_TIMEOUT_S``): call it off the
    event loop, or before one runs.
    """
    env = os.environ if env is None else env
    named = bool(env.get("OPENCLAW_TUI_SOCKET"))
    for path in candidate_paths(env):
        # a derived candidate counts only in a directory of ours (another user could make /tmp/openclaw-tui-<uid>)
        if path.exists() and (named or _is_mine(path.parent)) and _accepts(path):
            return path
    return None


def _accepts(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(CONNECT_TIMEOUT_S)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def _is_mine(directory: Path) -> bool:
    try:
        info = directory.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def check_length(path: Path) -> None:
    """Refuse a path too long to bind or connect to, naming the limit (the OS only says "too long")."""
    size = len(os.fsencode(path))
    if size > SOCKET_PATH_MAX:
        raise SocketPathError(
            f"the socket path {path} is {size} bytes long, but a Unix socket path can be at most "
            f"{SOCKET_PATH_MAX} bytes; set $OPENCLAW_TUI_SOCKET to a shorter path"
        )


def ensure_private_dir(path: Path) -> None:
    """Create the socket's directory 0700, or check that an existing one is ours and private.

    An existing directory is never chmodded: tightening a shared one (``/tmp``) would break it for everyone
    else, so one that is not private is refused instead, with what to do about it.
    """
    directory = path.parent
    try:
        directory.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        pass  # checked below like any existing directory; a file in the way fails the check too
    info = directory.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise SocketDirError(f"{directory} is not a directory owned by you, so the host socket cannot go there; "
                             + CHOOSE_PRIVATE)
    if info.st_mode & 0o077:
        raise SocketDirError(f"{directory} is open to other users (mode {stat.S_IMODE(info.st_mode):04o}), so the "
                             "host socket cannot go there; " + CHOOSE_PRIVATE)
