"""The handover state a re-executing host writes: versioned, read back whole, and readable by newer code.

These tests write a real host's state (finished sessions only: a running one's child can be adopted only by
the next image of the same process, which the serve tests cover) as JSON text, read it into a new host and
compare; then they take away what a writer older than this code would not have written.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.host.reexec_state import (
    FORMAT,
    CannotResume,
    check_format,
    settings_from_json,
    settings_to_json,
)

from ...support.hosts import close_within, exec_settings, hosting
from ...support.sessions import start_background


async def written(host: ToolHost) -> dict:
    """The host's handover state as the next image reads it; the host then goes on (the exec never came)."""
    found = host.handover()
    state = json.loads(json.dumps(found.state))
    host.release_handover(found)
    # The watchdog stays this host's (it ends with it here); the next image of a real re-exec adopts it.
    state["containment"].update(watchdog=None, ready=False, enclosures={})
    return state


async def finished_host() -> tuple[ToolHost, str, str]:
    host = ToolHost(settings=exec_settings(login_path=False))
    host.start()
    sid = await start_background(host.call, "echo hi; exit 3", agent="main")
    quiet = await start_background(host.call, "true", agent="main")
    for s in (sid, quiet):  # not polled: each ending is an exit notice still queued for the agent
        await asyncio.wait_for(host.session(s).done.wait(), 20)
    return host, sid, quiet


async def test_a_state_read_back_has_every_session_id_notice_and_ttl_it_had() -> None:
    old, sid, quiet = await finished_host()
    try:
        ttl = old.supervisor.registry.expiries()
        notices_before = old.supervisor.notices.to_json()
        state = await written(old)
    finally:
        await close_within(old)
    async with hosting(ToolHost(settings=settings_from_json(state["settings"]))) as new:
        new.resume(state)
        assert new.generation == 1
        back = new.session(sid)
        assert back is not None and (back.status, back.exit.code) == ("completed", 3)
        assert back.output.full_text() == "hi\n" and new.session(quiet) is not None
        assert new.supervisor.registry.expiries() == ttl, "a TTL runs on from where it was"
        assert new.supervisor.notices.to_json() == notices_before and notices_before["queues"]["main"]
        assert {sid, quiet} <= set(new.supervisor.registry.issued)
        assert new.supervisor.registry.new_id() not in {sid, quiet}
        listed = await new.call({"tool": "process", "action": "list"}, agent="main")
        assert "[exit]" in listed["text"] and sid in listed["text"], "the queued exit notice still reaches the agent"


async def test_a_state_from_an_older_writer_is_resumed_with_defaults_for_what_it_lacks() -> None:
    old, sid, _ = await finished_host()
    try:
        state = await written(old)
    finally:
        await close_within(old)
    state["version"] = "0.0.1"
    del state["notices"]
    for entry in state["sessions"]:
        del entry["expires"], entry["emptyPolls"]
    del state["settings"]["persist"], state["settings"]["exec"]["notify_on_exit"]
    state["settings"]["a_setting_this_code_does_not_know"] = 1
    async with hosting(ToolHost(settings=settings_from_json(state["settings"]))) as new:
        new.resume(state)
        assert new.supervisor.settings.persist and new.supervisor.settings.exec.notify_on_exit
        back = new.session(sid)
        assert back is not None and back.exit.code == 3 and back.output.full_text() == "hi\n"


def test_settings_read_back_as_they_were() -> None:
    settings = exec_settings(timeout_sec=7, secrets=("/a", "/b"), path_prepend=("/opt/bin",))
    assert settings_from_json(json.loads(json.dumps(settings_to_json(settings)))) == settings


@pytest.mark.parametrize(("state", "says"), [
    ({"format": FORMAT + 1}, f"format {FORMAT + 1}; this code reads formats"),
    ({"format": 0}, "format 0; this code reads formats"),
    ({"sessions": []}, "not a host's state"),
    ([], "not a host's state"),
])
def test_a_state_this_code_cannot_read_is_refused_naming_why(state, says) -> None:
    with pytest.raises(CannotResume, match=says):
        check_format(state)
