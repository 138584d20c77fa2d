"""Exec approvals are durable: a real ``openclaw-tui serve`` journals every request and decision (fsynced, with
who decided), hands its pending requests to its next image across ``serve --reexec`` with their expiry, and
after a SIGKILL the next host lists what waited as void: its session ``host-died``, never run."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from openclaw_tui.core.journal import read_acts
from openclaw_tui.core.journal.records import APPROVAL, read_json, scan
from openclaw_tui.core.journal.restore import journal_name
from openclaw_tui.remote.wire.client import HostClient

from ..support.approvals import requested
from ..support.serves import ReexecServe, Serve
from ..support.waiting import wait_for


def asking(config: Path, serve: Any, tmp_path: Path) -> None:
    """The host asks the operator for anything outside the sandbox, its allowlist a file of the test's own."""
    config.write_text(config.read_text().replace("[tools.exec]\n", "[tools.exec]\nask = \"on-miss\"\n"))
    serve.env["XDG_CONFIG_HOME"] = str(tmp_path / "config-home")


def journaled(journal: Path) -> list[dict[str, Any]]:
    """The approval records on disk now."""
    try:
        data = (journal / "approvals.jnl").read_bytes()
    except FileNotFoundError:
        return []
    return [read_json(payload) for kind, payload, _ in scan(data).records if kind == APPROVAL]


async def test_requests_and_decisions_are_journaled_and_a_crash_voids_what_still_waited(tmp_path) -> None:
    serve = Serve(tmp_path, "gateway")
    journal = serve.state / "openclaw-tui" / "journal" / journal_name(serve.sock)
    asking(tmp_path / "config.toml", serve, tmp_path)
    try:
        first = await serve.start()
        async with await HostClient.connect(serve.sock) as client:
            decided = await requested(client.call, "echo decided")
            waiting = await requested(client.call, "echo waiting")
            answer = await client.request("approvals.decide", {"approvalId": decided["approvalId"],
                                                               "decision": "deny", "reason": "no", "tty": "/dev/pts/7"})
            assert answer["details"]["status"] == "completed", answer
            await wait_for(lambda: [r["event"] for r in journaled(journal)] == ["requested", "requested", "decided"],
                           30, "the records on disk")
            allowed = await requested(client.call, "echo allowed-once")
            answer = await client.request("approvals.decide", {"approvalId": allowed["approvalId"],
                                                               "decision": "allow-once"})
            assert answer["details"]["status"] == "completed", answer
            await wait_for(lambda: any(r["event"] == "decided" and r.get("sessionId") == allowed["sessionId"]
                                       for r in journaled(journal)), 30, "the approval's record on disk")
        records = journaled(journal)
        assert records[2]["decision"]["by"] == "operator" and records[2]["decision"]["tty"] == "/dev/pts/7"
        assert records[2]["decision"]["pid"] and records[2]["decision"]["client"]  # the connection's hello said who
        first.kill()  # SIGKILL, with a request still waiting
        first.wait()
        await serve.start()
        async with await HostClient.connect(serve.sock) as client:
            res = await client.call({"tool": "process", "action": "poll", "sessionId": waiting["sessionId"]},
                                    agent="main")
            assert res["details"]["status"] == "failed" and res["details"]["failureKind"] == "host-died", res
            assert "before the operator decided; it never ran" in res["text"] and res["details"]["pid"] is None
            assert (await client.request("approvals.list"))["details"]["approvals"] == []
            past = {r["sessionId"]: r for r in (await client.request("approvals.history"))["details"]["approvals"]}
            assert past[waiting["sessionId"]]["decision"]["state"] == "void"
            assert past[decided["sessionId"]]["decision"]["reason"] == "no"

        def voided() -> bool:  # the voiding is on disk too, once the journal's writer has had its round
            mine = [r for r in journaled(journal) if r.get("sessionId") == waiting["sessionId"] and r.get("decision")]
            return bool(mine) and mine[-1]["decision"]["state"] == "void"
        await wait_for(voided, 30, "the voiding on disk")
    finally:
        await serve.close()

    # the audit reads the same records: who asked, who decided, and how, on each reserved session
    acts = read_acts(str(journal))
    of = {sid: [(a.act, a.actor) for a in acts if a.session_id == sid and a.act != "ended"]
          for sid in (decided["sessionId"], waiting["sessionId"], allowed["sessionId"])}
    assert of[decided["sessionId"]] == [("approval-requested", "main"), ("denied", "operator")], of
    assert of[allowed["sessionId"]][:3] == [("approval-requested", "main"), ("approved", "operator"),
                                            ("started", "main")], of
    assert of[waiting["sessionId"]][:2] == [("approval-requested", "main"), ("denied", "host")], of
    said = {(a.session_id, a.act): a.detail for a in acts}
    assert "echo decided" in said[(decided["sessionId"], "approval-requested")]
    assert said[(decided["sessionId"], "denied")] == "denied: no"
    assert said[(waiting["sessionId"], "denied")].startswith("void")


async def test_pending_requests_survive_a_reexec_with_their_expiry_and_are_decided_after(tmp_path) -> None:
    serve = ReexecServe(tmp_path, "subreaper")
    asking(serve.config, serve, tmp_path)
    try:
        await serve.start()
        inline_client = await HostClient.connect(serve.sock)
        async with await HostClient.connect(serve.sock) as client:
            before = await requested(client.call, "echo after-the-reexec")
            inline = asyncio.ensure_future(inline_client.call(
                {"tool": "exec", "command": "echo was-inline", "yieldMs": 120_000, "workdir": "/tmp"}, agent="main"))
            deadline = asyncio.get_running_loop().time() + 30
            while len((await client.request("approvals.list"))["details"]["approvals"]) < 2:
                assert asyncio.get_running_loop().time() < deadline, "the inline request never came"
                await asyncio.sleep(0.05)
        await serve.reexeced()
        with contextlib.suppress(ConnectionError):
            await inline  # its connection was dropped by the handover: the agent polls from here on
        await inline_client.close()
        async with await HostClient.connect(serve.sock) as client:
            kept, was_inline = (await client.request("approvals.list"))["details"]["approvals"]
            assert kept["approvalId"] == before["approvalId"] and kept["expiresAtMs"] == before["expiresAtMs"]
            listed = await client.call({"tool": "process", "action": "list"}, agent="main")
            assert was_inline["sessionId"] in listed["text"]  # backgrounded at the handover: listed, pollable
            polled = await client.call({"tool": "process", "action": "poll", "sessionId": before["sessionId"]},
                                       agent="main")
            assert polled["details"]["status"] == "approval-pending"
            await client.request("approvals.decide", {"approvalId": before["sessionId"], "decision": "allow-once"})
            done = await client.call({"tool": "process", "action": "poll", "sessionId": before["sessionId"],
                                      "timeout": 20_000}, agent="main")
            assert "after-the-reexec" in done["text"], done
    finally:
        await serve.close()
