"""The kernel's limits on what a command line can carry (``MAX_ARG_STRLEN``, ``ARG_MAX``), checked before
anything is spawned.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

MAX_ARG_STRLEN = 32 * 4096  # bytes, NUL included: include/uapi/linux/binfmts.h
POINTER = 8
WRAPPER_ALLOWANCE = 64 << 10  # the shell, the sandbox's arguments, OPENCLAW_SHELL, pathPrepend


def arg_max() -> int:
    try:
        value = os.sysconf("SC_ARG_MAX")
    except (ValueError, OSError):
        value = -1
    return value if value > 0 else 2 << 20


def _bytes(text: str) -> int:
    return len(
        text.encode("utf-8", "surrogatepass")
    )  # never raises: an inherited variable may hold any bytes


def too_long(
    command: str, env: Mapping[str, object] | None, base_env: Mapping[str, str]
) -> tuple[str, str] | None:
    """``(failureKind, message)`` if the command or its environment is over the kernel's limits, else None."""
    size = _bytes(command) + 1
    if size > MAX_ARG_STRLEN:
        return "command-too-long", (
            f"the command is {size - 1:,} bytes, but Linux accepts at most {MAX_ARG_STRLEN - 1:,} bytes "
            "in one argument (MAX_ARG_STRLEN); write long scripts or data to a file and run that, or send "
            "input with process write; nothing was started"
        )
    overrides = {str(k): str(v) for k, v in (env or {}).items()}
    for key, value in overrides.items():
        entry = _bytes(key) + _bytes(value) + 2
        if entry > MAX_ARG_STRLEN:
            return "env-too-long", (
                f"env {key} is {entry - 2:,} bytes, but Linux accepts at most {MAX_ARG_STRLEN - 2:,} bytes "
                "in one environment variable (MAX_ARG_STRLEN); pass large values in a file; nothing was "
                "started"
            )
    total = (
        size
        + WRAPPER_ALLOWANCE
        + sum(_bytes(k) + _bytes(v) + 2 + POINTER for k, v in {**base_env, **overrides}.items())
    )
    limit = arg_max()
    if total > limit:
        return "command-too-long", (
            f"the command and its environment come to about {total:,} bytes, over the {limit:,} bytes Linux "
            "accepts for a program's arguments and environment together (ARG_MAX); send fewer or smaller env "
            "values; nothing was started"
        )
    return None
