"""Kernel evidence of a waiting prompt: seen within about a second, and not for busy or sleeping jobs."""

from __future__ import annotations

import asyncio

from openclaw_tui.core.procs.inputwait import PASSWORD, READING

from ...support.sessions import start_background
from ...support.waiting import wait_for


async def test_a_shell_prompt_is_seen_reading_the_terminal(host) -> None:
    sid = await start_background(host.call, "read -p 'name? ' n; echo hi $n", pty=True, agent="main")
    s = host.session(sid)
    await wait_for(lambda: s.waiting_reason == READING, what="kernel evidence")
    assert s.waiting_for_input and s.idle_ms() < 15_000  # waiting by the kernel's evidence, before the idle rule
    r = await host.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
    assert r["details"]["waitingReason"] == READING
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "bo\n"}, agent="main")
    await asyncio.wait_for(s.done.wait(), 20)
    assert s.waiting_reason is None


async def test_a_password_prompt_is_recognised_by_echo_off(host) -> None:
    sid = await start_background(host.call, "python3 -c 'import getpass; getpass.getpass(\"Password: \")'",
                                 pty=True, agent="main")
    s = host.session(sid)
    await wait_for(lambda: s.waiting_reason == PASSWORD, what="password evidence")
    await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")


async def test_a_sleeping_or_busy_job_is_not_waiting(host) -> None:
    sleeper = host.session(await start_background(host.call, "echo start; sleep 30", pty=True, agent="main"))
    busy = host.session(await start_background(host.call, "echo start; while :; do :; done", pty=True,
                                               agent="main"))
    reader = host.session(await start_background(host.call, "echo start; read x", pty=True, agent="main"))
    await wait_for(lambda: reader.waiting_reason == READING, what="the control session to be seen")
    # the same ticks that saw the reader looked at the other two
    assert sleeper.waiting_reason is None and busy.waiting_reason is None


async def test_a_program_that_polls_the_terminal_with_a_timeout_is_pacing_not_waiting(host) -> None:
    # Like top between refreshes: select() on the terminal with a timeout, and quiet for a while.
    pacer = host.session(await start_background(
        host.call, "python3 -c \"import select,sys\nprint('go', flush=True)\n"
                   "while True: select.select([sys.stdin], [], [], 5)\"", pty=True, agent="main"))
    reader = host.session(await start_background(
        host.call, "python3 -c \"import select,sys\nprint('go', flush=True)\n"
                   "select.select([sys.stdin], [], [])\"", pty=True, agent="main"))
    await wait_for(lambda: reader.waiting_reason == READING, what="the reader without a timeout to be seen")
    assert pacer.waiting_reason is None
