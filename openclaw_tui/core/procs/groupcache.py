"""Who is in each PTY's foreground process group, for the kernel's input-wait evidence, without reading every
process on the machine twice a second.
"""

from __future__ import annotations

import time

from . import proctable
from .termination import Table, fresh_table

RESCAN_S = 3.0


class ForegroundGroups:
    """The last process scan, reused while it still describes the groups asked about."""

    def __init__(self) -> None:
        self._table: Table | None = None
        self._at = 0.0

    async def members(self, groups: list[int]) -> dict[int, list[int]]:
        """The live pids of each process group in ``groups``."""
        table = self._table
        if table is None or time.monotonic() - self._at > RESCAN_S or not all(_intact(table, g) for g in groups):
            table = self._table = await fresh_table()
            self._at = time.monotonic()
        return {g: table.get(g, []) for g in groups}

    def forget(self) -> None:
        """Nothing to watch now: the next question gets a fresh scan."""
        self._table = None


def _intact(table: Table, group: int) -> bool:
    pids = table.get(group)
    if not pids:
        return False
    for pid in pids:
        proc = proctable.read(pid)
        if proc is None or not proc.live or group not in (proc.pgrp, proc.sid):
            return False
    return True
