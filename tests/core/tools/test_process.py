"""process: the ten actions, their paging and waiting rules, and every error case."""

from __future__ import annotations

import asyncio
import time

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.host.sessionhost import SessionHost

from ...support.hosts import hosting, make_host
from ...support.sessions import poll_until, start_background
from ...support.waiting import wait_for


def P(action: str, sid: str | None = None, **kw):
    call = {"tool": "process", "action": action, **kw}
    if sid is not None:
        call["sessionId"] = sid
    return call


async def test_list_shows_only_backgrounded_sessions_newest_first(host: ToolHost) -> None:
    await host.call({"tool": "exec", "command": "true"}, agent="main")  # foreground: not listed
    first = await start_background(host.call, "sleep 30", agent="main")
    second = await start_background(host.call, "echo x", agent="main")
    r = await host.call(P("list"), agent="main")
    ids = [s["sessionId"] for s in r["details"]["sessions"]]
    assert ids == [second, first]
    assert first in r["text"] and "sleep 30" in r["text"]
    for s in r["details"]["sessions"]:
        assert {"status", "durationMs", "name", "waitingForInput"} <= set(s)


async def test_poll_drains_new_output_and_reports_the_exit(host: ToolHost) -> None:
    sid = await start_background(host.call, "echo one; sleep 0.3; echo two", agent="main")
    out = await poll_until(host, sid, "main", lambda o: "two" in o)
    assert "one" in out
    s = host.session(sid)
    await asyncio.wait_for(s.done.wait(), 20)
    r = await host.call(P("poll", sid), agent="main")
    assert r["details"]["status"] == "completed" and r["details"]["exitCode"] == 0
    assert "(no new output)" in r["text"] and "exit code 0" in r["text"]


async def test_timed_poll_wakes_early_on_output(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 0.5; echo woke; sleep 30", agent="main")
    start = time.monotonic()
    r = await host.call(P("poll", sid, timeout=25_000), agent="main")
    while "woke" not in r["text"]:  # first wake may be the shell's own (empty) output
        r = await host.call(P("poll", sid, timeout=25_000), agent="main")
    assert time.monotonic() - start < 20


async def test_timed_poll_wakes_early_on_exit_and_accepts_a_numeric_string(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 0.3", agent="main")
    start = time.monotonic()
    r = await host.call(P("poll", sid, timeout="25000"), agent="main")
    assert r["details"]["status"] == "completed"
    assert time.monotonic() - start < 20


async def test_a_timed_poll_waits_no_longer_than_the_cap(host: ToolHost, monkeypatch) -> None:
    # the cap (30 s; the text of the next-but-one test names it) made short, so the wait can be seen ending
    monkeypatch.setattr("openclaw_tui.core.tools.process_tool.POLL_WAIT_MAX_MS", 300)
    sid = await start_background(host.call, "sleep 30", agent="main")
    started = time.monotonic()
    r = await host.call(P("poll", sid, timeout=999_999), agent="main")
    assert 0.25 < time.monotonic() - started < 10 and r["details"]["status"] == "running"
    assert "(waited at most 300 ms, the longest a poll waits)" in r["text"]
    await host.call(P("kill", sid), agent="main")


async def test_empty_polls_back_off_and_reset_on_output(host: ToolHost) -> None:
    sid = await start_background(host.call, "cat", pty=True, agent="main")  # quiet until it is given a line
    retries = [(await host.call(P("poll", sid), agent="main"))["details"]["retryInMs"] for _ in range(5)]
    assert retries == [5000, 10000, 30000, 60000, 60000]
    await host.call(P("write", sid, data="fresh\n"), agent="main")
    r = await host.call(P("poll", sid, timeout=10_000), agent="main")
    assert "fresh" in r["text"] and r["details"]["retryInMs"] == 5000
    r = await host.call(P("poll", sid), agent="main")  # the rest of the echo, or nothing yet: the first step
    assert r["details"]["retryInMs"] == 5000
    await host.call(P("kill", sid), agent="main")


@pytest.fixture
async def lines_session(host: ToolHost):
    sid = await start_background(host.call, "seq 0 499", agent="main")
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    return sid


def _body(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.isdigit()]


async def test_log_without_offset_or_limit_shows_last_200_lines_and_a_hint(host, lines_session) -> None:
    r = await host.call(P("log", lines_session), agent="main")
    assert _body(r["text"]) == [str(i) for i in range(300, 500)]
    assert "earlier lines: offset=100 limit=200]" in r["text"] and r["details"]["totalLines"] == 500


async def test_the_log_hint_names_the_real_window_of_fewer_than_200_earlier_lines(host) -> None:
    # 250 lines: the default page is lines 50-249, so the 50 before it are offset=0 limit=50, not limit=200
    sid = await start_background(host.call, "seq 0 249", agent="main")
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    r = await host.call(P("log", sid), agent="main")
    assert _body(r["text"]) == [str(i) for i in range(50, 250)]
    assert "[lines 50-249 of 250; earlier lines: offset=0 limit=50]" in r["text"]
    r = await host.call(P("log", sid, offset=0, limit=50), agent="main")  # the hint followed: exactly the rest
    assert _body(r["text"]) == [str(i) for i in range(0, 50)] and "earlier lines" not in r["text"]


async def test_log_with_limit_only_shows_the_last_lines(host, lines_session) -> None:
    r = await host.call(P("log", lines_session, limit=5), agent="main")
    assert _body(r["text"]) == ["495", "496", "497", "498", "499"]


async def test_log_with_offset_only_runs_to_the_end_without_the_200_cap(host, lines_session) -> None:
    r = await host.call(P("log", lines_session, offset=10), agent="main")
    assert _body(r["text"]) == [str(i) for i in range(10, 500)]


async def test_log_with_offset_and_limit_shows_that_slice(host, lines_session) -> None:
    r = await host.call(P("log", lines_session, offset=20, limit=3), agent="main")
    assert _body(r["text"]) == ["20", "21", "22"]


async def test_write_to_a_pty_session_and_record_who_sent_it(host: ToolHost) -> None:
    sid = await start_background(host.call, "read -r line; echo got:$line", pty=True, agent="main")
    r = await host.call(P("write", sid, data="héllo\n"), agent="main")
    assert r["details"]["status"] == "running" and r["details"]["bytes"] == 7
    await poll_until(host, sid, "main", lambda o: "got:héllo" in o)
    r = await host.call(P("log", sid), agent="main")
    assert r["details"]["inputs"][0]["source"] == "main"
    assert r["details"]["inputs"][0]["action"] == "write"


@pytest.mark.parametrize("data", ["abc\n", "abc", ""])
async def test_write_eof_ends_input_of_a_pty_reader(host: ToolHost, data: str) -> None:
    # a Ctrl-D after an unfinished line only hands the line over: end of input needs a second one
    sid = await start_background(host.call, "wc -c; echo cat-done", pty=True, agent="main")
    await host.call(P("write", sid, data=data, eof=True), agent="main")
    out = await poll_until(host, sid, "main", lambda o: "cat-done" in o)
    assert f"{len(data)}\n" in out.replace("\r", "")


async def test_submit_sends_carriage_return(host: ToolHost) -> None:
    sid = await start_background(host.call, "read -r a; echo answer=$a", pty=True, agent="main")
    await host.call(P("send-keys", sid, literal="yes"), agent="main")
    await host.call(P("submit", sid), agent="main")
    await poll_until(host, sid, "main", lambda o: "answer=yes" in o)


async def test_paste_is_raw_unless_the_program_enabled_bracketed_paste_and_can_be_forced(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 30", pty=True, agent="main")
    s = host.session(sid)
    r = await host.call(P("paste", sid, text="a\nb"), agent="main")
    assert r["details"]["bytes"] == 3 and r["details"]["bracketed"] is False and "warning" not in r["text"]
    r = await host.call(P("paste", sid, text="a\nb", bracketed=True), agent="main")
    assert r["details"]["bytes"] == len(b"\x1b[200~a\nb\x1b[201~") and r["details"]["bracketed"] is True
    assert "has not turned bracketed paste on" in r["text"]  # forced on a program that never enabled it: told
    assert [i.action for i in s.inputs] == ["paste", "paste"]


async def test_paste_is_bracketed_once_the_program_turned_bracketed_paste_on(host: ToolHost) -> None:
    sid = await start_background(host.call, "printf '\\033[?2004hready\\n'; sleep 30", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "ready" in o)
    r = await host.call(P("paste", sid, text="a"), agent="main")
    assert r["details"]["bracketed"] is True and r["details"]["bytes"] == len(b"\x1b[200~a\x1b[201~")
    assert "warning" not in r["text"]
    r = await host.call(P("paste", sid, text="a", bracketed=False), agent="main")
    assert r["details"]["bracketed"] is False and r["details"]["bytes"] == 1


async def test_kill_ends_the_session_which_stays_listed(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 60", agent="main")
    r = await host.call(P("kill", sid), agent="main")
    assert r["details"]["sessionStatus"] == "failed" and r["details"]["exitSignal"] == "SIGTERM"
    assert r["details"]["cleanup"] == "confirmed"
    r = await host.call(P("list"), agent="main")
    assert [s["sessionId"] for s in r["details"]["sessions"]] == [sid]


async def test_clear_drops_a_finished_session_but_refuses_a_running_one(host: ToolHost) -> None:
    running = await start_background(host.call, "sleep 60", agent="main")
    r = await host.call(P("clear", running), agent="main")
    assert r["details"]["status"] == "failed" and "kill" in r["text"]
    done = await start_background(host.call, "true", agent="main")
    await asyncio.wait_for(host.session(done).done.wait(), 20)
    r = await host.call(P("clear", done), agent="main")
    assert r["details"]["status"] == "completed"
    assert host.session(done) is None


async def test_remove_kills_a_running_session_and_drops_it(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 60", agent="main")
    pid = host.session(sid).pid
    r = await host.call(P("remove", sid), agent="main")
    assert r["details"]["status"] == "completed" and host.session(sid) is None
    with pytest.raises(ProcessLookupError):
        import os
        os.kill(pid, 0)


async def test_waiting_for_input_needs_writable_stdin_and_idle_output() -> None:
    async with make_host(input_wait_ms=300) as host:
        pty_sid = await start_background(host.call, "printf 'Continue? [y/N] '; read -r a; echo ok", pty=True,
                                         agent="main")
        pipe_sid = await start_background(host.call, "sleep 30",
                                          agent="main")  # idle but stdin closed: never waiting
        await wait_for(lambda: host.session(pty_sid).waiting_for_input, what="pty session to wait")
        r = await host.call(P("poll", pty_sid), agent="main")
        d = r["details"]
        assert d["waitingForInput"] and d["stdinWritable"] and d["idleMs"] >= 300 and d["lastOutputAt"]
        assert "send-keys" in r["text"] and "submit" in r["text"]
        r = await host.call(P("log", pty_sid), agent="main")
        assert r["details"]["waitingForInput"] and "paste" in r["text"] and "Continue?" in r["text"]
        r = await host.call(P("list"), agent="main")
        line = next(l for l in r["text"].splitlines() if pty_sid in l)
        assert "[input-wait]" in line
        assert not host.session(pipe_sid).waiting_for_input
        pipe = next(s for s in r["details"]["sessions"] if s["sessionId"] == pipe_sid)
        assert pipe["waitingForInput"] is False and pipe["stdinWritable"] is False


async def test_waiting_changes_are_published_as_events(host: ToolHost) -> None:
    # both ways: a watcher that missed "stopped waiting" would show a stale waiting mark
    events = []
    host.subscribe(events.append)
    sid = await start_background(host.call, "read -r a; echo done-$a; sleep 30", pty=True, agent="main")

    def told(waiting: bool) -> bool:
        return any(e.kind == "session-waiting" and e.session_id == sid and e.payload.to_json()["waitingForInput"] is waiting
                   for e in events)

    await wait_for(lambda: told(True), what="the waiting event")
    await host.call(P("write", sid, data="x\n"), agent="main")
    await poll_until(host, sid, "main", lambda o: "done-x" in o)
    await wait_for(lambda: told(False), what="the stopped-waiting event")
    await host.call(P("kill", sid), agent="main")


# -- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "call, kind, needle",
    [
        (P("frobnicate", "x"), "invalid-params", "valid actions: list, poll"),
        (P("poll"), "missing-session-id", "sessionId"),
        (P("poll", "no-such-session"), "unknown-session", "no-such-session"),
        (P("log", "x", offset=-1), "invalid-params", "offset"),
        (P("poll", "x", bogus=True), "invalid-params", "valid parameters"),
    ],
)
async def test_bad_process_calls_fail_clearly(host: ToolHost, call, kind, needle) -> None:
    r = await host.call(call, agent="main")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == kind
    assert needle in r["text"]


async def test_sessions_of_another_agent_behave_as_not_found(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 30", agent="alice")
    for action in ("poll", "log", "write", "kill", "remove"):
        r = await host.call(P(action, sid, **({"data": "x"} if action == "write" else {})), agent="bob")
        assert r["details"]["failureKind"] == "unknown-session", action
    r = await host.call(P("list"), agent="bob")
    assert r["details"]["sessions"] == []
    r = await host.call(P("list"), agent=None)  # the operator sees everything
    assert [s["sessionId"] for s in r["details"]["sessions"]] == [sid]
    assert host.session(sid).running


async def test_write_to_a_pipe_session_fails_with_a_pty_hint(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 30", agent="main")
    r = await host.call(P("write", sid, data="y\n"), agent="main")
    assert r["details"]["failureKind"] == "stdin-not-writable" and "pty: true" in r["text"]


async def test_input_to_a_finished_session_fails(host: ToolHost) -> None:
    sid = await start_background(host.call, "true", pty=True, agent="main")
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    for action, kw in (("write", {"data": "x"}), ("submit", {}), ("send-keys", {"keys": ["Enter"]}), ("paste", {"text": "x"})):
        r = await host.call(P(action, sid, **kw), agent="main")
        assert r["details"]["failureKind"] == "stdin-not-writable", action


@pytest.mark.parametrize("action, kw", [("write", {}), ("write", {"data": ""}), ("send-keys", {}), ("paste", {})])
async def test_nothing_to_send_is_an_error(host: ToolHost, action, kw) -> None:
    sid = await start_background(host.call, "sleep 30", pty=True, agent="main")
    r = await host.call(P(action, sid, **kw), agent="main")
    assert r["details"]["status"] == "failed" and "nothing" in r["text"]


async def test_session_in_its_yield_window_refuses_agent_actions(host: ToolHost) -> None:
    task = asyncio.ensure_future(host.call({"tool": "exec", "command": "sleep 2", "yieldMs": 60_000}, agent="main"))
    session = await wait_for(lambda: next(iter(host.sessions()), None))
    r = await host.call(P("poll", session.id), agent="main")
    assert r["details"]["failureKind"] == "in-yield-window"
    await task


async def test_kill_of_a_finished_session_fails(host: ToolHost) -> None:
    sid = await start_background(host.call, "true", agent="main")
    await asyncio.wait_for(host.session(sid).done.wait(), 20)
    r = await host.call(P("kill", sid), agent="main")
    assert r["details"]["failureKind"] == "not-running"


async def test_a_parameter_the_action_ignores_is_refused_not_silently_dropped(host: ToolHost) -> None:
    sid = await start_background(host.call, "cat", pty=True, agent="main")
    r = await host.call(P("send-keys", sid, keys=["C-d"], eof=True), agent="main")
    assert r["details"]["status"] == "failed" and "'eof' does not apply to action 'send-keys'" in r["text"]
    assert "keys, hex, literal" in r["text"] and not host.session(sid).inputs
    r = await host.call(P("list", None, limit=5), agent="main")
    assert r["details"]["status"] == "failed" and "'limit'" in r["text"]
    # clients that send every field of the schema, null or default, are fine
    every = {"sessionId": sid, "timeout": None, "offset": None, "limit": None, "data": None, "eof": False,
             "keys": None, "hex": None, "literal": None, "text": None, "bracketed": None}
    r = await host.call({"tool": "process", "action": "poll", **every}, agent="main")
    assert r["details"]["status"] == "running"
    await host.call(P("kill", sid), agent="main")


async def test_input_beyond_the_queue_cap_is_refused_whole_with_its_own_kind(host: ToolHost, monkeypatch) -> None:
    monkeypatch.setattr("openclaw_tui.core.containment.runner.MAX_QUEUED_INPUT", 1000)
    sid = await start_background(host.call, "sleep 60", pty=True, agent="main")
    r = await host.call(P("write", sid, data="x" * 2000), agent="main")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "input-queue-full"
    assert "nothing was sent" in r["text"] and not host.session(sid).inputs
    await host.call(P("kill", sid), agent="main")


async def test_a_program_reading_its_terminal_is_called_waiting_before_the_idle_rule(host: ToolHost) -> None:
    # the kernel's evidence (about a second) instead of the 15 s rule: no "poll again" while it waits for you
    sid = await start_background(host.call, "printf 'Name? '; read -r a; echo hi $a; sleep 30", pty=True,
                                 agent="main")
    await wait_for(lambda: host.session(sid).waiting_reason == "reading-terminal", what="the kernel's evidence")
    for action in ("poll", "log", "screen"):
        r = await host.call(P(action, sid), agent="main")
        assert r["details"]["waitingForInput"] is True, action  # the text and the flag agree
        assert "is waiting for input (it is reading its terminal)" in r["text"] and "Poll again" not in r["text"]
    r = await host.call(P("list", None), agent="main")
    assert "[input-wait]" in r["text"] and r["details"]["sessions"][0]["waitingForInput"] is True
    await host.call(P("write", sid, data="bo\n"), agent="main")
    await poll_until(host, sid, "main", lambda o: "hi bo" in o)
    r = await host.call(P("poll", sid), agent="main")  # busy sleeping now: neither says it waits
    assert r["details"]["waitingForInput"] is False and "waiting for input" not in r["text"]
    await host.call(P("kill", sid), agent="main")


async def test_an_idle_program_not_reading_its_terminal_is_flagged_with_a_caution() -> None:
    async with make_host(input_wait_ms=300) as host:
        sid = await start_background(host.call, "sleep 60", pty=True, agent="main")
        await wait_for(lambda: host.session(sid).waiting_for_input, what="the idle rule")
        r = await host.call(P("poll", sid), agent="main")
        assert r["details"]["waitingForInput"] and r["details"]["waitingReason"] is None
        assert "does not look blocked reading its terminal" in r["text"]
        await host.call(P("kill", sid), agent="main")


async def test_a_poll_timeout_past_the_cap_says_so(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 0.2; echo done; sleep 60", agent="main")
    r = await host.call(P("poll", sid, timeout=50000), agent="main")  # returns at the output, well before
    assert "waited at most 30000 ms" in r["text"]
    await host.call(P("kill", sid), agent="main")


async def test_screen_shows_what_a_full_screen_program_draws(host: ToolHost) -> None:
    # a program that draws with cursor moves: its output as text is a jumble, its screen is readable
    draw = r"printf '\033[?1049h\033[2J\033[3;5Htitle\033[10;1Hstatus line\033[20;1H'; echo ready; sleep 60"
    sid = await start_background(host.call, draw, pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "ready" in o)
    r = await host.call(P("screen", sid), agent="main")
    lines = r["text"].splitlines()
    assert (lines[2], lines[9], lines[19]) == ("    title", "status line", "ready")
    assert "[screen 120x30, alternate screen (a full-screen program), cursor at row 21, column 1]" in r["text"]
    assert r["details"]["status"] == "running"
    pipe = await start_background(host.call, "sleep 60", agent="main")
    r = await host.call(P("screen", pipe), agent="main")
    assert r["details"]["failureKind"] == "not-a-pty" and "log" in r["text"]
    for s in (sid, pipe):
        await host.call(P("kill", s), agent="main")


async def test_a_core_host_without_a_terminal_engine_refuses_screen_clearly() -> None:
    async with hosting(SessionHost(env={}, config_path="/dev/null")) as host:
        sid = await start_background(host.call, "sleep 60", pty=True, agent="main")
        r = await host.call(P("screen", sid), agent="main")
        assert r["details"]["failureKind"] == "no-screen" and "log" in r["text"]
        await host.call(P("kill", sid), agent="main")
