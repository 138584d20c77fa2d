"""The sandbox: what a sandboxed run can and cannot do, elevated runs, host selection, and its settings.

The behaviour tests run real commands under bubblewrap and are skipped where it cannot sandbox (the
argv, placement and configuration tests run everywhere). Paths that must be read-only live outside
``/tmp`` (in ``/var/tmp``), since ``/tmp`` is writable inside (the host's own, shared by default).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ConfigWarning, default_secrets, load_settings
from openclaw_tui.core.containment import credentials, sandbox
from openclaw_tui.core.launch.launcher import child_env
from openclaw_tui.core.procs.termination import members
from openclaw_tui.core.session import EventKind

from ...support.hosts import hosting
from ...support.sessions import poll_until, start_background

FOUND = sandbox.availability()
needs_sandbox = pytest.mark.skipif(not FOUND.usable, reason=f"no sandbox here: {FOUND.reason}")
PY = FOUND.python  # the interpreter the probe proved runs inside the sandbox


@pytest.fixture
def outside() -> Iterator[Path]:
    """A scratch directory that is not under /tmp (so the sandbox sees it through its read-only root)."""
    base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else os.path.expanduser("~")
    path = Path(tempfile.mkdtemp(prefix="openclaw-sandbox-test-", dir=base))
    (path / "work").mkdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def in_tmp() -> Iterator[Path]:
    """A scratch directory under the host's /tmp, wherever ``--basetemp`` put tmp_path."""
    path = Path(tempfile.mkdtemp(prefix="openclaw-sandbox-test-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def make_host(tmp_path: Path, *, elevated: bool = False, network: bool = True, host: str = "auto",
              secrets: list[str] | None = None, path_prepend: list[str] | None = None,
              env: dict[str, str] | None = None, tmp: str = "shared") -> AbstractAsyncContextManager[ToolHost]:
    """A host configured through a real config file, as an operator would."""
    lines = ["[tools.exec]", f'host = "{host}"']
    if path_prepend is not None:
        lines.append(f"pathPrepend = {path_prepend!r}".replace("'", '"'))
    lines += ["[tools.exec.sandbox]", f"network = {str(network).lower()}", f'tmp = "{tmp}"']
    if secrets is not None:
        lines.append(f"secrets = {secrets!r}".replace("'", '"'))
    lines += ["[tools.elevated]", f"enabled = {str(elevated).lower()}"]
    cfg = tmp_path / "config.toml"
    cfg.write_text("\n".join(lines) + "\n")
    return hosting(ToolHost(settings=load_settings(cfg, env=env or {})))


async def run(host: ToolHost, command: str, **kw: Any) -> dict[str, Any]:
    return dict(await host.call({"tool": "exec", "command": command, **kw}, agent="main"))


# -- what a sandboxed run cannot do, and an elevated run can ---------------------------------------


@needs_sandbox
async def test_a_write_outside_the_workdir_fails_inside_and_works_elevated(tmp_path, outside) -> None:
    work = outside / "work"
    cmd = "echo in > inside.txt; echo out > ../escaped.txt; echo done"
    async with make_host(tmp_path, elevated=True) as host:
        r = await run(host, cmd, workdir=str(work))
        assert r["details"]["host"] == "sandbox" and r["details"]["elevated"] is False
        assert (work / "inside.txt").read_text() == "in\n"
        assert not (outside / "escaped.txt").exists()
        assert "Read-only file system" in r["text"] and "done" in r["text"]

        r = await run(host, cmd, workdir=str(work), elevated=True)
        assert r["details"]["host"] == "gateway" and r["details"]["elevated"] is True
        assert (outside / "escaped.txt").read_text() == "out\n"


@needs_sandbox
async def test_tmp_is_the_hosts_own_so_files_and_programs_there_are_the_same_inside(tmp_path, outside,
                                                                                     in_tmp) -> None:
    # a program under the host's /tmp (a virtualenv's python, say) runs inside, and what a run writes to
    # /tmp (an editor saving /tmp/x.txt) is where the user looks for it.
    tool = in_tmp / "venv-python"
    tool.write_text("#!/bin/sh\necho tool under tmp ran\n")
    tool.chmod(0o755)
    saved = in_tmp / "saved.txt"
    async with make_host(tmp_path) as host:
        r = await run(host, f"{tool}; echo edited > {saved} && echo saved", workdir=str(outside / "work"))
        assert r["details"]["host"] == "sandbox"
        assert "tool under tmp ran" in r["text"] and "saved" in r["text"], r["text"]
        assert saved.read_text() == "edited\n"
        r = await run(host, "echo x > /var/tmp/openclaw-not-writable-$$ || echo refused", workdir=str(outside / "work"))
        assert "refused" in r["text"]  # only /tmp, $TMPDIR and the workdir are writable, not every temp dir


@needs_sandbox
async def test_a_private_tmp_is_empty_and_gone_with_the_run(tmp_path, outside, in_tmp) -> None:
    marker = in_tmp / "on-the-host"
    marker.write_text("x")
    written = Path("/tmp") / f"private-{uuid.uuid4().hex}"  # a name no other run or program has in /tmp
    async with make_host(tmp_path, tmp="private") as host:
        cmd = f"ls {marker} || echo unseen; echo private > {written} && echo tmp-ok"
        r = await run(host, cmd, workdir=str(outside / "work"))
        assert "unseen" in r["text"] and "tmp-ok" in r["text"], r["text"]
        assert not written.exists()


@needs_sandbox
async def test_tmpdir_is_writable_inside(tmp_path, outside, monkeypatch) -> None:
    scratch = outside / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    async with make_host(tmp_path) as host:
        r = await run(host, 'echo t > "$TMPDIR/f" && echo ok', workdir=str(outside / "work"))
        assert "ok" in r["text"] and (scratch / "f").read_text() == "t\n"


def test_tmpdir_never_opens_the_root_or_the_home_directory(outside) -> None:
    assert sandbox.writable_tmpdir(str(outside), private_tmp=False) == str(outside)
    assert sandbox.writable_tmpdir("/", private_tmp=False) is None
    assert sandbox.writable_tmpdir(os.path.expanduser("~"), private_tmp=False) is None
    assert sandbox.writable_tmpdir("/tmp", private_tmp=False) is None  # /tmp is bound already
    assert sandbox.writable_tmpdir(str(outside / "missing"), private_tmp=False) is None


@needs_sandbox
async def test_agent_sockets_and_the_hosts_socket_under_a_shared_tmp_stay_hidden(tmp_path, outside,
                                                                                 in_tmp) -> None:
    agent_dir = Path(tempfile.mkdtemp(prefix="ssh-openclawtest", dir="/tmp"))  # as ssh-agent makes them
    (agent_dir / "agent.1").write_text("agent-socket-stand-in\n")
    sock_dir = in_tmp / "hostsock"
    sock_dir.mkdir(mode=0o700)
    (sock_dir / "serve.log").write_text("host-log\n")
    try:
        env = {"OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock"), "SSH_AUTH_SOCK": str(agent_dir / "agent.1")}
        async with make_host(tmp_path, env=env, elevated=True) as host:
            cmd = f"cat {agent_dir}/agent.1 {sock_dir}/serve.log 2>/dev/null; ls -A {agent_dir} {sock_dir}; echo done"
            r = await run(host, cmd, workdir=str(outside / "work"))
            assert r["details"]["host"] == "sandbox" and "done" in r["text"]
            assert "stand-in" not in r["text"] and "host-log" not in r["text"]
            assert not {"agent.1", "serve.log"} & set(r["text"].split()), r["text"]
            r = await run(host, cmd, workdir=str(outside / "work"), elevated=True)
        assert "stand-in" in r["text"] and "host-log" in r["text"]  # the test can tell: they are there
    finally:
        shutil.rmtree(agent_dir, ignore_errors=True)


def test_every_tmp_directory_the_host_or_an_agent_uses_is_a_default_secret() -> None:
    secrets = default_secrets({})
    uid = os.getuid()
    for path in ("/tmp/ssh-*", f"/tmp/openclaw-tui-{uid}", f"/tmp/tmux-{uid}", f"/tmp/emacs{uid}"):
        assert path in secrets


@needs_sandbox
async def test_secret_paths_are_unreadable_inside_and_readable_elevated(tmp_path, outside) -> None:
    secret_dir = outside / "creds"
    secret_dir.mkdir()
    (secret_dir / "key").write_text("topsecret-dir\n")
    token = outside / "work" / "token"  # a secret file inside the workdir is hidden too
    token.write_text("topsecret-file\n")
    async with make_host(tmp_path, elevated=True, secrets=[str(secret_dir), str(token)]) as host:
        cmd = f"cat {secret_dir}/key; ls -A {secret_dir}; cat token; echo > {secret_dir}/new; echo done"
        r = await run(host, cmd, workdir=str(outside / "work"))
        assert r["details"]["host"] == "sandbox"
        assert "topsecret" not in r["text"] and "done" in r["text"]
        assert not (secret_dir / "new").exists()

        r = await run(host, cmd, workdir=str(outside / "work"), elevated=True)
        assert "topsecret-dir" in r["text"] and "topsecret-file" in r["text"]


@needs_sandbox
async def test_the_hosts_socket_is_unreachable_inside_and_reachable_elevated(tmp_path, outside) -> None:
    sock_dir = outside / "sock"
    sock_dir.mkdir(mode=0o700)
    path = sock_dir / "host.sock"
    connections = 0

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        writer.close()

    server = await asyncio.start_unix_server(on_connect, path=str(path))
    probe = f"{PY} -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect('{path}'); print('connected')\""
    try:
        # the socket's directory is a default secret, found from OPENCLAW_TUI_SOCKET as the host finds it
        async with make_host(tmp_path, elevated=True, env={"OPENCLAW_TUI_SOCKET": str(path)}) as host:
            r = await run(host, f"ls -A {sock_dir}; {probe}", workdir=str(outside / "work"))
            assert r["details"]["host"] == "sandbox"
            assert "connected" not in r["text"] and "host.sock" not in r["text"]
            assert connections == 0

            r = await run(host, probe, workdir=str(outside / "work"), elevated=True)
            assert "connected" in r["text"]
            await asyncio.sleep(0.1)
            assert connections == 1
    finally:
        server.close()
        await server.wait_closed()



@needs_sandbox
@pytest.mark.parametrize(
    ("variable", "value", "socket"),
    [
        ("XDG_RUNTIME_DIR", "rt", "rt/bus"),  # the session D-Bus: systemd-run --user starts anything
        ("XDG_RUNTIME_DIR", "rt", "rt/docker.sock"),  # rootless docker
        ("DBUS_SESSION_BUS_ADDRESS", "unix:path={outside}/dbus/sock,guid=1", "dbus/sock"),
    ],
)
async def test_sockets_that_start_processes_outside_are_hidden_by_default(tmp_path, outside, variable, value,
                                                                         socket) -> None:
    path = outside / socket
    path.parent.mkdir(parents=True, exist_ok=True)
    env = {variable: value.format(outside=outside) if "{" in value else str(outside / value)}
    server = await asyncio.start_unix_server(lambda r, w: w.close(), path=str(path))
    probe = f"{PY} -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect('{path}'); print('connected')\""
    try:
        async with make_host(tmp_path, elevated=True, env=env) as host:
            r = await run(host, probe, workdir=str(outside / "work"))
            assert r["details"]["host"] == "sandbox" and "connected" not in r["text"]
            r = await run(host, probe, workdir=str(outside / "work"), elevated=True)
            assert "connected" in r["text"]
    finally:
        server.close()
        await server.wait_closed()


def test_container_engine_and_system_bus_sockets_are_default_secrets() -> None:
    secrets = default_secrets({"HOME": "/h"})
    for path in ("/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock",
                 "/run/dbus/system_bus_socket", "/run/systemd/private"):
        assert path in secrets

_LIST_PROCS = 'for p in /proc/[0-9]*; do echo "${p#/proc/} $(cat $p/comm 2>/dev/null)"; done'


@needs_sandbox
async def test_ps_shows_only_the_sessions_processes_inside_and_everything_elevated(tmp_path) -> None:
    async with make_host(tmp_path, elevated=True) as host:
        r = await run(host, _LIST_PROCS)
        procs = [line.split(" ", 1) for line in r["text"].splitlines() if line[:1].isdigit()]
        names = {name for _, name in procs}
        assert names <= {"bwrap", "sh", "bash", "dash", "zsh", "ksh", "mksh"}, procs  # namespace init, shell
        assert len(procs) <= 3
        if shutil.which("ps"):
            r = await run(host, "ps -e -o pid=,comm=")
            rows = [line.split() for line in r["text"].splitlines() if line.strip()[:1].isdigit()]
            assert {row[1] for row in rows} <= names | {"ps"} and len(rows) <= 4, rows

        r = await run(host, _LIST_PROCS, elevated=True)
        assert str(os.getpid()) in {line.split(" ", 1)[0] for line in r["text"].splitlines()}


@needs_sandbox
async def test_network_off_blocks_loopback_to_a_listener_outside(tmp_path) -> None:
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    probe = f"{PY} -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2); print('connected')\""
    try:
        async with make_host(tmp_path, network=False, elevated=True) as host:
            r = await run(host, probe)
            assert r["details"]["host"] == "sandbox"
            assert "connected" not in r["text"] and r["details"]["exitCode"] != 0
            r = await run(host, probe, elevated=True)  # elevated runs outside: the setting does not apply
            assert "connected" in r["text"]
        async with make_host(tmp_path, network=True) as host:
            r = await run(host, probe)
            assert r["details"]["host"] == "sandbox" and "connected" in r["text"]
    finally:
        server.close()
        await server.wait_closed()


async def test_elevated_is_refused_when_not_enabled_and_nothing_runs(tmp_path, outside) -> None:
    marker = outside / "ran"
    async with make_host(tmp_path, elevated=False) as host:
        for call in ({"command": f"touch {marker}"}, {"command": f"touch {marker}", "background": True, "pty": True}):
            r = await run(host, elevated=True, **call)
            assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "elevated-refused"
            assert "tools.elevated.enabled" in r["text"]
            assert len(host.sessions()) == 0
        await asyncio.sleep(0.2)
        assert not marker.exists()


async def test_elevated_sessions_are_marked_from_the_first_event(tmp_path) -> None:
    async with make_host(tmp_path, elevated=True) as host:
        events: list[Any] = []
        host.subscribe(events.append)
        r = await run(host, "sleep 30", elevated=True, background=True)
        d = r["details"]
        assert d["elevated"] is True and d["host"] == "gateway"
        added = [e for e in events if e.kind == EventKind.ADDED]
        assert added and added[0].payload.to_json()["elevated"] is True and added[0].payload.to_json()["host"] == "gateway"
        listed = await host.call({"tool": "process", "action": "list"}, agent="main")
        assert listed["details"]["sessions"][0]["elevated"] is True
        await host.call({"tool": "process", "action": "kill", "sessionId": d["sessionId"]}, agent="main")


# -- the same management inside: PTY, keys, kill, exit status --------------------------------------


@needs_sandbox
async def test_pty_runs_keys_paste_and_resize_work_inside(host: ToolHost) -> None:
    # the program that catches Ctrl-C replaces the shell: dash (CI's /bin/sh) ends itself on a SIGINT it saw
    # while waiting, even when its child caught it, so a shell line after it would never run there
    code = "try:\n    input('prompt> ')\nexcept KeyboardInterrupt:\n    print('caught')\nprint('after', input('again> '))"
    cmd = f"tty && echo is-a-tty; stty size; read -p 'name? ' n; echo got=$n; read z; stty size; exec {PY} -c \"{code}\""
    sid = await start_background(host.call, cmd, pty=True, agent="main")
    assert host.session(sid).details()["host"] == "sandbox"
    out = await poll_until(host, sid, "main", lambda o: "name?" in o)
    assert "is-a-tty" in out and "30 120" in out
    await host.call({"tool": "process", "action": "paste", "sessionId": sid, "text": "bob", "bracketed": False},
                    agent="main")
    await host.call({"tool": "process", "action": "submit", "sessionId": sid}, agent="main")
    await poll_until(host, sid, "main", lambda o: "got=bob" in o)
    host.session(sid).resize(100, 40)
    await host.call({"tool": "process", "action": "submit", "sessionId": sid}, agent="main")
    await poll_until(host, sid, "main", lambda o: "40 100" in o and "prompt>" in o)
    await host.call({"tool": "process", "action": "send-keys", "sessionId": sid, "keys": ["C-c"]}, agent="main")
    await poll_until(host, sid, "main", lambda o: "again>" in o)  # the program caught Ctrl-C and lives on
    await host.call({"tool": "process", "action": "send-keys", "sessionId": sid, "literal": "yes", "keys": ["Enter"]},
                    agent="main")
    await poll_until(host, sid, "main", lambda o: "after yes" in o)
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    assert host.session(sid).exit.code == 0


@needs_sandbox
async def test_ctrl_c_ends_a_foreground_program_inside_as_on_the_host(host: ToolHost) -> None:
    sid = await start_background(host.call, "echo ready; sleep 300", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "ready" in o)
    await host.call({"tool": "process", "action": "send-keys", "sessionId": sid, "keys": ["C-c"]}, agent="main")
    s = host.session(sid)
    await asyncio.wait_for(s.done.wait(), 20)
    assert s.exit.signal == "SIGINT" and s.exit.cleanup == "confirmed"


@needs_sandbox
@pytest.mark.parametrize("pty", [False, True])
async def test_kill_ends_everything_inside_the_sandbox(host: ToolHost, pty: bool) -> None:
    sid = await start_background(host.call, "sh -c 'sleep 300 & sleep 300'", pty=pty, agent="main")
    s = host.session(sid)
    deadline = time.monotonic() + 20
    while len(members(s.pid)) < 5:  # launcher, namespace init, shell, two sleeps
        assert time.monotonic() < deadline, "children never started"
        await asyncio.sleep(0.02)
    r = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")
    assert r["details"]["exitSignal"] == "SIGTERM" and r["details"]["cleanup"] == "confirmed"
    assert members(s.pid) == []


@needs_sandbox
async def test_a_kill_right_after_the_start_is_still_a_sigterm(host: ToolHost) -> None:
    # the launcher ignores SIGTERM until the program starts; the kill waits for it instead of being lost
    for _ in range(3):
        sid = await start_background(host.call, "sleep 60", agent="main")
        start = time.monotonic()
        r = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")
        assert r["details"]["exitSignal"] == "SIGTERM", r["details"]
        assert time.monotonic() - start < 2.5


@needs_sandbox
async def test_exit_codes_and_signals_read_as_on_the_host(host: ToolHost) -> None:
    r = await run(host, "exit 3")
    assert r["details"]["exitCode"] == 3 and r["details"]["status"] == "completed"
    r = await run(host, "kill -TERM $$")
    assert r["details"]["exitSignal"] == "SIGTERM" and r["details"]["status"] == "failed"
    r = await run(host, "definitely-not-a-command-xyz")
    assert r["details"]["exitCode"] == 127 and r["details"]["failureKind"] == "not-found"


@needs_sandbox
async def test_a_workdir_under_tmp_is_the_real_one(host: ToolHost, in_tmp) -> None:
    r = await run(host, "pwd; echo hi > f.txt", workdir=str(in_tmp))
    assert str(in_tmp) in r["text"] and (in_tmp / "f.txt").read_text() == "hi\n"


@needs_sandbox
async def test_a_workdir_inside_a_secret_is_refused(tmp_path, outside) -> None:
    secret = outside / "work"
    async with make_host(tmp_path, secrets=[str(secret)]) as host:
        r = await run(host, "touch here", workdir=str(secret))
        assert r["details"]["failureKind"] == "workdir-secret" and "nothing was started" in r["text"]
        assert len(host.sessions()) == 0 and not (secret / "here").exists()


# -- PATH and the environment ----------------------------------------------------------------------


async def test_path_prepend_reaches_every_run_but_env_still_cannot_set_path(tmp_path, outside) -> None:
    bin_dir = outside / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "hello-prepended"
    tool.write_text("#!/bin/sh\necho hello from prepended\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    async with make_host(tmp_path, elevated=True, path_prepend=[str(bin_dir)]) as host:
        for extra in ({}, {"elevated": True}, {"pty": True}):
            r = await run(host, "hello-prepended; echo PATH=$PATH", **extra)
            assert "hello from prepended" in r["text"], (extra, r["text"])
            assert f"PATH={bin_dir}:" in r["text"]
        for extra in ({}, {"elevated": True}):
            r = await run(host, "true", env={"PATH": "/evil"}, **extra)
            assert r["details"]["failureKind"] == "env-refused" and "pathPrepend" in r["text"]
            r = await run(host, "true", env={"LD_PRELOAD": "/evil.so"}, **extra)
            assert r["details"]["failureKind"] == "env-refused"
        assert len(host.sessions()) == 0


def test_path_prepend_is_added_after_overrides_and_before_the_inherited_path() -> None:
    env = child_env({"PATH": "/usr/bin"}, {"FOO": "1"}, False, ("/opt/a", "/opt/b"))
    assert env["PATH"] == "/opt/a:/opt/b:/usr/bin" and env["FOO"] == "1"
    assert child_env({"PATH": "/usr/bin"}, {}, False)["PATH"] == "/usr/bin"


@needs_sandbox
async def test_variables_the_launcher_would_obey_are_refused_on_sandboxed_runs_only(tmp_path) -> None:
    async with make_host(tmp_path, elevated=True) as host:
        r = await run(host, "true", env={"LOCPATH": str(tmp_path)})
        assert r["details"]["failureKind"] == "env-refused" and "sandboxed" in r["text"]
        r = await run(host, "echo $LOCPATH", env={"LOCPATH": str(tmp_path)}, elevated=True)
        assert r["details"]["status"] == "completed" and str(tmp_path) in r["text"]


# -- choosing the host -----------------------------------------------------------------------------


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_cached", sandbox.Availability(False, "bwrap is not installed (test)"))


async def test_auto_falls_back_to_the_host_when_the_sandbox_cannot_run(tmp_path, no_sandbox) -> None:
    async with make_host(tmp_path) as host:
        r = await run(host, "echo hi")
        assert r["details"]["host"] == "gateway" and "hi" in r["text"]


async def test_sandbox_mode_refuses_to_run_without_a_sandbox(tmp_path, no_sandbox) -> None:
    async with make_host(tmp_path, host="sandbox") as host:
        r = await run(host, "echo hi", background=True)
        assert r["details"]["failureKind"] == "sandbox-unavailable"
        assert "bwrap is not installed" in r["text"] and "nothing was started" in r["text"]
        assert len(host.sessions()) == 0


async def test_gateway_mode_runs_on_the_host(tmp_path) -> None:
    async with make_host(tmp_path, host="gateway") as host:
        r = await run(host, "echo $$")
        assert r["details"]["host"] == "gateway" and r["details"]["elevated"] is False


# -- the argv and the hidden paths -----------------------------------------------------------------

TOOLS = sandbox.Availability(True, "test", "/usr/bin/bwrap", "/usr/bin/env", "/usr/bin/python3")


def test_the_argv_mounts_in_order_and_keeps_the_terminal() -> None:
    argv = sandbox.wrap(["/bin/sh", "-c", "x"], "/tmp", pty=False, network=True, secrets=(), tools=TOOLS)
    assert argv[:3] == ["/usr/bin/env", "--ignore-signal=HUP,INT,QUIT,TERM", "/usr/bin/bwrap"]
    assert argv[argv.index("--bind") + 1] == "/tmp" and "--tmpfs" not in argv  # the host's /tmp, writable
    private = sandbox.wrap(["/bin/sh"], "/tmp/w", pty=False, network=True, secrets=(), tools=TOOLS, private_tmp=True)
    assert private.index("--tmpfs") < private.index("--bind")  # a workdir under /tmp is bound over the private one
    assert "--new-session" not in argv and "--unshare-net" not in argv
    assert {"--unshare-pid", "--die-with-parent"} <= set(argv)
    assert argv[-3:] == ["/bin/sh", "-c", "x"]
    off = sandbox.wrap(["/bin/sh"], "/tmp", pty=True, network=False, secrets=(), tools=TOOLS)
    assert "--unshare-net" in off and sandbox.PTY_HELPER in off


def test_hidden_paths_cover_nested_secrets_once_and_skip_a_private_tmp(tmp_path, outside) -> None:
    (outside / "a" / "b").mkdir(parents=True)
    (outside / "f").write_text("x")
    (tmp_path / "t").mkdir()
    secrets = [str(outside / "a"), str(outside / "a" / "b"), str(outside / "f"), str(outside / "missing"),
               str(tmp_path / "t")]
    hidden = [(str(outside / "a"), True), (str(outside / "f"), False)]
    assert sandbox.hidden_paths(secrets, str(outside / "work"), private_tmp=True) == hidden
    # the host's /tmp is shared, so a secret under it is hidden too
    assert sandbox.hidden_paths(secrets, str(outside / "work")) == sorted([*hidden, (str(tmp_path / "t"), True)])
    # a workdir exposes the host's /tmp below it even when /tmp is private, so a secret there is hidden again
    assert (str(tmp_path / "t"), True) in sandbox.hidden_paths(secrets, str(tmp_path), private_tmp=True)
    # glob patterns are expanded at each run
    (tmp_path / "ssh-x1").mkdir()
    assert (str(tmp_path / "ssh-x1"), True) in sandbox.hidden_paths([str(tmp_path / "ssh-*")], None)
    with pytest.raises(sandbox.SecretWorkdir):
        sandbox.hidden_paths(secrets, str(outside / "a" / "b" / "c"))


def test_exit_status_128_plus_n_reads_as_signal_n() -> None:
    assert os.waitstatus_to_exitcode(sandbox.wait_status(143 << 8)) == -15
    assert sandbox.wait_status(3 << 8) == 3 << 8
    assert sandbox.wait_status(9) == 9  # the launcher itself was SIGKILLed


# -- configuration ---------------------------------------------------------------------------------


def test_sandbox_settings_default_to_auto_with_network_and_the_standard_secrets(tmp_path) -> None:
    env = {"HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7", "OPENCLAW_TUI_SOCKET": "/srv/oc/host.sock"}
    cfg = tmp_path / "c.toml"
    cfg.write_text("")
    s = load_settings(cfg, env=env).exec
    assert s.placement == "auto" and s.sandbox_network is True and s.path_prepend == () and s.sandbox_tmp == "shared"
    for path in ("/run/user/7/openclaw-tui", f"/run/user/{os.getuid()}/openclaw-tui",
                 f"/tmp/openclaw-tui-{os.getuid()}", "/srv/oc"):
        assert path in s.secrets
    assert s.shown == () and s.pass_env == ()  # the credential table is hidden whole (test_credentials.py)
    assert {"/home/u/.ssh", "/home/u/.aws", "/home/u/.config/gcloud", "/home/u/.gnupg"} <= set(credentials.places(env))
    assert load_settings(cfg, env={}).elevated_allowed is False
    assert "/x/agent.sock" in default_secrets({"HOME": "/h", "SSH_AUTH_SOCK": "/x/agent.sock"})


def test_sandbox_settings_are_read_from_the_file_and_per_agent(tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        '[tools.exec]\nhost = "gateway"\npathPrepend = ["~/bin", "/opt/tools/bin"]\n'
        '[tools.exec.sandbox]\nnetwork = false\nsecrets = ["/srv/keys"]\n'
        "[tools.elevated]\nenabled = true\n"
        '[agents.ci.tools.exec]\nhost = "sandbox"\n[agents.ci.tools.exec.sandbox]\nsecrets = ["/srv/ci"]\n'
    )
    s = load_settings(cfg, env={"HOME": "/home/u"})
    base = s.for_agent("main")
    assert base.placement == "gateway" and base.sandbox_network is False and s.elevated_allowed
    assert base.path_prepend == (os.path.expanduser("~/bin"), "/opt/tools/bin")
    assert "/srv/keys" in base.secrets and f"/run/user/{os.getuid()}/openclaw-tui" in base.secrets
    ci = s.for_agent("ci")
    assert ci.placement == "sandbox" and ci.sandbox_network is False
    assert {"/srv/keys", "/srv/ci"} <= set(ci.secrets)


@pytest.mark.parametrize(
    "text, needle",
    [
        ('[tools.exec]\nhost = "docker"\n', "tools.exec.host"),
        ('[tools.exec]\npathPrepend = "bin"\n', "pathPrepend"),
        ('[tools.exec]\npathPrepend = ["relative/bin"]\n', "not an absolute path"),
        ('[tools.exec.sandbox]\nnetwork = "off"\n', "network"),
        ('[tools.exec.sandbox]\ntmp = "none"\n', "tools.exec.sandbox.tmp"),
        ('[tools.exec.sandbox]\nbogus = 1\n', "tools.exec.sandbox.bogus"),
    ],
)
def test_bad_sandbox_settings_are_ignored_with_a_warning(tmp_path, text, needle) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.warns(ConfigWarning, match=needle):
        s = load_settings(cfg, env={}).exec
    assert s.placement == "auto" and s.path_prepend == () and s.sandbox_network is True and s.sandbox_tmp == "shared"


def test_host_alias_means_gateway(tmp_path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[tools.exec]\nhost = "host"\n')
    assert load_settings(cfg, env={}).exec.placement == "gateway"

