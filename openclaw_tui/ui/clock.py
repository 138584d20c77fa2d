"""Every time the dashboard shows goes through this module.

Tests replace :func:`runtime_ms` and :func:`wall_clock` here (one place) to freeze them; the formatting
helpers are pure.
"""

from __future__ import annotations

import time
from typing import Any


def runtime_ms(session: Any) -> int:
    """How long ``session`` has been running (or ran), in milliseconds."""
    return int(session.runtime_ms())


def wall_clock(at: float) -> str:
    """A local ``HH:MM:SS`` for an epoch timestamp (input transcript times)."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def format_runtime(ms: int) -> str:
    """``7s``, ``3m04s``, ``1h02m``: short enough for a narrow column, exact to the second."""
    seconds = max(0, ms) // 1000
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
