"""Suite-wide guards and shared fixtures: every process a test starts must be gone when the test ends, and
nothing of the machine's own reaches a test.

The run is isolated before any test is collected (:func:`tests.support.isolation.isolate`): hosts keep their
live records under a ``$XDG_STATE_HOME`` of the run's own (the suite never writes to the real home),
``$XDG_CONFIG_HOME`` is an empty folder, and the product's variables from the environment the run started in
are dropped. Children inherit a marker variable, so a leftover is found even after it was re-parented away
from us; a leftover fails the test that left it and is then killed so the next test starts clean. Sockets
live in short folders of their own (``sock_dir``): a Unix socket's path holds 107 bytes, and ``tmp_path``
grows with ``--basetemp``. A run that leaves a file in the source tree fails. The node fixtures (``rig``,
``nodes_config``) serve the remote and dashboard tests alike, ``serve`` (a host to re-execute) the re-exec
and reconnect tests.
"""

from __future__ import annotations

import shutil
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psutil
import pytest

from .support.hosts import socket_folder
from .support.isolation import FOLDERS, SOURCES, isolate, leftovers, source_files
from .support.serves import ReexecServe
from .support.sshrig import A_CONFIG, RigUnavailable, SshRig, nodes_toml


@pytest.fixture(autouse=True)
def no_orphans(request: pytest.FixtureRequest):
    yield
    if request.node.get_closest_marker("allow_leftovers"):
        return
    deadline = time.monotonic() + 5
    left = leftovers()
    while left and time.monotonic() < deadline:  # a process may still be on its way out
        time.sleep(0.05)
        left = leftovers()
    if left:
        desc = [f"{p.pid} {' '.join(p.cmdline())}" for p in left if p.is_running()]
        for sig in (signal.SIGTERM, signal.SIGKILL):  # TERM first: a script's clean-up trap runs
            for p in left:
                try:
                    p.send_signal(sig)
                except psutil.Error:
                    pass
            _, left = psutil.wait_procs(left, timeout=1)
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


@pytest.fixture
async def serve(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[ReexecServe]:
    """A real ``openclaw-tui serve`` of the test's own, started, to re-execute; under the containment a test
    parametrizes it with (``indirect``), else subreaper."""
    host = ReexecServe(tmp_path, getattr(request, "param", "subreaper"))
    try:
        await host.start()
        yield host
    finally:
        await host.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_leftovers: the test manages its own long-lived processes")
    config.stash[FOLDERS] = isolate()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[SOURCES] = source_files()


def pytest_sessionfinish(session: pytest.Session) -> None:
    # A test that wrote into the source tree fails the run, naming what it left (and the files are kept, to
    # be looked at): the next run, or the next clone's commit, would carry them.
    left = sorted(source_files() - session.config.stash.get(SOURCES, set()))
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"\nfiles left in the source tree by this run: {[str(p) for p in left]}",
                                red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in config.stash.get(FOLDERS, []):
        shutil.rmtree(folder, ignore_errors=True)
