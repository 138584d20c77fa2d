"""A mute is kept in the journal: the next host on the same socket still leaves those sessions and agents out."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.journal.restore import journal_name

from ...support.journals import ended, flushed, host_on
from ...support.sessions import start_background


async def test_mutes_survive_a_restart_and_go_with_their_session(tmp_path: Path) -> None:
    sock = tmp_path / "host.sock"
    async with host_on(tmp_path, sock) as first:
        kept = await start_background(first.call, "echo kept", agent="main")
        dropped = await start_background(first.call, "echo dropped", agent="main")
        for sid in (kept, dropped):
            await ended(first, sid)
            assert (await first.mute(True, session_id=sid))["details"]["status"] == "completed"
        await first.mute(True, agent="night-bot")
        await first.call({"tool": "process", "action": "clear", "sessionId": dropped}, agent=None)
        await flushed(first)
    assert (tmp_path / "journal" / journal_name(sock) / "mutes.jnl").stat().st_mode & 0o777 == 0o600
    async with host_on(tmp_path, sock) as second:
        assert second.session(kept).muted and second.session(kept).details()["muted"] is True
        assert second.supervisor.mutes.to_json() == {"sessions": [kept], "agents": ["night-bot"]}
        later = await start_background(second.call, "sleep 30", agent="night-bot")
        assert second.session(later).muted, "an agent's mute covers its new sessions too"
        await second.mute(False, agent="night-bot")
        assert not second.session(later).muted


async def test_bad_mute_requests_fail_naming_the_problem(tmp_path: Path) -> None:
    async with host_on(tmp_path, tmp_path / "host.sock") as host:
        neither = await host.mute(True)
        assert neither["details"]["failureKind"] == "invalid-params" and "not both" in neither["text"]
        unknown = await host.mute(True, session_id="no-such")
        assert unknown["details"]["failureKind"] == "unknown-session"
