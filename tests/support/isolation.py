"""A test run kept apart from the machine it runs on, and the marker that finds what a test left running.

:func:`isolate` gives the run a home, state and config folders of its own and drops the product's variables from the
environment it started in, so a user's config, or a socket an outer host exported, never changes what a host
or command under test does. Every child inherits :data:`MARK`, so :func:`leftovers` finds one even after
it was re-parented away from the test process (the case an orphan check by parentage would miss), and
:func:`source_files` lists the source tree, which a run must leave as it found it.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path

import psutil
import pytest

MARK = "OPENCLAW_TUI_TEST_MARK"
SETTINGS_VARIABLES = ("OPENCLAW_TUI_SOCKET", "OPENCLAW_TUI_CONFIG", "OPENCLAW_BASH_", "OPENCLAW_PROCESS_", "PI_BASH_")
FOLDERS = pytest.StashKey[list[Path]]()  # where a run keeps what isolate() made, to remove at its end
SOURCES = pytest.StashKey[set[Path]]()  # the source tree's files when the run began
ROOT = Path(__file__).resolve().parents[2]


def isolate() -> list[Path]:
    """Set up this process's environment for a test run; returns the folders to remove when it ends."""
    for name in [n for n in os.environ if n.startswith(SETTINGS_VARIABLES)]:
        del os.environ[name]
    os.environ[MARK] = uuid.uuid4().hex
    state = tempfile.mkdtemp(prefix="openclaw-tui-test-state-")
    config = tempfile.mkdtemp(prefix="openclaw-tui-test-config-")
    # a home of the run's own, outside /tmp (which the sandbox may give a run privately): the user's shell
    # start-up files (a pyenv rehash waiting on its lock), dotfiles and credentials never reach a test
    home = tempfile.mkdtemp(prefix="openclaw-tui-test-home-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    os.environ["XDG_STATE_HOME"], os.environ["XDG_CONFIG_HOME"], os.environ["HOME"] = state, config, home
    return [Path(state), Path(config), Path(home)]


def leftovers() -> list[psutil.Process]:
    """Live processes (zombies aside) carrying this run's marker, other than this one."""
    me = os.getpid()
    found = []
    for proc in psutil.process_iter(["pid"]):
        if proc.pid == me:
            continue
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if proc.environ().get(MARK) == os.environ[MARK]:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def source_files(root: Path = ROOT) -> set[Path]:
    """The files of the product's and the tests' source trees under ``root``, bytecode caches and snapshots
    (which ``--snapshot-update`` writes on purpose) aside: a file a test writes there (a probe module, a
    recording) outlives the run and changes the next one."""
    found = set()
    for top in ("openclaw_tui", "tests"):
        for folder, subfolders, files in os.walk(root / top):
            subfolders[:] = [name for name in subfolders if name not in ("__pycache__", "__snapshots__")]
            found.update(Path(folder, name) for name in files)
    return found
