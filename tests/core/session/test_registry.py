"""Registry: ids, names, retention caps, TTL, eviction."""

from __future__ import annotations

import asyncio
import re

import pytest

from openclaw_tui.core.session import ids
from openclaw_tui.core.session.buffers import Output
from openclaw_tui.core.session.ids import new_session_id
from openclaw_tui.core.session.names import derive_name

from ...support.hosts import make_host
from ...support.sessions import start_background
from ...support.waiting import wait_for


def test_session_ids_are_adjective_noun_slugs() -> None:
    for _ in range(50):
        assert re.fullmatch(r"[a-z]+-[a-z]+", new_session_id(set()))


def test_colliding_ids_get_a_number_then_a_third_word(monkeypatch) -> None:
    monkeypatch.setattr(ids.secrets, "choice", lambda seq: seq[0])
    base = f"{ids.ADJECTIVES[0]}-{ids.NOUNS[0]}"
    taken = {base}
    assert new_session_id(taken) == base + "-2"
    taken |= {f"{base}-{n}" for n in range(2, 10)}
    third = new_session_id(taken)
    assert re.fullmatch(re.escape(base) + r"-[a-z]+", third)


@pytest.mark.parametrize(
    "command, name",
    [
        ('node "my server.js" --port 8080', "node my server.js"),
        ("git commit -m x", "git commit"),
        ("npm run build", "npm run"),
        ("ls -la", "ls"),
        ("/usr/bin/python3 -u train.py", "python3 train.py"),
        ("FOO=1 make -j4 all", "make all"),
        ("sleep 5 && echo done", "sleep 5"),
        ("cat " + "a" * 30 + "b" * 30, "cat " + "a" * 24 + "…" + "b" * 23),
    ],
)
def test_names_are_verb_and_first_target(command, name) -> None:
    assert derive_name(command) == name


def test_retained_output_keeps_head_and_newest_tail_with_a_marker() -> None:
    out = Output(max_chars=1000, pending_max=1000, head_max=100)
    for i in range(500):
        out.append("stdout", f"line {i:04d}\n")
    text = out.full_text()
    assert text.startswith("line 0000\n") and text.endswith("line 0499\n")
    assert "chars dropped" in text and out.truncated and out.tail.size == 1000
    assert out.gap() == 500 * 10 - 1000 - 100


def test_pending_output_is_capped_per_stream_dropping_the_oldest() -> None:
    out = Output(max_chars=10_000, pending_max=1000)
    out.append("stdout", "a" * 900)
    out.append("stderr", "e" * 500)
    out.append("stdout", "b" * 300)
    text, dropped = out.pending.take()
    assert dropped == 200
    assert text == "a" * 700 + "e" * 500 + "b" * 300


async def test_output_caps_apply_to_a_real_flood() -> None:
    async with make_host(max_output_chars=1000, pending_max_chars=1000) as host:
        sid = await start_background(host.call, "seq 1 20000", agent="main")
        s = host.session(sid)
        await asyncio.wait_for(s.done.wait(), 20)
        assert s.output.tail.size <= 1000 and len(s.output.head) <= 4000
        r = await host.call({"tool": "process", "action": "poll", "sessionId": sid}, agent="main")
        assert r["details"]["droppedChars"] > 0 and "dropped" in r["text"]
        assert "20000" in r["text"]


async def test_truncated_foreground_output_says_so_at_the_top() -> None:
    async with make_host(max_output_chars=1000) as host:
        r = await host.call({"tool": "exec", "command": "seq 1 5000"}, agent="main")
        assert r["text"].startswith("[output truncated") and r["details"]["truncated"] is True
        assert r["text"].rstrip().endswith("5000")


async def test_log_of_truncated_output_says_so_at_the_top() -> None:
    async with make_host(max_output_chars=1000) as host:
        r = await host.call({"tool": "exec", "command": "seq 1 5000; sleep 30", "yieldMs": 10}, agent="main")
        sid = r["details"]["sessionId"]
        await wait_for(lambda: host.session(sid).output.truncated, what="output past the cap")
        for call in ({"action": "log"}, {"action": "log", "limit": 5}, {"action": "log", "offset": 0, "limit": 5}):
            r = await host.call({"tool": "process", "sessionId": sid, **call}, agent="main")
            assert r["text"].startswith("[output truncated"), r["text"][:80]
        await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")


async def test_finished_sessions_expire_after_their_ttl() -> None:
    async with make_host(ttl_ms=200) as host:
        events = []
        host.subscribe(events.append)
        sid = await start_background(host.call, "true", agent="main")
        await wait_for(lambda: host.session(sid) is None, what="expiry")
        assert any(e.kind == "session-removed" and e.session_id == sid for e in events)


async def test_running_sessions_do_not_expire() -> None:
    async with make_host(ttl_ms=50) as host:
        sid = await start_background(host.call, "sleep 1; echo x", agent="main")
        s = host.session(sid)
        await asyncio.wait_for(s.done.wait(), 20)  # ran 20x longer than the TTL...
        assert host.session(sid) is s  # ...and the TTL only starts now
        await wait_for(lambda: host.session(sid) is None, what="expiry after the end")


async def test_at_most_50_finished_sessions_are_kept_oldest_evicted_first() -> None:
    async with make_host() as host:
        ids = []
        for _ in range(53):
            sid = await start_background(host.call, "echo x", agent="main")
            await asyncio.wait_for(host.session(sid).done.wait(), 20)
            ids.append(sid)
        listed = [s.id for s in host.supervisor.registry.listed("main")]
        assert len(listed) == 50
        assert set(ids[:3]).isdisjoint(listed) and set(ids[3:]) == set(listed)


async def test_retained_chars_are_bounded_in_all_and_the_newest_keeps_its_output() -> None:
    async with make_host() as host:
        ids = []
        for _ in range(12):  # 12 x ~200k chars > 2,000,000
            sid = await start_background(host.call, "head -c 200000 /dev/zero | tr '\\0' 'z'", agent="main")
            await asyncio.wait_for(host.session(sid).done.wait(), 20)
            ids.append(sid)
        total = sum(s.output.retained_chars for s in host.sessions())
        assert total <= 2_000_000
        assert host.session(ids[-1]).output.tail.size == 200_000
        assert host.session(ids[0]) is None


async def test_a_flood_keeps_the_head_and_a_continuous_tail() -> None:
    async with make_host() as host:
        sid = await start_background(host.call, "seq 1 3000000", pty=True, agent="main")
        s = host.session(sid)
        await asyncio.wait_for(s.done.wait(), 60)
        text = s.output.full_text()
        head, _, tail = text.partition(" chars dropped …]\n")
        assert head.startswith("1\n2\n3\n")
        numbers = [int(n) for n in tail.split()]
        assert numbers[-1] == 3_000_000
        assert numbers == list(range(numbers[0], 3_000_001))  # nothing missing inside the tail
        assert s.output.tail.size >= 150_000
