"""The suite's hosts close within a deadline: a test whose sessions will not end fails, it never hangs."""

from __future__ import annotations

import time

import psutil
import pytest

from openclaw_tui import ToolHost

from .support.hosts import hosting
from .support.waiting import wait_for


async def test_a_host_that_will_not_close_in_time_is_force_killed_and_the_test_fails() -> None:
    # a child that ignores SIGTERM keeps a close busy for the kill's grace (3 s): far past a 0.5 s deadline
    started = time.monotonic()
    with pytest.raises(pytest.fail.Exception, match=r"did not close within 0 s; its sessions were force-killed: .*sleep 345"):
        async with hosting(ToolHost(env={}, config_path="/dev/null"), deadline=0.5) as host:
            r = await host.call({"tool": "exec", "command": "trap '' TERM; echo ready; sleep 345", "background": True},
                                agent="main")
            session = host.session(r["details"]["sessionId"])
            await wait_for(lambda: "ready" in session.output.full_text(), what="the trap set")
    assert time.monotonic() - started < 3.0  # the forced kill, not the grace, ended it
    assert not [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", "345"]]
