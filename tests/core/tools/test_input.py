"""Input reaches PTY children byte for byte, in the right cursor mode, without ever blocking the host."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from openclaw_tui import ToolHost
from openclaw_tui.core.procs.inputwait import echo_hidden

from ...support.sessions import poll_until, start_background
from ...support.waiting import wait_for

RAW = f"{sys.executable} {Path(__file__).with_name('rawchild.py')}"


def P(action: str, sid: str, **kw):
    return {"tool": "process", "action": action, "sessionId": sid, **kw}


async def _got(host: ToolHost, sid: str) -> bytes:
    out = await poll_until(host, sid, "main", lambda o: "GOT " in o)
    return bytes.fromhex(out.split("GOT ", 1)[1].split()[0])


async def test_literal_hex_and_keys_arrive_as_the_exact_bytes(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 16", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    r = await host.call(P("send-keys", sid, literal="你好😀", hex=["c3 a9", "0x00", "ff"], keys=["C-c", "Enter"]), agent="main")
    assert r["details"]["bytes"] == 16
    assert await _got(host, sid) == "你好😀".encode() + b"\xc3\xa9\x00\xff\x03\r"


async def test_bad_hex_is_skipped_with_a_warning(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 2", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    r = await host.call(P("send-keys", sid, hex=["41", "zz", "42"]), agent="main")
    assert "zz" in r["text"] and r["details"]["warnings"]
    assert await _got(host, sid) == b"AB"


async def test_arrows_follow_application_cursor_mode_even_when_the_switch_is_split(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 6 app", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    assert host.session(sid).tracked_modes.app_cursor is True
    await host.call(P("send-keys", sid, keys=["Up", "Left"]), agent="main")
    assert await _got(host, sid) == b"\x1bOA\x1bOD"


async def test_arrows_in_normal_mode_use_csi(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 9", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    await host.call(P("send-keys", sid, keys=["Up", "C-Right"]), agent="main")
    assert await _got(host, sid) == b"\x1b[A\x1b[1;5C"


async def test_keys_spelled_as_agents_write_them_arrive_as_those_keys(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 7", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    r = await host.call(P("send-keys", sid, keys=["Ctrl-C", "Alt-x", "Shift-Tab", "Return"]), agent="main")
    assert r["details"]["warnings"] == [], r["text"]
    assert await _got(host, sid) == b"\x03\x1bx\x1b[Z\r"


async def test_a_near_miss_of_a_key_name_sends_nothing_of_the_call(host: ToolHost) -> None:
    sid = await start_background(host.call, f"{RAW} 1", pty=True, agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)
    r = await host.call(P("send-keys", sid, keys=["Ctrl-C", "Entr"]), agent="main")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "bad-keys"
    assert "did you mean Enter?" in r["text"] and "Nothing was sent" in r["text"]
    assert not host.session(sid).inputs and host.session(sid).running
    await host.call(P("send-keys", sid, keys=["x"]), agent="main")
    assert await _got(host, sid) == b"x"  # the first byte the program read: nothing came before it


async def test_bare_arrow_before_any_output_fails_asking_to_poll(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 30", pty=True, agent="main")
    r = await host.call(P("send-keys", sid, keys=["Down"]), agent="main")
    assert r["details"]["status"] == "failed" and "poll" in r["text"]
    assert not host.session(sid).inputs


async def test_large_paste_to_a_slow_reader_never_blocks_other_calls(host: ToolHost) -> None:
    # The reader takes 10 MB slowly; meanwhile another session's calls must answer promptly.
    sid = await start_background(
        host.call, "python3 -c \"import sys,time,tty; tty.setraw(0); n=0; print('READY', flush=True)\n"
                   "while n < 10_000_000:\n d=sys.stdin.buffer.raw.read(65536); n+=len(d); time.sleep(0.001)\n"
                   "print('total', n)\"", pty=True, agent="main")
    other = await start_background(host.call, "sleep 30", agent="main")
    await poll_until(host, sid, "main", lambda o: "READY" in o)  # raw mode first: a full line buffer drops input
    text = "x" * 10_000_000
    start = time.monotonic()
    r = await host.call(P("paste", sid, text=text, bracketed=False), agent="main")
    assert time.monotonic() - start < 5
    assert r["details"]["bytes"] == 10_000_000 and r["details"]["bytesQueued"] > 0
    for _ in range(5):
        t0 = time.monotonic()
        await host.call(P("poll", other), agent="main")
        assert time.monotonic() - t0 < 2
    await poll_until(host, sid, "main", lambda o: "total 10000000" in o, timeout=120)


async def test_write_to_a_child_that_never_reads_leaves_the_host_responsive(host: ToolHost) -> None:
    sid = await start_background(host.call, "sleep 60", pty=True, agent="main")
    other = await start_background(host.call, "echo alive; sleep 30", agent="main")
    for _ in range(3):
        r = await host.call(P("write", sid, data="y" * 1_000_000), agent="main")
        assert r["details"]["status"] == "running"
    assert host.session(sid).child.queued > 0
    out = await poll_until(host, other, "main", lambda o: "alive" in o)
    assert "alive" in out
    r = await host.call(P("kill", sid), agent="main")
    assert r["details"]["cleanup"] == "confirmed"


async def test_pty_child_never_blocks_when_nobody_reads_its_output(host: ToolHost) -> None:
    sid = await start_background(host.call, "head -c 20000000 /dev/zero | tr '\\0' 'a'; echo; echo finished",
                                 pty=True, agent="main")
    s = host.session(sid)
    await asyncio.wait_for(s.done.wait(), 60)
    assert s.exit.code == 0 and "finished" in s.output.tail_text(100)
    assert len(s.raw) <= s.settings.raw_ring_bytes


async def test_pipe_and_pty_output_are_stripped_and_invalid_utf8_replaced(host: ToolHost) -> None:
    cmd = r"printf '\033[31mred\033[0m \033]0;title\007plain \377\376 end\n'"
    for pty in (False, True):
        r = await host.call({"tool": "exec", "command": cmd, "pty": pty}, agent="main")
        assert r["text"].strip() == "red plain \ufffd\ufffd end", pty


async def test_escape_sequences_split_across_reads_are_still_stripped(host: ToolHost) -> None:
    cmd = r"printf '\033[3'; sleep 0.2; printf '1mred\033]0;ti'; sleep 0.2; printf 'tle\007 ok\n'"
    r = await host.call({"tool": "exec", "command": cmd}, agent="main")
    assert r["text"].strip() == "red ok"


async def test_input_typed_at_a_password_prompt_is_recorded_without_its_text(host: ToolHost) -> None:
    code = "import getpass; p = getpass.getpass('pw: '); print('got', len(p)); input('name: ')"
    sid = await start_background(host.call, f'{sys.executable} -c "{code}"', pty=True, agent="main")
    session = host.session(sid)
    await poll_until(host, sid, "main", lambda o: "pw:" in o)
    await wait_for(lambda: echo_hidden(session.child.stdin_fd), what="echo off at the prompt")
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "hunter2\n"}, agent="main")
    await poll_until(host, sid, "main", lambda o: "got 7" in o and "name:" in o)
    await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "bob\n"}, agent="main")
    r = await host.call({"tool": "process", "action": "log", "sessionId": sid}, agent="main")
    assert [i["preview"] for i in r["details"]["inputs"]] == ["•••", "bob\n"]
    assert [i["bytes"] for i in r["details"]["inputs"]] == [8, 4]
    assert "hunter2" not in str(r)


async def test_keystrokes_typed_through_are_one_record_per_line(host: ToolHost) -> None:
    sid = await start_background(host.call, "cat", pty=True, agent="main")
    session = host.session(sid)
    for key in (b"h", b"i", b"\r", b"x"):
        session.send(key, "operator", "type")
    session.send(b"y\n", "main", "write")
    session.send(b"z", "operator", "type")  # after another sender's input: a new record
    assert [(r.source, r.preview, r.nbytes) for r in session.inputs] == [
        ("operator", "hi\r", 3), ("operator", "x", 1), ("main", "y\n", 2), ("operator", "z", 1)]
    await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")
