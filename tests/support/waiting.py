"""The suite's one way to wait: on a condition, with a generous deadline, never a fixed sleep as the assertion."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import Any


async def wait_for(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition",
                   pause: Callable[[float], Awaitable[Any]] = asyncio.sleep, step: float = 0.02) -> Any:
    """Wait until ``predicate()`` is truthy and return it; fail naming ``what`` after ``timeout`` seconds.

    ``pause`` lets a Textual pilot wait its own way (``pilot.pause``) so the app keeps processing messages.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pause(step)


async def finished(proc: subprocess.Popen[str], within: float = 60) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``proc``, killed if it has not ended ``within`` seconds."""
    try:
        out, err = await asyncio.to_thread(proc.communicate, timeout=within)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err
