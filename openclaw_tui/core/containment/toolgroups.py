"""Hiding a tool's directory whole when everything in it is hidden anyway: one empty tmpfs instead of a
``/dev/null`` bind per file, which bwrap pays for by reading the whole mount table again each time."""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..config import within

__all__ = ["tool_groups"]


def tool_groups(hidden: Iterable[str], shown: Iterable[str], tool_dirs: Iterable[str],
                keep_out: Iterable[str]) -> list[str]:
    """The ``tool_dirs`` (absolute, normalised) that hold nothing but ``hidden`` entries (real paths), deepest
    first: each is to be hidden as one directory, in place of what is hidden in it.

    A tool directory is grouped only where the sandbox sees it read-only: never at, in or above a path of
    ``keep_out`` (the writable mounts and the workdir, where a file the tool writes beside its secret must
    reach the disk as before), and never with a ``shown`` path inside. Only what is hidden already is
    grouped, so a run sees no more than before, and no less: an empty directory instead of one of empty
    entries. An entry that is a link never counts as hidden (its target is masked, not its name), and a
    directory that cannot be listed stays as it is.
    """
    names: dict[str, set[str]] = {}  # each directory holding a hidden entry: those entries' names
    for path in hidden:
        names.setdefault(os.path.dirname(path), set()).add(os.path.basename(path))
    if not names:
        return []
    kept, seen, tools = list(keep_out), list(shown), set(tool_dirs)
    groups: list[str] = []
    # as the table spells them: a hidden entry's directory is a real path, so one named through a link
    # never matches and keeps its masks one by one (and no tool directory costs a system call to rule out)
    pending = [d for d in names if d in tools]
    while pending:
        pending.sort(key=lambda d: d.count("/"))
        tool = pending.pop()  # deepest first: a group can complete its parent
        if any(within(tool, k) or within(k, tool) for k in kept) or any(within(s, tool) for s in seen):
            continue
        try:
            entries = set(os.listdir(tool))
        except OSError:
            continue
        if entries <= names[tool]:
            groups.append(tool)
            parent = os.path.dirname(tool)
            if parent not in names and parent in tools:
                pending.append(parent)
            names.setdefault(parent, set()).add(os.path.basename(tool))
    return groups
