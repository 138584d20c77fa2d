"""The operator's command line (``ls``, ``logs``, ``screen``, ``send``, ``paste``, ``kill``, ``events``,
``mute``, ``notify --test``, ``call --operator``), each run as a subprocess against a served host."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from openclaw_tui import ToolHost
from openclaw_tui.core.config.notifysettings import NotifySettings
from openclaw_tui.core.config.settings import ExecSettings, Settings

from ..support.hosts import hosting, serving
from ..support.waiting import wait_for

PROMPT = "read -p 'Overwrite existing config? [y/N] ' a; echo answered $a; sleep 30"


def _env(sock: Path) -> dict[str, str]:
    return {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock)}


async def cli(sock: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "openclaw_tui", *args], env=_env(sock),
                                   input=stdin, capture_output=True, text=True, timeout=60, check=False)


def popen(sock: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "openclaw_tui", *args], env=_env(sock), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


async def bg(host: ToolHost, command: str, agent: str | None = "main", **kw: Any) -> str:
    r = await host.call({"tool": "exec", "command": command, "background": True, **kw}, agent=agent)
    assert r["details"]["status"] == "running", r
    return r["details"]["sessionId"]


async def lines_until(proc: subprocess.Popen[str], done: Any, what: str) -> list[str]:
    """Lines of ``proc``'s stdout, read as they come, until ``done(lines)``."""
    assert proc.stdout is not None
    got: list[str] = []
    while not done(got):
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        assert line, f"{what}: stdout ended after {got!r}; stderr {proc.stderr.read() if proc.stderr else ''}"
        got.append(line.rstrip("\n"))
    return got


def ended(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.communicate(timeout=30)


async def test_ls_lists_every_agents_sessions_with_the_prompt_and_filters(served) -> None:
    host, sock = served
    asking = await bg(host, PROMPT, agent="alice", pty=True)
    broke = await bg(host, "exit 3", agent="bob")
    await wait_for(lambda: host.session(asking).prompt and not host.session(broke).running, 30, "both states")
    table = await cli(sock, "ls")
    assert table.returncode == 0, table
    rows = table.stdout.splitlines()
    assert rows[0].split() == ["ID", "AGENT", "STATE", "TIME", "EXIT", "NAME"]
    mine = next(r for r in rows if r.startswith(asking))
    assert " alice " in mine and " waiting " in mine and mine.endswith('"Overwrite existing config? [y/N]"')
    theirs = next(r for r in rows if r.startswith(broke))
    assert " bob " in theirs and " failed " in theirs and " exit 3 " in theirs
    as_json = await cli(sock, "ls", "--json", "--agent", "bob")
    listed = json.loads(as_json.stdout)
    assert [d["sessionId"] for d in listed] == [broke]
    details = (await host.call({"tool": "process", "action": "list"}, agent=None))["details"]["sessions"]
    assert set(listed[0]) == set(next(d for d in details if d["sessionId"] == broke))
    for state, ids in (("waiting", [asking]), ("running", [asking]), ("failed", [broke]), ("finished", [])):
        got = json.loads((await cli(sock, "ls", "--json", "--state", state)).stdout)
        assert [d["sessionId"] for d in got] == ids, state
    bad = await cli(sock, "ls", "--state", "sleeping")
    assert bad.returncode == 2 and "running, waiting, finished, failed" in bad.stderr


async def test_logs_follows_output_as_it_comes_and_ends_with_the_session(served) -> None:
    host, sock = served
    sid = await bg(host, "echo line 1; read a; echo line 2; read b; echo last line", pty=True)
    follower = popen(sock, "logs", sid, "-f")
    try:
        await lines_until(follower, lambda got: "line 1" in got, "the first line")
        assert host.session(sid).running and follower.poll() is None
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "x\n"}, agent="main")
        await lines_until(follower, lambda got: "line 2" in got, "the second line, as it came")
        assert follower.poll() is None
        await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "y\n"}, agent="main")
        rest = await lines_until(follower, lambda got: "last line" in got, "the last line")
        assert await asyncio.to_thread(follower.wait, 30) == 0, "logs -f ends once the session ended"
        assert rest[-1] == "last line" and not host.session(sid).running
    finally:
        ended(follower)
    whole = await cli(sock, "logs", sid)
    assert whole.returncode == 0 and whole.stdout.replace("\r", "").splitlines() == [
        "line 1", "x", "line 2", "y", "last line"]
    # an agent's poll still gets everything: the operator's logs took none of its pending output
    polled = await host.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
    assert "line 1" in polled["text"] and "last line" in polled["text"]


async def test_logs_raw_gives_the_pty_bytes_and_since_starts_later(served) -> None:
    host, sock = served
    sid = await bg(host, r"printf '\033[1mold\033[0m\n'; read a; echo new; sleep 30", pty=True)
    session = host.session(sid)
    await wait_for(lambda: "old" in session.output.full_text() and session.idle_ms() > 1500, 30, "old, a while ago")
    cut = datetime.now(timezone.utc).isoformat()
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "go\n"}, agent="main")
    await wait_for(lambda: "new" in session.output.full_text(), 30, "the new line")
    raw = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "openclaw_tui", "logs", sid, "--raw"],
                                  env=_env(sock), capture_output=True, timeout=60, check=False)
    assert raw.returncode == 0 and raw.stdout.startswith(b"\x1b[1mold\x1b[0m\r\n") and b"new" in raw.stdout
    text = await cli(sock, "logs", sid)
    assert text.stdout.startswith("old\n") and "\x1b" not in text.stdout
    later = await cli(sock, "logs", sid, "--since", cut)
    assert later.returncode == 0 and "new" in later.stdout and "old" not in later.stdout, later
    assert (await cli(sock, "logs", sid, "--since", "an hour")).returncode == 2
    missing = await cli(sock, "logs", "no-such-session")
    assert missing.returncode == 1 and "no session 'no-such-session'" in missing.stderr


async def test_screen_send_paste_and_kill_act_as_the_operator(served) -> None:
    host, sock = served
    sid = await bg(host, "cat", agent="alice", pty=True)
    sent = await cli(sock, "send", sid, "h", "i", "Enter")
    assert sent.returncode == 0, sent
    pasted = await cli(sock, "paste", sid, "-", stdin="pasted text\n")
    assert pasted.returncode == 0, pasted
    session = host.session(sid)
    await wait_for(lambda: session.output.full_text().count("pasted text") >= 2, 30, "cat's echo of both")
    screen = await cli(sock, "screen", sid)
    assert screen.returncode == 0 and screen.stdout.splitlines()[:2] == ["hi", "hi"], screen.stdout
    assert [i.source for i in session.inputs] == ["operator", "operator"]
    misspelt = await cli(sock, "send", sid, "Entr")
    assert misspelt.returncode == 1 and "Enter" in misspelt.stderr
    killed = await cli(sock, "kill", sid)
    assert killed.returncode == 0 and f"Killed session {sid}" in killed.stdout
    again = await cli(sock, "kill", sid)
    assert again.returncode == 1 and "already ended" in again.stderr


async def test_events_streams_one_json_object_a_line_until_interrupted(served) -> None:
    host, sock = served
    watcher = popen(sock, "events", "--json")
    try:
        await wait_for(lambda: host.supervisor.bus.active and len(host.supervisor.bus._listeners) >= 2, 30,
                       "the events command to subscribe")
        sid = await bg(host, "echo hi", agent="carol")
        got = await lines_until(watcher, lambda lines: any('"session-exited"' in line for line in lines), "the exit")
        events = [json.loads(line) for line in got]
        mine = [e for e in events if e["sessionId"] == sid]
        assert [e["event"] for e in mine][:2] == ["session-added", "session-backgrounded"]
        assert mine[-1]["event"] == "session-exited" and mine[-1]["status"] == "completed"
        for e in mine:
            assert {"event", "sessionId", "agent", "node", "at"} <= set(e) and e["agent"] == "carol"
            assert e["node"] is None and e["at"].endswith("Z")
        watcher.send_signal(signal.SIGINT)
        assert await asyncio.to_thread(watcher.wait, 30) == 130
    finally:
        ended(watcher)


async def test_mute_and_unmute_from_a_shell(served) -> None:
    host, sock = served
    sid = await bg(host, "sleep 30")
    muted = await cli(sock, "mute", sid)
    assert muted.returncode == 0 and f"Muted session {sid}" in muted.stdout
    assert host.session(sid).muted
    assert "(muted)" in (await cli(sock, "ls")).stdout
    by_agent = await cli(sock, "mute", "--agent", "main")
    assert by_agent.returncode == 0 and host.supervisor.mutes.agents == {"main"}
    assert (await cli(sock, "unmute", sid)).returncode == 0 and (await cli(sock, "unmute", "--agent", "main")).returncode == 0
    assert not host.session(sid).muted
    unknown = await cli(sock, "mute", "no-such-session")
    assert unknown.returncode == 1 and "no session" in unknown.stderr
    assert (await cli(sock, "mute")).returncode == 2


async def test_notify_test_says_how_each_hook_went(sock, tmp_path) -> None:
    settings = Settings(exec=replace(ExecSettings()), notify=NotifySettings(
        command=f"echo \"$OPENCLAW_EVENT {{prompt}}\" >> {tmp_path / 'got'}", webhook="http://127.0.0.1:9/none",
        timeout_ms=500))
    async with hosting(ToolHost(settings=settings)) as host, serving(host, sock):
        tested = await cli(sock, "notify", "--test")
        assert tested.returncode == 1, tested
        assert "command: delivered: exit status 0" in tested.stderr
        assert "webhook: failed (after 2 attempts): cannot connect to 127.0.0.1:9" in tested.stderr
        assert (tmp_path / "got").read_text().startswith("test a test notification from openclaw-tui")
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host, serving(host, sock):
        none = await cli(sock, "notify", "--test")
        assert none.returncode == 1 and "no notification hooks are configured" in none.stderr


async def test_call_says_where_the_sessions_are_and_operator_sees_them(served) -> None:
    host, sock = served
    sid = await bg(host, "sleep 30", agent="main")
    listed = await cli(sock, "call", '{"tool":"process","action":"list"}')
    assert listed.returncode == 0 and json.loads(listed.stdout)["details"]["sessions"] == []
    assert "--agent" in listed.stderr and "--operator" in listed.stderr and "main" in listed.stderr
    everything = await cli(sock, "call", "--operator", '{"tool":"process","action":"list"}')
    assert [d["sessionId"] for d in json.loads(everything.stdout)["details"]["sessions"]] == [sid]
    assert everything.stderr == ""


async def test_the_operator_commands_are_refused_inside_a_session(sock) -> None:
    settings = Settings(exec=replace(ExecSettings(), placement="gateway", kill_grace_s=0.5))
    async with hosting(ToolHost(settings=settings)) as host, serving(host, sock):
        await _refused_inside(host, sock)


async def _refused_inside(host: ToolHost, sock: Path) -> None:
    await bg(host, "sleep 30", agent="main")
    python = shlex.quote(sys.executable)
    lines = "; ".join(f"{python} -m openclaw_tui {args} >/dev/null 2>&1; echo \"{args.split()[0]}=$?\""
                      for args in ("ls", "events", "logs x", "notify --test", "mute x"))
    r = await host.call({"tool": "exec", "command": lines + f"; {python} -m openclaw_tui ls 2>&1 | head -1",
                         "yieldMs": 60_000, "env": {"OPENCLAW_TUI_SOCKET": str(sock)}},
                        agent="main")
    out = r["text"]
    for name in ("ls", "events", "logs", "notify", "mute"):
        assert f"{name}=1" in out, out
    assert "caller-confined" in out or "inside session" in out, out


async def test_with_no_host_every_command_says_so_in_one_line(sock_dir) -> None:
    for args in (("ls",), ("logs", "x"), ("events",), ("mute", "x"), ("notify", "--test"), ("kill", "x")):
        r = await cli(sock_dir / "none.sock", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no openclaw-tui host" in r.stderr, (args, r)
