"""The allowlist as an attacker meets it: a second command hidden in an allowed one, quotes that move word
boundaries, a link or a PATH entry that puts a lookalike first, a program changed after it was judged, and
commands whose real work no pattern sees. Each is refused (or asked), and nothing of it runs."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import psutil
import pytest

from ...support.approvals import allow, asking, ended, pending, poll, run
from ...support.waiting import wait_for

ECHO = os.path.realpath(shutil.which("echo", path="/usr/bin:/bin") or "/bin/echo")
TOUCH = os.path.realpath(shutil.which("touch", path="/usr/bin:/bin") or "/bin/touch")
TRUE = os.path.realpath(shutil.which("true", path="/usr/bin:/bin") or "/bin/true")
SLEEP = shutil.which("sleep", path="/usr/bin:/bin") or "/bin/sleep"


def hidden(marker: Path) -> list[str]:
    """Ways to run ``touch MARKER`` behind an allowed ``echo``."""
    return [f"echo ok && $(touch {marker})", f"echo ok;touch {marker}", f"echo ok\ntouch {marker}",
            f"echo `touch {marker}`", f"echo ok$IFS;touch$IFS{marker}", f"echo \"$(touch {marker})\"",
            f"echo ok | touch {marker}", f"echo ok & touch {marker}", f"echo ok > {marker}",
            f"echo ok; (touch {marker})", f"X=1 touch {marker}", f"echo ok\\\n;touch {marker}"]


async def test_a_second_command_hidden_in_an_allowed_one_is_refused_or_asked_and_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    allow(tmp_path / "ea.json", {"pattern": ECHO})  # echo, with any arguments
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        for command in hidden(marker):
            res = await run(host, command)
            assert res["details"]["failureKind"] == "exec-denied", (command, res)
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        for command in hidden(marker):
            await pending(host.call, command)
        assert len(host.pending_approvals()) == len(hidden(marker))
    assert not marker.exists()


async def test_quotes_that_move_word_boundaries_change_the_arguments_judged_and_what_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    allow(tmp_path / "ea.json", {"pattern": ECHO, "argPattern": "ok"})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        for command in (f'echo "ok; touch {marker}"', f"echo ok\\; touch {marker}", f"echo 'ok' '; touch {marker}'"):
            assert (await run(host, command))["details"]["failureKind"] == "exec-denied", command
        assert (await run(host, 'e"ch"o o\\k'))["text"] == "ok"  # still the program and arguments allowed
    allow(tmp_path / "ea.json", {"pattern": ECHO})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        res = await run(host, f'echo "ok; touch {marker}" \'$(id)\'')
        assert res["details"]["status"] == "completed" and res["text"] == f"ok; touch {marker} $(id)"
    assert not marker.exists()


async def test_a_link_named_like_an_allowed_program_is_judged_as_what_it_points_to(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    links = tmp_path / "links"
    links.mkdir()
    (links / "echo").symlink_to(TOUCH)
    for pattern in (ECHO, "echo"):
        allow(tmp_path / "ea.json", {"pattern": pattern})
        async with asking(tmp_path / "ea.json", security="allowlist") as host:
            res = await host.call({"tool": "exec", "command": f"./echo {marker}", "workdir": str(links)}, agent="main")
            assert res["details"]["failureKind"] == "exec-denied", res
            assert TOUCH in res["text"] or pattern == "echo"
    assert not marker.exists()


async def test_a_path_that_puts_a_lookalike_first_finds_the_lookalike_and_it_does_not_match(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    lookalike = tmp_path / "first"
    lookalike.mkdir()
    fake = lookalike / "echo"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\n")
    fake.chmod(0o755)
    allow(tmp_path / "ea.json", {"pattern": ECHO})
    async with asking(tmp_path / "ea.json", security="allowlist", path_prepend=(str(lookalike),)) as host:
        res = await run(host, "echo hi")
        assert res["details"]["failureKind"] == "exec-denied" and str(fake) in res["text"], res
    assert not marker.exists()


async def test_a_program_that_changes_after_it_was_approved_does_not_start(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "tool").symlink_to(TRUE)
    async with asking(tmp_path / "ea.json", ask="on-miss", path_prepend=(str(tools),)) as host:
        sid = await pending(host.call, "tool")
        assert host.pending_approvals()[0]["segments"][0]["resolvedPath"] == TRUE
        (tools / "tool").unlink()
        (tools / "tool").symlink_to(TOUCH)  # what the operator approves is not what would run now
        res = await host.decide_approval(sid, "allow-once")
        assert "could not start" in res["text"]
        await ended(host, sid)
        polled = await poll(host, sid)
        assert polled["details"]["failureKind"] == "exec-denied" and f"resolves to {TOUCH} now" in polled["text"]
        assert host.session(sid).pid is None


async def test_what_runs_is_the_judged_program_by_its_whole_path(tmp_path: Path) -> None:
    allow(tmp_path / "ea.json", {"pattern": os.path.realpath(SLEEP)})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        res = await run(host, "sleep 30", background=True)
        assert res["details"]["status"] == "running", res
        leader = psutil.Process(res["details"]["pid"])
        family = [leader, *leader.children(recursive=True)]
        await wait_for(lambda: any(p.cmdline()[:2] == [SLEEP, "30"] for p in family if p.is_running())
                       or any(p.cmdline()[-1:] == [f"'{SLEEP}' '30'"] for p in family), what="the judged argv running")
        assert host.session(res["details"]["sessionId"]).command == "sleep 30"  # what the agent asked, as shown
        await host.call({"tool": "process", "action": "kill", "sessionId": res["details"]["sessionId"]}, agent="main")


@pytest.mark.parametrize(("command", "why"), [
    ("python3 -c 'print(1)'", "python -c runs inline code"),
    ("sh -c 'echo hi'", "sh -c runs inline shell code"),
    ("env echo hi", "env runs another command"),
    ("xargs echo", "xargs runs another command"),
    ("find /tmp -maxdepth 0 -exec echo '{}' ';'", "-exec runs other commands"),
])
async def test_inline_code_and_wrappers_match_no_entry_without_an_arg_pattern_nor_get_allow_always(
        tmp_path: Path, command: str, why: str) -> None:
    program = os.path.realpath(shutil.which(command.split()[0]) or sys.executable)
    allow(tmp_path / "ea.json", {"pattern": program})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        res = await run(host, command)
        assert res["details"]["failureKind"] == "exec-denied" and why in res["text"], res
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, command)
        assert why in host.pending_approvals()[0]["allowAlwaysRefused"]
        res = await host.decide_approval(sid, "allow-always")
        assert res["details"]["failureKind"] == "always-refused" and "approve it once" in res["text"]
        assert host.session(sid).status == "approval-pending"  # still waiting: nothing was decided


async def test_an_entry_that_spells_out_the_inline_code_allows_exactly_that(tmp_path: Path) -> None:
    py = os.path.realpath(sys.executable)
    allow(tmp_path / "ea.json", {"pattern": py, "argPattern": r"-c print\(6\*7\)"})
    async with asking(tmp_path / "ea.json", security="allowlist") as host:
        assert (await run(host, f"{sys.executable} -c 'print(6*7)'"))["text"] == "42"
        assert (await run(host, f"{sys.executable} -c 'print(6*8)'"))["details"]["failureKind"] == "exec-denied"


async def test_a_shell_under_a_pty_is_never_allowed_by_pattern_since_what_is_typed_later_is_not_reviewed(
        tmp_path: Path) -> None:
    bash = os.path.realpath(shutil.which("bash") or "/bin/bash")
    allow(tmp_path / "ea.json", {"pattern": bash})
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "bash", pty=True)
        request = host.pending_approvals()[0]
        assert "under a pty reads what is typed later" in request["allowAlwaysRefused"] and request["sessionId"] == sid
        assert (await run(host, "bash --version"))["details"]["status"] == "completed"  # no pty: nothing typed later
