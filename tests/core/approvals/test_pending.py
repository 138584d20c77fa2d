"""What the agent gets while the operator decides: approval-pending with a reserved session that poll, list
and the notices follow, and how approved, denied, expired, withdrawn and voided requests end."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from openclaw_tui.core.session import now_ms

from ...support.approvals import allow, asking, ended, pending, poll, run
from ...support.waiting import wait_for


async def test_a_request_not_decided_in_the_yield_window_answers_approval_pending_with_a_reserved_session(
        tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        before = now_ms()
        res = await run(host, "echo later", yieldMs=200)
        d = res["details"]
        assert d["status"] == "approval-pending" and d["pid"] is None and d["approvalId"].startswith("ap-")
        assert d["operatorAttached"] is False
        assert before + 1_800_000 <= d["expiresAtMs"] <= now_ms() + 1_800_000
        sid = d["sessionId"]
        text = res["text"]
        assert "Command NOT started" in text and "The operator decides, you cannot" in text
        assert "until" in text and f"Do not re-run it: poll {sid}" in text and "wait for the notice" in text
        listed = await host.call({"tool": "process", "action": "list"}, agent="main")
        assert [s["status"] for s in listed["details"]["sessions"]] == ["approval-pending"]
        assert f"{sid}  approval-pending" in listed["text"] and "not started" in listed["text"]
        refused = await host.call({"tool": "process", "action": "write", "sessionId": sid, "data": "x"}, agent="main")
        assert refused["details"]["failureKind"] == "approval-pending" and "has not started" in refused["text"]
        leave = host.attend()  # a dashboard comes
        assert (await poll(host, sid))["details"]["operatorAttached"] is True
        leave()


async def test_approved_in_the_yield_window_it_runs_as_usual_its_window_counted_from_the_spawn(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        call = asyncio.ensure_future(run(host, "sleep 1; echo done", yieldMs=3000))
        request = await wait_for(lambda: host.pending_approvals() and host.pending_approvals()[0], what="the request")
        await wait_for(lambda: now_ms() - request["createdAtMs"] >= 2500, what="most of the window to pass")
        decided = await host.decide_approval(request["approvalId"], "allow-once")
        assert decided["details"]["status"] == "completed", decided
        res = await call
        # counted from the call, 0.5 s would have been left for a 1 s run; from the spawn, all 3 s are
        assert res["details"]["status"] == "completed" and res["text"] == "done" and res["details"]["sessionId"] is None


async def test_background_does_not_wait_and_poll_waits_for_the_decision(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        began = time.monotonic()
        sid = await pending(host.call, "echo after-approval")
        assert time.monotonic() - began < 5
        waited = await poll(host, sid, timeout=300)
        assert waited["details"]["status"] == "approval-pending" and waited["details"]["retryInMs"] == 5000
        assert "(not started)" in waited["text"] and "the operator decides, not you" in waited["text"]
        polling = asyncio.ensure_future(poll(host, sid, timeout=20_000))
        await asyncio.sleep(0)
        await host.decide_approval(sid, "allow-once")  # by its session id
        res = await polling
        assert res["details"]["status"] in ("running", "completed") and "after-approval" in res["text"], res


async def test_denied_it_fails_with_the_reason_and_the_agent_gets_the_exit_notice(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "touch /tmp/should-not-exist-denied")
        res = await host.decide_approval(sid, "deny", reason="not today")
        assert "denied by operator" in res["text"] and "not today" in res["text"]
        await ended(host, sid)
        nxt = await host.call({"tool": "process", "action": "list"}, agent="main")
        notice = nxt["details"]["notifications"][0]
        assert notice["sessionId"] == sid and notice["failureKind"] == "approval-denied"
        assert "denied by the operator; it never ran (reason: not today)" in notice["text"]
        res = await poll(host, sid)
        assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "approval-denied"
        assert res["details"]["neverRan"] is True and not Path("/tmp/should-not-exist-denied").exists()
        again = await host.decide_approval(sid, "allow-once")
        assert again["details"]["failureKind"] == "already-decided" and "already denied" in again["text"]


async def test_expired_askfallback_decides_deny_is_approval_timeout(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss", approval_timeout_ms=300) as host:
        sid = await pending(host.call, "echo too-late")
        res = await poll(host, sid, timeout=20_000)
        assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "approval-timeout", res
        assert "not approved in time" in res["text"]
        past = host.approval_history()[-1]
        assert past["decision"]["state"] == "expired" and past["decision"]["by"] == "askFallback"


async def test_expired_askfallback_full_runs_it_and_allowlist_runs_what_the_file_allows_by_then(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="always", approval_timeout_ms=300, ask_fallback="full") as host:
        sid = await pending(host.call, "echo fell-back")
        res = await poll(host, sid, timeout=20_000)
        assert "fell-back" in res["text"], res
    async with asking(tmp_path / "ea.json", ask="always", approval_timeout_ms=1500, ask_fallback="allowlist") as host:
        on_list = await pending(host.call, "echo on-list")
        off_list = await pending(host.call, "ls /")
        allow(tmp_path / "ea.json", {"pattern": "/usr/bin/echo"})  # a hand edit while they wait
        assert "on-list" in (await poll(host, on_list, timeout=20_000))["text"]
        res = await poll(host, off_list, timeout=20_000)
        assert res["details"]["failureKind"] == "approval-timeout"


async def test_one_still_waiting_notice_reaches_the_agent(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss", approval_running_notice_ms=200) as host:
        sid = await pending(host.call, "echo waits")
        notices = []

        async def next_notice() -> bool:
            res = await host.call({"tool": "process", "action": "list"}, agent="main")
            notices.extend(res["details"].get("notifications", []))
            return bool(notices)

        deadline = time.monotonic() + 20
        while not await next_notice():
            assert time.monotonic() < deadline, "no notice came"
            await asyncio.sleep(0.05)
        assert [n["kind"] for n in notices] == ["approval-waiting"] and notices[0]["sessionId"] == sid
        assert "still waits for the operator's approval" in notices[0]["text"] and "Do not re-run it" in notices[0]["text"]
        waiting = host.supervisor.approvals.find(sid)
        assert waiting is not None and waiting.noticed and waiting.notice is not None  # one timer, spent: no second
        assert not (await host.call({"tool": "process", "action": "list"}, agent="main"))["details"].get("notifications")
        assert not host.session(sid).told  # the notice tells no end


async def test_kill_withdraws_a_request_and_a_cancelled_exec_takes_its_request_back(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "echo withdrawn")
        res = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")
        assert "Withdrew the approval request" in res["text"] and res["details"]["sessionStatus"] == "failed"
        assert host.session(sid).exit.failure == "approval-withdrawn" and host.pending_approvals() == []
        assert "notifications" not in (await host.call({"tool": "process", "action": "list"}, agent="main"))["details"]
        call = asyncio.ensure_future(run(host, "echo cancelled", yieldMs=60_000))
        await wait_for(lambda: host.pending_approvals(), what="the inline request")
        call.cancel()
        await wait_for(lambda: not host.pending_approvals(), what="the request withdrawn")
        assert host.approval_history()[-1]["decision"]["state"] == "withdrawn"


async def test_without_the_process_tool_the_exec_waits_inline_for_the_decision(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss", process=False) as host:
        call = asyncio.ensure_future(run(host, "echo synchronous", yieldMs=10))
        request = await wait_for(lambda: host.pending_approvals() and host.pending_approvals()[0], what="the request")
        await wait_for(lambda: now_ms() - request["createdAtMs"] > 200, what="the yield window to pass")
        assert not call.done()  # past its window the call still waits: there is no process tool to poll with
        await host.decide_approval(request["approvalId"], "allow-once")
        res = await call
        assert res["details"]["status"] == "completed" and "synchronous" in res["text"]


async def test_the_log_and_the_inputs_say_who_approved_and_when(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "echo logged")
        await host.decide_approval(sid, "allow-once", where={"via": "api", "client": "a test", "tty": "/dev/pts/9"})
        await ended(host, sid)
        log = await host.call({"tool": "process", "action": "log", "sessionId": sid}, agent="main")
        assert "Approval: approved by operator (a test, /dev/pts/9) at 20" in log["text"]
        inputs = log["details"]["inputs"]
        assert inputs[0]["source"] == "operator" and inputs[0]["action"] == "approved" and inputs[0]["bytes"] == 0
        assert inputs[0]["preview"].startswith("approved by operator (a test, /dev/pts/9) at ")


async def test_allow_always_adds_the_exact_segments_to_the_agents_allowlist(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "echo a b && ls /")
        res = await host.decide_approval(sid, "allow-always")
        assert "approved for good" in res["text"]
        listed = json.loads((tmp_path / "ea.json").read_text())["agents"]["main"]["allowlist"]
        assert [(e["pattern"], e["argPattern"]) for e in listed] == [
            ("/usr/bin/echo", "^a\\ b$"), ("/usr/bin/ls", "^/$")]
        await ended(host, sid)
        assert (await run(host, "echo a b && ls /"))["details"]["status"] == "completed"  # no request now
        await pending(host.call, "echo a c")  # other arguments still ask


async def test_closing_the_host_voids_what_still_waits(tmp_path: Path) -> None:
    async with asking(tmp_path / "ea.json", ask="on-miss") as host:
        sid = await pending(host.call, "echo never")
        session = host.session(sid)
    assert session.status == "failed" and session.exit.failure == "host-closed" and not session.exit.started
    assert host.approval_history()[-1]["decision"]["state"] == "void"
