"""The blocking client (``remote/wire/oneshot.py``) over a real socket: what ``--version`` and ``serve --reexec``
say when the host answers, drops them or is not there.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.version import __version__

from .scriptedhost import ScriptedHost, closes, greets


async def command(sock: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "openclaw_tui", *args], text=True, capture_output=True, timeout=90,
        env={**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}, check=False)


async def test_version_names_the_hosts_version_pid_and_re_execs(sock) -> None:
    async with ScriptedHost(sock, [greets("h1", generation=2)]):
        done = await command(sock, "--version")
    assert done.stdout == (f"openclaw-tui {__version__} (this command)\n"
                           f"serving: openclaw-tui 0 (pid 1, re-executed 2 times) on {sock}\n")


async def test_version_with_a_host_that_closes_unanswered_says_no_host(sock) -> None:
    async with ScriptedHost(sock, [closes]):
        done = await command(sock, "--version")
    assert done.returncode == 0 and done.stdout.endswith(f"serving: no host on {sock}\n"), done


async def test_reexec_of_a_host_that_closes_unanswered_is_one_line_and_status_1(sock) -> None:
    async with ScriptedHost(sock, [closes]):
        done = await command(sock, "serve", "--reexec")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "openclaw-tui: the host closed the connection before answering; nothing to re-execute\n"


async def test_reexec_with_no_host_is_one_line_and_status_1(tmp_path) -> None:
    sock = tmp_path / "nobody" / "host.sock"
    done = await command(sock, "serve", "--reexec")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"openclaw-tui: no openclaw-tui host is running on {sock}; nothing to re-execute\n"

