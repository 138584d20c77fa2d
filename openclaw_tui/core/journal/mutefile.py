"""The operator's mutes on disk: one small file, ``mutes.jnl``, replaced whole (written, fsynced, renamed).

It runs on the writer thread (or at load time) and raises ``OSError`` for the caller to turn into a degraded
journal, as ``disk`` does.
"""

from __future__ import annotations

import os
from typing import Any

from . import records as rec
from .disk import write_new

NAME = "mutes.jnl"


def write_mutes(root: str, mutes: dict[str, Any]) -> None:
    """Replace the mutes file under ``root`` with ``mutes`` (durable once this returns)."""
    path = os.path.join(root, NAME)
    tmp = path + ".tmp"
    write_new(tmp, rec.MAGIC + rec.json_record(rec.MUTES, mutes))
    os.replace(tmp, path)
    dirfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


def read_mutes(root: str) -> tuple[dict[str, Any], str | None]:
    """The mutes recorded under ``root`` (empty when none were), and a problem line when the file is damaged."""
    try:
        with open(os.path.join(root, NAME), "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return {}, None
    found = [payload for kind, payload, _ in rec.scan(data).records if kind == rec.MUTES]
    if not found:
        return {}, f"journal file {NAME} holds no readable mutes; sessions and agents are unmuted"
    value = rec.read_json(found[-1])
    return (value if isinstance(value, dict) else {}), None
