"""A kill's grace period under every containment: SIGTERM first, then the program gets its 3 s to finish what
its TERM handler does, and only then SIGKILL. A program that cleans up on TERM must get to do it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.settings import ExecSettings, Settings

from ...support.hosts import hosting
from ...support.orphans import containments
from ...support.sessions import poll_until, start_background

# Traps TERM, then takes a second before it writes its file: SIGKILL sent with the TERM, or before the grace
# is over, ends it before the write.
CLEANS_UP_SLOWLY = "trap 'sleep 1; echo written > after-term; exit 0' TERM; echo armed; while :; do sleep 0.1; done"


@pytest.mark.parametrize("containment", containments())
async def test_a_program_gets_the_grace_period_to_finish_its_term_handler(containment: str, tmp_path) -> None:
    where = "sandbox" if containment == "sandbox" else "gateway"
    settings = Settings(exec=replace(ExecSettings(), placement=where),
                        containment="subreaper" if containment == "subreaper" else "auto")
    assert settings.exec.kill_grace_s == 3.0
    async with hosting(ToolHost(settings=settings)) as host:
        sid = await start_background(host.call, CLEANS_UP_SLOWLY, workdir=str(tmp_path), agent="main")
        await poll_until(host, sid, "main", lambda out: "armed" in out)  # the trap is set
        r = await host.call({"tool": "process", "action": "kill", "sessionId": sid}, agent="main")
        assert r["details"]["containment"] == containment
        written = tmp_path / "after-term"
        assert written.exists(), f"SIGKILL came before the TERM handler could write its file: {r['text']}"
        assert written.read_text() == "written\n"
        assert r["details"]["exitCode"] == 0 and r["details"]["exitSignal"] is None, r["text"]
        assert r["details"]["cleanup"] == "confirmed"
