"""Where the host's socket lives: a per-user directory nobody else can enter.

``$OPENCLAW_TUI_SOCKET`` names the socket directly (tests, several hosts side by side). Otherwise it is
``$XDG_RUNTIME_DIR/openclaw-tui/host.sock``, and when there is no runtime directory,
``/tmp/openclaw-tui-<uid>/host.sock``. The directory is created with mode 0700 and refused if it belongs
to someone else or is open to others; the socket itself is made 0600.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path


class SocketDirError(RuntimeError):
    """The socket directory exists but is not safely ours."""


def socket_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get("OPENCLAW_TUI_SOCKET"):
        return Path(env["OPENCLAW_TUI_SOCKET"])
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "openclaw-tui" / "host.sock"
    return Path(f"/tmp/openclaw-tui-{os.getuid()}") / "host.sock"


def ensure_private_dir(path: Path) -> None:
    """Create the socket's directory 0700, or check that an existing one is ours and private."""
    directory = path.parent
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = directory.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise SocketDirError(f"{directory} is not a directory owned by you; refusing to put the host socket there")
    if info.st_mode & 0o077:
        os.chmod(directory, 0o700)
