"""Which program a command's name runs: the lookup on the run's PATH, and the file it is with symlinks resolved.

A bare name is looked up on the absolute entries of the PATH the run will have (a relative entry would
make ``./name`` count as a PATH lookup); a name with a slash is a path from the run's directory. What an
allowlist pattern judges is the real file (symlinks resolved), so a link named like an allowed program
is judged as what it points to; what runs is the path the lookup found, written out whole, so the shell
looks nothing up again. Both are looked up once more just before the spawn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Resolved:
    """``found``: the absolute path that runs (None: no such program); ``real``: it with symlinks resolved;
    ``looked_up``: found by a PATH lookup (the name had no slash)."""

    found: str | None
    real: str | None
    looked_up: bool


def resolve(name: str, path: str, cwd: str) -> Resolved:
    """The program ``name`` names for a run in ``cwd`` whose PATH is ``path``."""
    if "/" in name:
        return _program(os.path.normpath(os.path.join(cwd, name)), looked_up=False)
    if not name:
        return Resolved(None, None, True)
    for entry in path.split(os.pathsep):
        if os.path.isabs(entry):
            found = _program(os.path.join(entry, name), looked_up=True)
            if found.found is not None:
                return found
    return Resolved(None, None, True)


def _program(candidate: str, looked_up: bool) -> Resolved:
    if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
        return Resolved(candidate, os.path.realpath(candidate), looked_up)
    return Resolved(None, None, looked_up)


def quoted(word: str) -> str:
    """``word`` in single quotes, which every POSIX shell (and zsh) reads as exactly these characters."""
    return "'" + word.replace("'", "'\\''") + "'"
