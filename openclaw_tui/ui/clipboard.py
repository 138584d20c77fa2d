"""Copy that tells the truth: where the text went, whether that can be known, and a file to fall back on."""

from __future__ import annotations

import asyncio
import os
import stat
import time
from collections.abc import Mapping
from pathlib import Path

from textual.notifications import SeverityLevel

TMUX_ON = "on"


async def tmux_set_clipboard(env: Mapping[str, str] | None = None) -> str | None:
    """tmux's ``set-clipboard`` option when the dashboard runs inside tmux (``$TMUX``), else None;
    ``"unknown"`` when tmux does not answer."""
    env = os.environ if env is None else env
    if not env.get("TMUX"):
        return None
    try:
        proc = await asyncio.create_subprocess_exec(
            "tmux", "show-options", "-gv", "set-clipboard", env=dict(env),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, stdin=asyncio.subprocess.DEVNULL)
    except OSError:
        return "unknown"
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 3)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return "unknown"
    return out.decode(errors="replace").strip() or "unknown" if proc.returncode == 0 else "unknown"


def copies_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_RUNTIME_DIR/openclaw-tui/copies``, else ``/tmp/openclaw-tui-<uid>/copies`` (both 0700)."""
    env = os.environ if env is None else env
    runtime = env.get("XDG_RUNTIME_DIR")
    base = Path(runtime) / "openclaw-tui" if runtime and os.path.isdir(runtime) else Path(f"/tmp/openclaw-tui-{os.getuid()}")
    return base / "copies"


def save_copy(text: str, name: str, env: Mapping[str, str] | None = None) -> Path:
    """Write ``text`` to a new file named after ``name`` in :func:`copies_dir` (0600); returns its path."""
    folder = copies_dir(env)
    _private_dir(folder.parent)  # the parent first: mkdir(parents=True) would make it with the umask's mode
    _private_dir(folder)
    path = folder / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def _private_dir(folder: Path) -> None:
    """Make ``folder`` 0700, or check that an existing one is ours and closed to others (never chmodded)."""
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise PermissionError(f"{folder} is not a private folder of yours (mode {stat.S_IMODE(info.st_mode):04o})")


def copy_notice(what: str, lines: int, tmux: str | None, saved: Path | None,
                error: str = "") -> tuple[str, SeverityLevel]:
    """The notice for a copy of ``lines`` lines of ``what``, and its severity, given tmux's setting and the
    file it was saved to (None, and ``error``, when it could not be saved)."""
    also = f"Also saved to {saved}" if saved is not None else f"Not saved to a file: {error}"
    if tmux == TMUX_ON:
        return f"Copied {what} ({lines} lines) through tmux (set-clipboard on). {also}", "information"
    if tmux is not None:
        where = f"saved {what} to {saved}" if saved is not None else f"not saved to a file either: {error}"
        dropped = (f"Not copied: tmux drops clipboard requests from programs (set-clipboard is {tmux}); "
                   f"`tmux set -g set-clipboard on` enables them. {where[0].upper()}{where[1:]}")
        return dropped, "warning"
    sent = f"Sent {what} ({lines} lines) to the terminal's clipboard (OSC 52; some terminals ignore it). {also}"
    return sent, "information" if saved is not None else "warning"
