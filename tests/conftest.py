"""Suite-wide guards: every process a test starts must be gone when the test ends.

Children inherit a marker variable from the test process, so a leftover is found even after it was
re-parented away from us (the case an orphan check by parentage would miss). A leftover fails the test
that left it and is then killed so the next test starts clean. Hosts keep their live records under
``$XDG_STATE_HOME``, and read their exec approvals' allowlist under ``$XDG_CONFIG_HOME``; both point at
directories of the test run's own: the suite never reads or writes the real home's.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
import uuid

import psutil
import pytest

MARK = "OPENCLAW_TUI_TEST_MARK"
os.environ[MARK] = uuid.uuid4().hex
STATE_HOME = tempfile.mkdtemp(prefix="openclaw-tui-test-state-")
os.environ["XDG_STATE_HOME"] = STATE_HOME
CONFIG_HOME = tempfile.mkdtemp(prefix="openclaw-tui-test-config-")
os.environ["XDG_CONFIG_HOME"] = CONFIG_HOME


def _leftovers() -> list[psutil.Process]:
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


@pytest.fixture(autouse=True)
def no_orphans(request: pytest.FixtureRequest):
    yield
    if request.node.get_closest_marker("allow_leftovers"):
        return
    deadline = time.monotonic() + 5
    left = _leftovers()
    while left and time.monotonic() < deadline:  # a process may still be on its way out
        time.sleep(0.05)
        left = _leftovers()
    if left:
        desc = [f"{p.pid} {' '.join(p.cmdline())}" for p in left if p.is_running()]
        for p in left:
            try:
                p.send_signal(signal.SIGKILL)
            except psutil.Error:
                pass
        if desc:
            pytest.fail(f"processes left running after the test: {desc}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_leftovers: the test manages its own long-lived processes")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(STATE_HOME, ignore_errors=True)
    shutil.rmtree(CONFIG_HOME, ignore_errors=True)
