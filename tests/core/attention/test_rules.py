"""The rules of the operator's notifications, on a real host: which events count, once per waiting spell,
merged, muted, and the command hook that hears them."""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path

import pytest

from openclaw_tui.core.attention import MERGE_S, Attention, fill
from openclaw_tui.core.config.notifysettings import NotifySettings
from openclaw_tui.core.session import Event, EventKind, NodeDown, SessionState

from ...support.journals import ended, host_on, sessions_dir, settings
from ...support.notifying import PROMPT, notifying
from ...support.sessions import start_background
from ...support.waiting import wait_for


def P(action: str, sid: str | None = None, **kw):
    return {"tool": "process", "action": action, **({"sessionId": sid} if sid else {}), **kw}


async def test_a_command_hook_gets_each_field_quoted_and_in_its_environment(tmp_path: Path) -> None:
    out = tmp_path / "fields"
    (tmp_path / "ask.txt").write_text("Keep 'cfg' \"$HOME\" `id`? [y/N] ")
    command = (f"printf '%s\\n' {{event}} {{sessionId}} 'by {{agent}}/{{name}}' \"{{prompt}}\" "
               f"\"$OPENCLAW_EVENT|$OPENCLAW_SESSION|$OPENCLAW_AGENT|$OPENCLAW_PROMPT|$OPENCLAW_EXIT_CODE\" >> {out}")
    async with notifying(command=command) as (host, heard):
        sid = await start_background(host.call, f"cat {tmp_path / 'ask.txt'}; read a", pty=True, agent="main")
        await wait_for(lambda: out.exists() and len(out.read_text().splitlines()) >= 5, 30, "the hook's lines")
        prompt = "Keep 'cfg' \"$HOME\" `id`? [y/N]"
        assert out.read_text().splitlines() == ["waiting", sid, f"by main/{host.session(sid).name}", prompt,
                                                f"waiting|{sid}|main|{prompt}|"]
        assert heard[0]["prompt"] == prompt and heard[0]["count"] == 1


@pytest.mark.parametrize("value", ["it's", 'say "hi" $HOME `id` \\ back', "two\nlines", "--flag", "*", ""])
def test_a_filled_template_gives_the_shell_each_value_as_it_is(value: str) -> None:
    for template, expected in (("printf %s {v}", value), ("printf %s '{v}'", value), ('printf %s "{v}"', value),
                               ("printf %s 'a {v} b'", f"a {value} b"), ("printf %s {unknown}", "{unknown}")):
        done = subprocess.run(["/bin/sh", "-c", fill(template, {"v": value})], capture_output=True, text=True,
                              timeout=10, check=False)
        assert done.stdout == expected, (template, done)


async def test_a_session_that_keeps_waiting_is_announced_once_per_spell() -> None:
    async with notifying() as (host, heard):
        sid = await start_background(host.call, "printf 'first? '; read a; printf 'second? '; read b; sleep 30",
                                     pty=True, agent="main")
        await wait_for(lambda: heard, 30, "the first announcement")
        assert heard[0]["sessionId"] == sid and heard[0]["prompt"] == "first?"
        session = host.session(sid)
        for reason in ("reading-terminal", "password-prompt", None, "reading-terminal"):  # the spell goes on,
            session.update_waiting(reason)  # a check that once saw no evidence included
            host.supervisor.publish(EventKind.WAITING, session)
        assert not host.attention._pending  # nothing more is queued
        await host.call(P("write", sid, data="y\n"), agent="main")
        await wait_for(lambda: len(heard) == 2, 30, "the second spell's announcement")
        assert heard[1]["prompt"] == "second?" and heard[1]["event"] == "waiting"


def asking(sid: str, name: str, prompt: str) -> Event:
    """A session-waiting event of agent main's session ``sid``, asking ``prompt``."""
    return Event(EventKind.WAITING, sid, SessionState({"sessionId": sid, "name": name, "agent": "main",
                                                       "waitingForInput": True, "status": "running",
                                                       "prompt": prompt}))


async def test_events_of_one_kind_within_the_window_make_one_notification() -> None:
    published: list[Event] = []
    attention = Attention(NotifySettings(), published.append, lambda sid, agent: False, hooks=[])
    for sid in ("a-1", "b-2", "c-3"):
        attention(asking(sid, "npm init", f"{sid}?"))
    attention(Event(EventKind.EXITED, "d-4", SessionState({"sessionId": "d-4", "name": "make", "agent": "ci",
                                                           "status": "completed", "exitCode": 2,
                                                           "backgrounded": True})))
    await wait_for(lambda: len(published) == 2, 10, "both batches")
    attention(asking("e-5", "vim", ":"))
    attention(asking("f-6", "vim", ":"))
    assert len(published) == 2, "within a second of the last, they wait for the window's end"
    await wait_for(lambda: len(published) == 3, MERGE_S * 10, "the window's end")
    assert published[2].payload.to_json()["count"] == 2
    waiting, failed = sorted((e.payload.to_json() for e in published[:2]), key=lambda d: d["event"], reverse=True)
    assert waiting["count"] == 3 and [d["sessionId"] for d in waiting["merged"]] == ["a-1", "b-2", "c-3"]
    assert waiting["text"].startswith("3 sessions wait for input: a-1 (npm init, main) waits for input: a-1?")
    assert failed["event"] == "failed" and failed["count"] == 1 and failed["exitCode"] == 2
    await attention.close()


async def test_muted_sessions_and_agents_are_left_out() -> None:
    async with notifying() as (host, heard):
        quiet = await start_background(host.call, PROMPT, pty=True, agent="main")
        assert (await host.mute(True, session_id=quiet))["details"]["muted"] is True
        await host.mute(True, agent="bots")
        bot = await start_background(host.call, PROMPT, agent="bots", pty=True)
        loud = await start_background(host.call, PROMPT, pty=True, agent="main")
        assert host.session(bot).details()["muted"] is True

        def announced() -> bool:  # every WAITING went out (the prompt is set as it is published)
            return bool(heard) and all(host.session(s).prompt for s in (quiet, bot, loud))

        await wait_for(announced, 30, "the three sessions to wait")
        await wait_for(lambda: not host.attention._pending, 10, "the merge window to close")
        named = {d["sessionId"] for batch in heard for d in batch.get("merged", [batch])}
        assert named == {loud}
        listed = (await host.call(P("list"), agent=None))["details"]["sessions"]
        assert {d["sessionId"]: d["muted"] for d in listed} == {quiet: True, bot: True, loud: False}
        await host.mute(False, session_id=quiet)
        assert host.session(quiet).details()["muted"] is False


async def test_a_failure_is_news_and_a_kill_is_not() -> None:
    async with notifying(events=["waiting", "failed", "exited"]) as (host, heard):
        bad = await start_background(host.call, "echo broke; exit 3", agent="main")
        await wait_for(lambda: heard, 30, "the failure's announcement")
        assert heard[0]["event"] == "failed" and heard[0]["exitCode"] == 3 and heard[0]["sessionId"] == bad
        victim = await start_background(host.call, "sleep 60", agent="main")
        await host.call(P("kill", victim), agent=None)
        assert not host.attention._pending  # its end was heard at once, and is nobody's news
        good = await start_background(host.call, "echo fine", agent="main")
        await wait_for(lambda: len(heard) == 2, 30, "the plain exit")
        assert heard[1]["event"] == "exited" and heard[1]["sessionId"] == good


async def test_an_approval_request_joins_by_its_event_name_with_its_command_masked() -> None:
    async with notifying() as (host, heard):
        # a run held for approval is a session whose status says so (its approval-requested event, by name,
        # once exec approvals land, is the same news and told once)
        host.supervisor.bus.publish(Event(EventKind.ADDED, "calm-lake", SessionState({
            "sessionId": "calm-lake", "agent": "main", "name": "deploy", "status": "approval-pending",
            "command": "deploy --token s3cret prod"})))
        await wait_for(lambda: heard, 10, "the approval's announcement")
        assert heard[0]["event"] == "approval" and heard[0]["prompt"] == "deploy --token *** prod"


async def test_a_failing_hook_is_retried_once_and_logged(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    tries = tmp_path / "tries"
    caplog.set_level(logging.WARNING)
    async with notifying(command=f"echo try >> {tries}; echo refused by test; exit 4") as (host, heard):
        await start_background(host.call, "exit 9", agent="main")
        await wait_for(lambda: host.attention.recent, 30, "the delivery's outcome")
        outcome = host.attention.recent[-1]
        assert (outcome.ok, outcome.attempts, outcome.detail) == (False, 2, "exit status 4: refused by test")
        assert tries.read_text().splitlines() == ["try", "try"]
        assert "notify: command: failed (after 2 attempts): exit status 4: refused by test" in caplog.text


async def test_a_hook_that_hangs_is_ended_at_its_timeout_with_what_it_started() -> None:
    async with notifying(command="sleep 300 & sleep 300", timeout_ms=300) as (host, heard):
        await start_background(host.call, "exit 9", agent="main")
        await wait_for(lambda: host.attention.recent, 30, "the delivery's outcome")
        outcome = host.attention.recent[-1]
        assert not outcome.ok and outcome.detail == "still running after 0.3 s: ended"
        r = await host.call(P("list"), agent="main")  # the host went on answering meanwhile
        assert r["details"]["status"] == "completed"
    # the suite's orphan check fails the test if either sleep outlived the hook


async def test_a_session_whose_host_died_is_announced_by_the_next_host(tmp_path: Path) -> None:
    from openclaw_tui import ToolHost

    from ...support.hosts import hosting

    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        sid = await start_background(first.call, "echo working; sleep 0.3", agent="main")
        await ended(first, sid)
    path = sessions_dir(tmp_path, sock) / f"{sid}.jnl"
    path.write_bytes(path.read_bytes()[:-7])  # the exit record torn, as when the host is killed mid-write
    heard: list[dict] = []
    second = ToolHost(settings=settings(tmp_path))
    second.subscribe(lambda e: heard.append(e.payload.to_json()) if e.kind == EventKind.ATTENTION else None)
    async with hosting(second):
        second.persist(sock)
        await wait_for(lambda: heard, 30, "the announcement")
        assert heard[0]["event"] == "host-died" and heard[0]["sessionId"] == sid
        assert second.session(sid).details()["failureKind"] == "host-died"


async def test_a_node_that_stops_answering_is_news_only_on_request() -> None:
    published: list[Event] = []
    for events, expected in ((("waiting",), 0), (("waiting", "node-unreachable"), 1)):
        published.clear()
        attention = Attention(NotifySettings(events=events), published.append, lambda sid, agent: False, hooks=[])
        attention(Event(EventKind.NODE_UNREACHABLE, None, NodeDown("gpu-box", "ssh: connection refused")))
        await wait_for(lambda: len(published) >= expected, 10, "the batch")
        assert len(published) == expected and not attention._pending
        if expected:
            assert published[0].payload.to_json()["text"] == "node gpu-box does not answer: ssh: connection refused"
            assert published[0].payload.to_json()["node"] == "gpu-box" and published[0].payload.to_json()["sessionId"] is None
        await attention.close()
