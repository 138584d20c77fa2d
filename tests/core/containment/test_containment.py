"""Containment details: which one a host uses, honest ``uncertain`` cleanups, the live record and its sweep,
the watchdog across an exec of the host, and the settings that choose all this."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import warnings
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings, load_settings
from openclaw_tui.core.containment import liverecord, preexec as entry
from openclaw_tui.core.procs import cgroups, proctable

from ...support.hosts import hosting
from ...support.orphans import CGROUPS, needs_cgroups, new_mark, survivors
from ...support.waiting import wait_for

FREEZER = Path("/sys/fs/cgroup/freezer")


def gateway_host(containment: str = "auto", **exec_changes) -> ToolHost:
    exec_settings = replace(ExecSettings(), placement="gateway", kill_grace_s=0.5, **exec_changes)
    return ToolHost(settings=Settings(exec=exec_settings, containment=containment))


def test_the_cgroup2_mount_is_found_beside_v1_hierarchies(tmp_path) -> None:
    info = tmp_path / "mountinfo"
    info.write_text(
        "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
        "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
    )
    assert cgroups.mount_point(str(info)) == ("/sys/fs/cgroup/unified", "/")
    info.write_text("41 31 0:38 /some\\040group /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
    assert cgroups.mount_point(str(info)) == ("/sys/fs/cgroup", "/some group")
    info.write_text("32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n")
    with pytest.raises(cgroups.Unavailable):
        cgroups.mount_point(str(info))


@pytest.mark.parametrize("containment", ["auto", "subreaper"])
async def test_details_say_which_containment_a_session_has(containment: str) -> None:
    expected = "cgroup" if containment == "auto" and CGROUPS else "subreaper"
    async with gateway_host(containment) as host:
        assert host.supervisor.containment.kind == expected
        r = await host.call({"tool": "exec", "command": "echo hi"}, agent="a")
        assert r["details"]["containment"] == expected and r["details"]["host"] == "gateway"
        record = json.loads(host.supervisor.containment.record.path.read_text())
        assert record["containment"] == expected and record["watchdog"]["pid"] == host.supervisor.containment.watchdog.pid
    async with hosting(ToolHost(settings=Settings(exec=replace(ExecSettings(), placement="sandbox")))) as host:
        r = await host.call({"tool": "exec", "command": "echo hi"}, agent="a")
        assert r["details"]["containment"] == "sandbox"
        assert host.supervisor.containment.watchdog is None  # the sandbox dies with its host by itself


needs_freezer = pytest.mark.skipif(os.getuid() != 0 or not FREEZER.is_dir(), reason="needs root and the v1 freezer")


@contextlib.asynccontextmanager
async def freezer_group(name: str) -> AsyncIterator[Path]:
    """A v1 freezer group of the test's own: a process frozen in it cannot die, even of SIGKILL, until it is
    thawed, an outside force the host cannot overcome. Thawed and removed afterwards, once empty."""
    frozen = FREEZER / f"openclaw-tui-test-{os.getpid()}-{name}"
    frozen.mkdir()
    try:
        yield frozen
    finally:
        (frozen / "freezer.state").write_text("THAWED")
        await wait_for(lambda: not (frozen / "tasks").read_text().strip(), what="the frozen process to die")
        frozen.rmdir()


async def frozen_sleeper(host: ToolHost, frozen: Path, command: str) -> tuple[str, list[int]]:
    """Start ``command`` (which starts a ``sleep 300``) and freeze its sleeper: ``(session id, [its pid])``."""
    r = await host.call({"tool": "exec", "command": command, "background": True}, agent="a")
    sid = r["details"]["sessionId"]
    shell = host.session(sid).pid
    sleeper = await wait_for(lambda: [p for p in proctable.children_of(shell) if _cmdline(p) == "sleep 300"],
                             what="the sleeper")
    (frozen / "tasks").write_text(str(sleeper[0]))
    (frozen / "freezer.state").write_text("FROZEN")
    return sid, sleeper


@needs_freezer
@pytest.mark.parametrize("containment", ["auto", "subreaper"])
async def test_a_process_that_cannot_die_makes_the_cleanup_uncertain_naming_it(containment: str) -> None:
    # The only honest answer is "uncertain", naming the process.
    async with freezer_group(containment) as frozen:
        async with gateway_host(containment) as host:
            sid, sleeper = await frozen_sleeper(host, frozen, "setsid sleep 300 & wait")
            killed = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="a")
            assert killed["details"]["cleanup"] == "uncertain"
            assert killed["details"]["leftoverPids"] == sleeper
            assert f"still there: pid {sleeper[0]}" in killed["text"]
            (frozen / "freezer.state").write_text("THAWED")  # now it can die: closing the host ends it
        assert proctable.start_time(sleeper[0]) is None


@needs_freezer
@pytest.mark.parametrize("containment", ["auto", "subreaper"])
async def test_a_survivor_that_holds_nothing_still_makes_the_cleanup_uncertain(containment: str) -> None:
    # The sleeper above keeps the session's output open, which is a reason of its own to say "uncertain".
    # This one's stdin, stdout and stderr are /dev/null: its output closes with the shell, and only the kill's
    # own finding that a process of the session is still there can make the cleanup uncertain.
    async with freezer_group(f"{containment}-quiet") as frozen:
        async with gateway_host(containment) as host:
            sid, sleeper = await frozen_sleeper(host, frozen, "setsid sleep 300 </dev/null >/dev/null 2>&1 & wait")
            assert {os.readlink(f"/proc/{sleeper[0]}/fd/{fd}") for fd in range(3)} == {"/dev/null"}
            killed = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="a")
            assert host.session(sid).run.child.streams_closed.is_set()  # the output let go: nothing escaped
            assert killed["details"]["cleanup"] == "uncertain"
            assert killed["details"]["leftoverPids"] == sleeper
            assert f"still there: pid {sleeper[0]}" in killed["text"]
            (frozen / "freezer.state").write_text("THAWED")
        assert proctable.start_time(sleeper[0]) is None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _dead_host() -> dict:
    """The pid and start time of a host that is gone."""
    proc = subprocess.Popen(["true"])
    start = proctable.start_time(proc.pid) or 1
    proc.wait()
    return {"pid": proc.pid, "start": start}


async def test_the_sweep_ends_a_dead_hosts_processes_and_never_a_reused_pid(tmp_path) -> None:
    mark = new_mark()
    env = {**os.environ, mark: "1"}
    ours = subprocess.Popen(["sleep", "300"], env=env, start_new_session=True)
    marked = subprocess.Popen(["sleep", "301"], env={**env, proctable.MARKER: "dead.1.1/some-session"},
                              start_new_session=True)
    stranger = subprocess.Popen(["sleep", "302"], env=env, start_new_session=True)
    try:
        record = {"version": 1, "id": "dead.1.1", "host": _dead_host(), "sessions": {
            "ours": {"pid": ours.pid, "start": proctable.start_time(ours.pid), "pgid": ours.pid},
            # the record's pid is now someone else's (another start time): never to be touched
            "reused": {"pid": stranger.pid, "start": 12345, "pgid": stranger.pid},
        }}
        live = tmp_path / "live"
        live.mkdir()
        (live / "dead.1.1.json").write_text(json.dumps(record))
        mine = liverecord.LiveRecord(tmp_path, "mine")
        mine.update(sessions={"x": {"pid": stranger.pid, "start": 1, "pgid": stranger.pid}})  # a live host's
        reports = await asyncio.to_thread(liverecord.sweep, tmp_path, None, 0.5)
        (report,) = reports
        assert sorted(pid for pid, _ in report.ended) == sorted([ours.pid, marked.pid])
        assert "a previous host" in report.describe() and "this host ended 2 processes" in report.describe()
        assert ours.wait(5) == -signal.SIGTERM and marked.wait(5) == -signal.SIGTERM
        assert stranger.poll() is None  # neither the reused pid nor a live host's record touched it
        assert not (live / "dead.1.1.json").exists() and mine.path.exists()
    finally:
        for proc in (ours, marked, stranger):
            proc.kill()
            proc.wait()


HOST_THAT_EXECS = textwrap.dedent("""
    import asyncio, os, sys
    from dataclasses import replace
    from openclaw_tui import ToolHost
    from openclaw_tui.core.config.settings import ExecSettings, Settings

    async def main():
        host = ToolHost(settings=Settings(exec=replace(ExecSettings(), placement="gateway", kill_grace_s=0.5)))
        host.start()
        await host.call({"tool": "exec", "command": "setsid sleep 300 </dev/null >/dev/null 2>&1 & exec sleep 301",
                         "background": True}, agent="a")
        fd = host.supervisor.containment.watchdog.keep_across_exec()
        print(host.supervisor.containment.watchdog.pid, fd, flush=True)
        sys.stdin.readline()
        # the new image keeps the fd and knows nothing of the watchdog: it just waits to be killed
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)"])

    asyncio.run(main())
""")


async def test_the_watchdog_keeps_watching_across_an_exec_of_the_host_and_acts_when_it_dies() -> None:
    mark = new_mark()
    host = subprocess.Popen([sys.executable, "-c", HOST_THAT_EXECS], env={**os.environ, mark: "1"}, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        watchdog, fd = map(int, (await asyncio.to_thread(host.stdout.readline)).split())
        await wait_for(lambda: _escapee(mark), what="the setsid escapee")
        pipe = os.readlink(f"/proc/{watchdog}/fd/0")
        host.stdin.write("exec\n")
        host.stdin.flush()
        await wait_for(lambda: "time.sleep" in Path(f"/proc/{host.pid}/cmdline").read_text(), what="the exec")
        # the new image holds the write end: the watchdog cannot see end of file, so it goes on watching
        assert os.readlink(f"/proc/{host.pid}/fd/{fd}") == pipe
        assert proctable.start_time(watchdog) is not None and _escapee(mark)
        host.kill()
        host.wait()
        await wait_for(lambda: not survivors(mark), 10, "the watchdog to end the escapee")
        await wait_for(lambda: proctable.start_time(watchdog) is None, 10, "the watchdog to exit")
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        for entry in survivors(mark):
            os.kill(int(entry.split()[0]), signal.SIGKILL)


def _escapee(mark: str) -> list[str]:
    """The setsid sleep itself (the leader's and the host's command lines mention it too)."""
    return [s for s in survivors(mark) if s.split(" ", 1)[1] == "sleep 300"]


def test_containment_state_directory_and_grace_are_settings(tmp_path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[host]\ncontainment = "subreaper"\nstateDir = "~/somewhere"\n'
                      '[tools.exec]\nkillGraceMs = 250\n')
    settings = load_settings(config, env={})
    assert settings.containment == "subreaper" and settings.state_dir == os.path.expanduser("~/somewhere")
    assert settings.exec.kill_grace_s == 0.25
    config.write_text('[host]\ncontainment = "jail"\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert load_settings(config, env={}).containment == "auto"
    assert "auto | subreaper" in str(caught[0].message)
    assert liverecord.state_dir(None, {"XDG_STATE_HOME": "/x"}) == Path("/x/openclaw-tui")
    assert liverecord.state_dir(None, {}) == Path(os.path.expanduser("~/.local/state/openclaw-tui"))
    assert os.environ["XDG_STATE_HOME"] != os.path.expanduser("~/.local/state")  # the suite writes elsewhere


@needs_cgroups
async def test_without_setpriv_the_child_enters_its_container_in_python(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(entry, "_setpriv", [None])  # as on a system without util-linux's setpriv
    mark = new_mark()
    async with gateway_host() as host:
        r = await host.call({"tool": "exec", "command": f"export {mark}=1; setsid sleep 300 </dev/null >/dev/null 2>&1 &"
                             " sleep 300", "background": True}, agent="a")
        session = host.session(r["details"]["sessionId"])
        path = os.path.join(host.supervisor.containment.base, session.id)
        both = await wait_for(lambda: len(survivors(mark)) == 2 and survivors(mark), what="the escapee and the sleep")
        assert {int(s.split()[0]) for s in both} <= set(cgroups.procs(path))
        killed = await host.call({"tool": "process", "action": "kill", "sessionId": session.id}, agent="a")
        assert killed["details"]["cleanup"] == "confirmed" and survivors(mark) == []
