"""A small file system of a test's own, to fill: a tmpfs mounted under the test's folder (root only)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_disk(tmp_path: Path, size: str) -> Iterator[Path]:
    """A ``size`` tmpfs at ``tmp_path/disk``, unmounted after (writable again first, if a test made it
    read-only); the test is skipped, saying why, where mounting is refused."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(mount)], capture_output=True, check=False)
        subprocess.run(["umount", "-l", str(mount)], check=True)
