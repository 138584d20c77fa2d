"""A scratch machine for the credential tests: a home outside /tmp, a host on a real config, a sandboxed
run that must complete, and the sandbox this machine has (the tests skip where it has none)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config import load_settings
from openclaw_tui.core.containment import credentials, sandbox

from .hosts import hosting

FOUND = sandbox.availability()
needs_sandbox = pytest.mark.skipif(not FOUND.usable, reason=f"no sandbox here: {FOUND.reason}")
ELEVATED = "[tools.elevated]\nenabled = true\n"


@pytest.fixture
def root(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch machine outside /tmp: ``home`` is HOME, ``run`` the runtime directory, ``state`` the
    state directory; no variable of the test runner moves a store elsewhere."""
    base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else os.path.expanduser("~")
    path = Path(tempfile.mkdtemp(prefix="openclaw-creds-test-", dir=base))
    for sub in ("home", "run", "state", "work"):
        (path / sub).mkdir(mode=0o700)
    for name in (*credentials._READS, "SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "OPENCLAW_TUI_SOCKET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(path / "home"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path / "run"))
    monkeypatch.setenv("XDG_STATE_HOME", str(path / "state"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def make_host(tmp_path: Path, config: str = "") -> AbstractAsyncContextManager[ToolHost]:
    """A host on a real config file, reading this process's (patched) environment as ``serve`` would."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(ELEVATED + config)
    return hosting(ToolHost(settings=load_settings(cfg, env=dict(os.environ))))


async def run(host: ToolHost, command: str, agent: str = "main", **kw: Any) -> str:
    r = await host.call({"tool": "exec", "command": command, **kw}, agent=agent)
    assert r["details"]["status"] == "completed", r
    assert r["details"]["host"] == ("gateway" if kw.get("elevated") else "sandbox"), r["details"]
    return str(r["text"])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
