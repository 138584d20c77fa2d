"""Upgrades through ``serve --reexec``: new code takes over, broken code is refused, and a failed take-over is a
host dying, never sessions running on unseen.

The host runs from its own copy of the package, first on ``PYTHONPATH``; a test replaces it, as ``pip
install -U`` replaces an installed package, then re-executes the host with the real command.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import openclaw_tui

from ..support.orphans import escape_command, new_mark, survivors
from ..support.serves import EXPECTED, FLOOD, ReexecServe, install, numbered, release_floods
from ..support.sessions import start_background
from ..support.waiting import wait_for

OLD = "0.0.9"


async def version(serve: ReexecServe) -> str:
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "openclaw_tui", "--version"],
                                   env=serve.env, text=True, capture_output=True, timeout=60, check=True)
    return done.stdout


async def test_an_upgrade_moves_the_host_onto_the_new_version_with_its_sessions(tmp_path) -> None:
    serve = ReexecServe(tmp_path, package=True)
    install(serve.installed, OLD)
    try:
        await serve.start()
        sid = await start_background(serve.call, "read x; echo got $x", pty=True, workdir=str(serve.workdir))
        assert f"serving: openclaw-tui {OLD} (pid {serve.proc.pid})" in await version(serve)
        install(serve.installed)  # the upgrade
        done = await serve.reexec()
        assert done.returncode == 0, done
        assert f"version {OLD} -> {openclaw_tui.__version__}; 1 sessions kept (1 running)" in done.stdout, done
        shown = await version(serve)
        assert f"openclaw-tui {openclaw_tui.__version__} (this command)" in shown, shown
        assert f"serving: openclaw-tui {openclaw_tui.__version__} (pid {serve.proc.pid}, re-executed 1 time)" in shown
        await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "new\n"})
        end = await serve.ended(sid)
        assert end["exitCode"] == 0 and "got new" in await serve.log(sid)
    finally:
        await serve.close()


async def test_code_that_cannot_take_over_is_refused_and_the_host_goes_on_as_it_was(tmp_path) -> None:
    serve = ReexecServe(tmp_path, package=True)
    try:
        await serve.start()
        sid = await start_background(serve.call, "read x; echo got $x", pty=True, workdir=str(serve.workdir))
        broken = serve.installed / "core" / "host" / "reexec_state.py"
        broken.write_text(broken.read_text() + "\ndef (\n")  # an upgrade that does not even import
        done = await serve.reexec()
        assert done.returncode == 1, done
        assert "cannot take over this host, so it stays as it is" in done.stderr, done.stderr
        assert "SyntaxError" in done.stderr, done.stderr
        async with await serve.client() as client:
            assert client.hello["generation"] == 0
        await serve.call({"tool": "process", "action": "write", "sessionId": sid, "data": "still\n"})
        assert "got still" in await serve.log(sid) or (await serve.ended(sid))["exitCode"] == 0
    finally:
        await serve.close()


async def test_a_new_image_that_cannot_resume_ends_as_a_dead_host_does_and_leaves_nothing(tmp_path) -> None:
    serve = ReexecServe(tmp_path, package=True)
    marks: list[str] = []
    try:
        await serve.start()
        for pty in (False, True):
            marks.append(new_mark())
            sid = await start_background(serve.call, escape_command(marks[-1]), pty=pty,
                                         workdir=str(serve.workdir))
            async def ready(sid: str = sid) -> bool:
                return "ready" in await serve.log(sid)
            deadline = asyncio.get_running_loop().time() + 30
            while not await ready():
                assert asyncio.get_running_loop().time() < deadline, "escapees not in place"
                await asyncio.sleep(0.05)
        code = serve.installed / "core" / "host" / "reexec_state.py"  # imports, passes the preflight, fails to restore
        code.write_text(code.read_text().replace(
            '    check_format(state)\n    core.containment.adopt',
            '    raise RuntimeError("a bug in the new code")\n    core.containment.adopt'))
        done = await serve.reexec()
        assert done.returncode == 1 and "did not come back" in done.stderr, done
        said = await serve.said("cannot resume")
        assert "a bug in the new code" in said, said
        assert await asyncio.to_thread(serve.proc.wait, 30) == 70
        await wait_for(lambda: not any(survivors(m) for m in marks), 15, "no session process left")
        install(serve.installed)
        await serve.start()  # the next host reports what the dead one left, as after a crash
        report = await serve.said("previous host")
        assert f"a previous host (pid {serve.procs[0].pid}) died" in report and "its watchdog ended" in report, report
    finally:
        await serve.close()


def own_interpreter(where: Path) -> Path:
    """This virtualenv again at ``where``, its python a link a test may remove: a host started with it
    execs that path when it re-executes itself."""
    if not (Path(sys.prefix) / "pyvenv.cfg").exists():
        pytest.skip("the suite does not run in a virtualenv, whose layout this test copies")
    shutil.copy(Path(sys.prefix) / "pyvenv.cfg", where / "pyvenv.cfg")
    (where / "bin").mkdir()
    (where / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    site = where / Path(sysconfig.get_paths()["purelib"]).relative_to(sys.prefix)
    site.parent.mkdir(parents=True)
    site.symlink_to(sysconfig.get_paths()["purelib"])
    return where / "bin" / "python"


async def test_a_host_whose_exec_fails_goes_on_as_it_was_with_its_sessions_and_output(tmp_path) -> None:
    serve = ReexecServe(tmp_path, package=True)
    (tmp_path / "venv").mkdir()
    python = own_interpreter(tmp_path / "venv")
    # The installed code passes its check, then the interpreter is gone by the time the host execs it.
    check = serve.installed / "remote" / "server" / "serve.py"
    check.write_text(check.read_text().replace(
        '    print(json.dumps({"version": __version__, "formats": [MIN_FORMAT, FORMAT]}))\n',
        '    print(json.dumps({"version": __version__, "formats": [MIN_FORMAT, FORMAT]}))\n'
        '    __import__("os").unlink(sys.executable)\n'))
    try:
        await serve.start(python=str(python))
        flood = await start_background(serve.call, FLOOD, workdir=str(serve.workdir))
        prompt = await start_background(serve.call, "read x; echo got $x", pty=True,
                                        workdir=str(serve.workdir))
        done = await serve.reexec()
        assert done.returncode == 1 and "could not re-execute itself and goes on as it was" in done.stderr, done
        release_floods(serve.workdir)
        said = await serve.said("re-exec failed")
        assert "FileNotFoundError" in said and "goes on as it was" in said, said
        async with await serve.client() as client:
            assert (client.hello["generation"], client.hello["pid"]) == (0, serve.proc.pid)
        end = await serve.ended(flood)
        assert end["exitCode"] == 0 and numbered(await serve.log(flood)) == EXPECTED
        await serve.call({"tool": "process", "action": "write", "sessionId": prompt, "data": "on\n"})
        assert (await serve.ended(prompt))["exitCode"] == 0 and "got on" in await serve.log(prompt)
    finally:
        await serve.close()
