"""Where the host's socket lives: a per-user directory nobody else can enter.

``$OPENCLAW_TUI_SOCKET`` names the socket directly (tests, several hosts side by side). Otherwise it is
``$XDG_RUNTIME_DIR/openclaw-tui/host.sock``, and when there is no runtime directory,
``/tmp/openclaw-tui-<uid>/host.sock``. A missing directory is created with mode 0700; an existing one is
used only if it is already ours and closed to group and others, and is never changed (``$OPENCLAW_TUI_SOCKET``
may name a shared directory such as ``/tmp``, whose mode is not ours to tighten). The socket itself is made
0600, and its path must fit a Unix socket address.
"""

from __future__ import annotations

import os
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


def socket_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get("OPENCLAW_TUI_SOCKET"):
        return Path(env["OPENCLAW_TUI_SOCKET"])
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "openclaw-tui" / "host.sock"
    return Path(f"/tmp/openclaw-tui-{os.getuid()}") / "host.sock"


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
