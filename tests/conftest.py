"""Suite-wide guards: every process a test starts must be gone when the test ends, and nothing of the
machine's own reaches a test.

Children inherit a marker variable from the test process, so a leftover is found even after it was
re-parented away from us (the case an orphan check by parentage would miss). A leftover fails the test
that left it and is then killed so the next test starts clean. Hosts keep their live records under
``$XDG_STATE_HOME``, which points at a directory of the test run's own: the suite never writes to the
real home. ``$XDG_CONFIG_HOME`` points at an empty one, and the product's own variables are dropped from
the environment the run was started in: a config of the user's, or a socket an outer host exported, never
changes what a host or command under test does.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from .support.hosts import socket_folder
from .support.sshrig import A_CONFIG, RigUnavailable, SshRig, nodes_toml

MARK = "OPENCLAW_TUI_TEST_MARK"
SETTINGS_VARIABLES = ("OPENCLAW_TUI_SOCKET", "OPENCLAW_TUI_CONFIG", "OPENCLAW_BASH_", "OPENCLAW_PROCESS_", "PI_BASH_")
for _name in [n for n in os.environ if n.startswith(SETTINGS_VARIABLES)]:
    del os.environ[_name]
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


@pytest.fixture
def sock_dir() -> Iterator[Path]:
    """A private folder for the test's sockets, short whatever ``--basetemp`` is (see ``socket_folder``)."""
    folder = socket_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def rig() -> Iterator[SshRig]:
    """Real sshd on loopback with two node hosts behind it, fresh for each test and ended after it: node
    ``a`` reached through a key whose forced command runs the bridge to its host (its config allows
    elevated runs), node ``b`` through a plain key. Skipped, saying why, where sshd cannot run."""
    try:
        made = SshRig()
    except RigUnavailable as exc:
        pytest.skip(str(exc))
    try:
        made.add_node_host("a", A_CONFIG)
        made.add_node_host("b")
        try:
            made.start()
        except RigUnavailable as exc:
            pytest.skip(str(exc))
        yield made
    finally:
        made.close()


@pytest.fixture
def nodes_config(rig: SshRig) -> Path:
    """This machine's config: nodes a and b, elevated runs not enabled here."""
    return rig.write_config(nodes_toml(rig))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_leftovers: the test manages its own long-lived processes")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(STATE_HOME, ignore_errors=True)
    shutil.rmtree(CONFIG_HOME, ignore_errors=True)
