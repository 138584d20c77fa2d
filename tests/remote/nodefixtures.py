"""Fixtures for the node tests: real sshd on loopback with two node hosts behind it (``tests/sshrig.py``).

Node ``a`` is reached through a key whose forced command runs the bridge to its host (and its config
allows elevated runs); node ``b`` through a plain key, its config naming the remote command (the venv's
python) and its socket, as a user does when ``openclaw-tui`` is not on ssh's PATH there. Each test gets
fresh ones; everything is ended when it ends. A test module imports the ``*_fixture`` functions, which
registers them under their short names.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from openclaw_tui import ToolHost

from ..hosting import hosting
from ..sshrig import RigUnavailable, SshRig

A_CONFIG = "[tools.elevated]\nenabled = true\n"


@pytest.fixture(name="rig")
def rig_fixture() -> Iterator[SshRig]:
    yield from started_rig(A_CONFIG)


def started_rig(a_config: str) -> Iterator[SshRig]:
    """sshd with node hosts a (``a_config``) and b running, closed afterwards; skips where there is no sshd."""
    try:
        made = SshRig()
    except RigUnavailable as exc:
        pytest.skip(str(exc))
    try:
        made.add_node_host("a", a_config)
        made.add_node_host("b")
        try:
            made.start()
        except RigUnavailable as exc:
            pytest.skip(str(exc))
        yield made
    finally:
        made.close()


def nodes_toml(rig: SshRig) -> str:
    b = rig.hosts["b"]
    return rig.node_toml("a") + rig.node_toml("b", key="plain", command=rig.plain_command(b), socket=str(b.socket))


@pytest.fixture(name="nodes_config")
def nodes_config_fixture(rig: SshRig) -> Path:
    """This machine's config: nodes a and b, elevated runs not enabled here."""
    return rig.write_config(nodes_toml(rig))


@pytest.fixture(name="host")
async def host_fixture(nodes_config: Path) -> AsyncIterator[ToolHost]:
    """The local host, with nodes a and b."""
    async with hosting(ToolHost(env={}, config_path=nodes_config)) as h:
        yield h
