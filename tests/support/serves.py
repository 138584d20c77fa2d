"""Real ``openclaw-tui serve`` processes of a test's own: each with its own socket, config and state directory.

:class:`Serve` runs one host (and, after it dies, the next on the same socket) under a containment and starts
every escape route in it, for the orphan and restart tests. :class:`ReexecServe` is one to re-execute,
optionally from its own copy of the package (an "installed" version a test can upgrade or break before the
re-exec): ``reexec()`` runs the real ``openclaw-tui serve --reexec`` command; ``line()`` waits for the host's
next line of output (it says what it kept after each re-exec). The package copy is put first on
``PYTHONPATH``, so the host, its preflight and its next image all import it, as they would a package that
``pip install -U`` replaced.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import openclaw_tui
from openclaw_tui.remote.wire.client import HostClient

from .hosts import socket_folder
from .orphans import ROUTES, escape_command, new_mark
from .sessions import start_background
from .waiting import wait_for

CONFIG = """
[tools.exec]
host = "{where}"
killGraceMs = 500

[host]
containment = "{mode}"
"""
LINE_S = 60.0
LINES = 12000  # numbered lines per flood: all of them fit the retained text (200,000 chars)
GO = "go"  # the file in the flood's workdir that lets its last quarter out
FLOOD = ("python3 -u -c 'import os, time\n"
         f"for i in range(1, {LINES} + 1):\n"
         "    print(\"line\", i)\n"
         "    if i % 40 == 0: time.sleep(0.01)\n"
         f"    if i == {LINES * 3 // 4}:\n"
         f"        for _ in range(3000):\n"
         f"            if os.path.exists(\"{GO}\"): break\n"
         "            time.sleep(0.01)'")
"""A flood of numbered lines, paced so a re-exec falls in its middle, and held at three quarters until the
test writes :data:`GO` (at most 30 s), so a re-exec slowed by a loaded machine still finds it running."""


def release_floods(workdir: Path) -> None:
    """Let every :data:`FLOOD` in ``workdir`` print its last quarter (once the re-exec is done)."""
    (workdir / GO).touch()
EXPECTED = [f"line {i}" for i in range(1, LINES + 1)]


class Serve:
    """One ``openclaw-tui serve`` with its own socket, config and state directory."""

    stderr: int = subprocess.DEVNULL  # where its stderr goes (a subclass that reads it: a pipe)

    def __init__(self, tmp_path: Path, containment: str, state: Path | None = None) -> None:
        where = "sandbox" if containment == "sandbox" else "gateway"
        config = tmp_path / "config.toml"
        config.write_text(CONFIG.format(where=where, mode="subreaper" if containment == "subreaper" else "auto"))
        self.sock = socket_folder() / "run" / "host.sock"
        self.state = state or tmp_path / "state"
        self.env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(self.sock), "OPENCLAW_TUI_CONFIG": str(config),
                    "XDG_STATE_HOME": str(self.state)}
        self.procs: list[subprocess.Popen[str]] = []

    async def start(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=self.env, text=True,
                                stdout=subprocess.PIPE, stderr=self.stderr)
        self.procs.append(proc)
        assert "serving" in await self.line(proc)
        return proc

    @staticmethod
    async def line(proc: subprocess.Popen[str], stream: str = "stdout") -> str:
        pipe = getattr(proc, stream)
        assert pipe is not None
        return await asyncio.wait_for(asyncio.to_thread(pipe.readline), LINE_S)

    async def escapes(self, workdir: Path) -> list[str]:
        """Every escape route in a pipe session and in a PTY session; returns their two marks."""
        marks = []
        async with await HostClient.connect(self.sock) as client:
            for pty in (False, True):
                mark, cwd = new_mark(), workdir / f"pty-{pty}"
                cwd.mkdir()
                await start_background(client.call, escape_command(mark), workdir=str(cwd), pty=pty,
                                       agent="main")
                await wait_for(lambda: all((cwd / route).exists() for route in ROUTES), 30, "escapes in place")  # noqa: B023
                marks.append(mark)
        return marks

    def record(self) -> dict:
        (record,) = (self.state / "openclaw-tui" / "live").glob("*.json")
        return json.loads(record.read_text())

    async def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.to_thread(proc.wait, 30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        shutil.rmtree(self.sock.parent.parent, ignore_errors=True)


PACKAGE = Path(openclaw_tui.__file__).parent


class ReexecServe(Serve):
    """One ``openclaw-tui serve`` under test (``containment``: cgroup, subreaper or sandbox), run from a copy of
    the package when ``package`` (``installed``: what a test upgrades or breaks)."""

    def __init__(self, tmp_path: Path, containment: str = "subreaper", package: bool = False) -> None:
        super().__init__(tmp_path, containment)
        self.config = Path(self.env["OPENCLAW_TUI_CONFIG"])
        self.installed: Path | None = None
        if package:
            self.installed = tmp_path / "site" / "openclaw_tui"
            install(self.installed)
            self.env["PYTHONPATH"] = os.pathsep.join([str(self.installed.parent), self.env.get("PYTHONPATH", "")])
            self.env["PYTHONDONTWRITEBYTECODE"] = "1"  # the host never writes into the copy a test replaces
        self.proc: subprocess.Popen[str] | None = None
        self.workdir = tmp_path / "work"
        self.workdir.mkdir()

    async def start(self, *python_options: str, python: str = sys.executable) -> subprocess.Popen[str]:
        """The host, its errors in its output too (a host that cannot resume says why there)."""
        self.proc = await asyncio.to_thread(
            subprocess.Popen, [python, *python_options, "-m", "openclaw_tui", "serve"], env=self.env, text=True,
            cwd=self.workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.procs.append(self.proc)
        assert "serving" in await self.line()
        return self.proc

    async def line(self, proc: subprocess.Popen[str] | None = None) -> str:
        """The host's next line of output (its own, or its next image's)."""
        return await super().line(proc or self.proc)

    async def said(self, *words: str) -> str:
        """The host's next line holding one of ``words``; other lines (a sweep's report of dead hosts found
        in the shared cgroup tree, say) are passed over."""
        while True:
            line = await self.line()
            assert line, f"the host's output ended before it said any of {words}"
            if any(word in line for word in words):
                return line

    async def reexec(self) -> subprocess.CompletedProcess[str]:
        """``openclaw-tui serve --reexec``, as an operator runs it."""
        return await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "openclaw_tui", "serve", "--reexec"], env=self.env, text=True,
            capture_output=True, timeout=120, check=False)

    async def reexeced(self) -> str:
        """Re-exec and return what the resumed host said; fails the test if the command did not succeed."""
        done = await self.reexec()
        assert done.returncode == 0, done
        assert "re-executed in place" in done.stdout, done
        said = await self.said("resumed", "cannot resume")
        assert "resumed" in said, said
        return said

    async def client(self) -> HostClient:
        return await HostClient.connect(self.sock)

    async def call(self, call: dict[str, Any], agent: str | None = "main") -> dict[str, Any]:
        async with await self.client() as client:
            return await client.call(call, agent=agent)

    async def poll(self, sid: str, timeout_ms: int = 0, agent: str = "main") -> dict[str, Any]:
        return await self.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": timeout_ms}, agent)

    async def ended(self, sid: str, within: float = 60.0, agent: str = "main") -> dict[str, Any]:
        """The session's details once it ended (timed polls do the waiting)."""
        found: dict[str, Any] = {}

        async def done() -> bool:
            found.update((await self.poll(sid, 2000, agent))["details"])
            return found["status"] != "running"

        deadline = asyncio.get_running_loop().time() + within
        while not await done():
            assert asyncio.get_running_loop().time() < deadline, f"session {sid} did not end: {found}"
        return found

    async def log(self, sid: str) -> str:
        r = await self.call({"tool": "process", "action": "log", "sessionId": sid, "limit": 1_000_000})
        return r["text"]


def numbered(text: str) -> list[str]:
    """The flood's lines in ``text``, in order."""
    return [line for line in text.replace("\r", "").split("\n") if line.startswith("line ")]


def waiting_for_the_host(pid: int) -> bool:
    """The kernel shows ``pid`` blocked reading its socket: its request is out, its answer not yet in."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text() == "unix_stream_read_generic"
    except OSError:
        return False


def cli_call(serve: ReexecServe, request: dict, agent: str = "main") -> subprocess.Popen[str]:
    """``openclaw-tui call`` under way (started, not awaited)."""
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", "call", json.dumps(request), "--agent", agent],
                            env=serve.env, cwd=serve.workdir, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def install(where: Path, version: str | None = None) -> None:
    """Put this package at ``where`` (replacing what is there), with ``version`` as its version if given."""
    new = where.with_name(where.name + ".new")
    shutil.copytree(PACKAGE, new, ignore=shutil.ignore_patterns("__pycache__"))
    if version is not None:
        init = new / "core" / "version.py"
        init.write_text(init.read_text().replace(f'__version__ = "{openclaw_tui.__version__}"',
                                                 f'__version__ = "{version}"'))
    if where.exists():  # moved aside whole, then removed: a file the running host creates meanwhile harms nothing
        old = where.with_name(where.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        where.rename(old)
        new.rename(where)
        shutil.rmtree(old, ignore_errors=True)
    else:
        new.rename(where)
