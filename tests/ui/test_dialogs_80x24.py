"""At 80x24 every dialog shows its title, its fields and its buttons without scrolling: new command, re-run,
send keys, paste, kill, quit and the approval queue, each opened by its key on a real host's real sessions."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen
from textual.widget import Widget

from openclaw_tui import ToolHost
from openclaw_tui.ui import make_app
from openclaw_tui.ui.dialogs import (
    ApprovalQueue,
    ConfirmDialog,
    NewCommandDialog,
    PasteDialog,
    QuitDialog,
    SendKeysDialog,
)

from ..support.approvals import asking_settings, pending
from ..support.hosts import close_within
from ..support.pilots import SMALL, run, selected, until
from ..support.sessions import start_background

PARTS = ".dialog-title, Input, TextArea, Checkbox, Select, Button, OptionList, RadioSet"


def parts(dialog: Screen) -> list[Widget]:
    """The title, the fields and the buttons of ``dialog`` that are shown."""
    return [w for w in dialog.query(PARTS) if w.display and all(a.display for a in w.ancestors if isinstance(a, Widget))]


async def check(pilot, app, key: str, kind: type[Screen]) -> None:
    await pilot.press(key)
    dialog = await until(pilot, lambda: isinstance(app.screen, kind) and app.screen, kind.__name__)
    box = dialog.query_one(".dialog-box")
    await until(pilot, lambda: box.region.width > 0 and parts(dialog), f"{kind.__name__} laid out")
    await pilot.pause(0.1)
    screen = dialog.region
    assert box.max_scroll_y == 0, (kind.__name__, "the dialog scrolls", box.virtual_size, box.region)
    found = parts(dialog)
    assert any(w.has_class("dialog-title") for w in found), kind.__name__
    assert all(button in found for button in dialog.query("Button")), kind.__name__  # every button is shown
    for widget in found:
        assert widget.region.height > 0 and screen.contains_region(widget.region), (kind.__name__, widget,
                                                                                    widget.region)
        assert box.region.contains_region(widget.region), (kind.__name__, widget, widget.region, box.region)
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(app.screen, kind), f"{kind.__name__} closed")


async def test_every_dialog_shows_its_title_fields_and_buttons_at_80x24_without_scrolling(app, host):
    async with run(app, SMALL) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        for key, kind in (("n", NewCommandDialog), ("R", NewCommandDialog), ("k", SendKeysDialog),
                          ("p", PasteDialog), ("x", ConfirmDialog), ("q", QuitDialog)):
            await check(pilot, app, key, kind)


async def test_the_approval_queue_shows_its_title_and_request_at_80x24_without_scrolling(tmp_path: Path):
    host = ToolHost(settings=asking_settings(tmp_path / "exec-approvals.json", ask="on-miss"))
    host.start()
    try:
        app = make_app(host)
        async with run(app, SMALL) as pilot:
            await pending(host.call, "echo waits for the operator")
            await until(pilot, lambda: host.pending_approvals(), "a request")
            await check(pilot, app, "a", ApprovalQueue)
    finally:
        await close_within(host)
