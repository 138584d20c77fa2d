"""Which keys the dashboard takes and names: the keymap, the footer at every width, the help, the leave key,
and where the arrows go."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.dialogs import ConfirmDialog
from openclaw_tui.ui.help import HelpDialog
from openclaw_tui.ui.keymap import load_keymap

from ..support.pilots import SIZE, SMALL, footer_actions, run, selected, until
from ..support.sessions import start_background


async def test_keys_are_remapped_by_binding_id_from_the_config(tmp_path, host):
    config = tmp_path / "config.toml"
    config.write_text('[dashboard.keymap]\nkill = "ctrl+k"\nleave-type-through = "f12"\n')
    keymap = load_keymap(config)
    assert keymap == {"kill": "ctrl+k", "leave-type-through": "f12"}
    app = make_app(host, keymap=keymap)
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and app.workspace.selected is host.session(sid),
                    "the session selected")
        await pilot.press("t")
        await until(pilot, lambda: app.workspace.type_through, "type-through on")
        await pilot.press("ctrl+right_square_bracket", "x", "f12")  # the old leave key is typed through now
        await until(pilot, lambda: not app.workspace.type_through, "f12 to leave type-through")
        assert [r.preview for r in host.session(sid).inputs] == ["\x1dx"]  # keystrokes of one line: one record
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "ctrl+k to ask before killing")
        await pilot.press("escape")


def test_keymap_keys_may_be_written_as_typed(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[dashboard.keymap]\nleave-type-through = "ctrl+]"\nfilter = "ctrl+/, f3"\n')
    assert load_keymap(config) == {"leave-type-through": "ctrl+right_square_bracket", "filter": "ctrl+slash,f3"}


def banner(app: DashboardApp) -> str:
    return str(app.query_one("#type-through-banner").render())


async def footer_key(pilot, app: DashboardApp, action: str) -> str:
    key = await until(pilot, lambda: next((k for k in app.query("FooterKey") if k.action == action), None),
                      f"{action} in the footer")
    return str(key.key_display)


async def type_through_on_cat(pilot, app: DashboardApp, host) -> str:
    """Start ``cat`` in a PTY, select it and enter type-through; returns its id."""
    sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
    await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
    await pilot.press("t")
    await until(pilot, lambda: app.workspace.type_through and app.query_one("#type-through-banner").display,
                "type-through on")
    return sid


async def test_type_through_banner_names_the_default_leave_key(app, host):
    async with run(app, SIZE) as pilot:
        await type_through_on_cat(pilot, app, host)
        assert "press ctrl+] to leave" in banner(app)
        assert await footer_key(pilot, app, "leave_type_through") == "ctrl+]"
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not app.workspace.type_through, "type-through off")


async def test_type_through_banner_names_the_remapped_leave_key_as_the_footer_does(host):
    app = make_app(host, keymap={"leave-type-through": "ctrl+g"})
    async with run(app, SIZE) as pilot:
        sid = await type_through_on_cat(pilot, app, host)
        shown = await footer_key(pilot, app, "leave_type_through")
        assert shown != "ctrl+]" and f"press {shown} to leave" in banner(app) and "ctrl+]" not in banner(app)
        await pilot.press("ctrl+g")
        await until(pilot, lambda: not app.workspace.type_through, "the remapped key to leave")
        assert not host.session(sid).inputs  # the leave key was not typed through


async def test_the_main_keys_stay_in_the_footer_at_80_columns_and_help_lists_the_rest(app, host):
    async with run(app, SMALL) as pilot:
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        needed = {"new_command", "quit", "toggle_help", "type_through", "send_keys", "kill"}
        keys = await until(pilot, lambda: needed <= footer_actions(app).keys() and footer_actions(app), "the keys")
        for action in needed:
            assert keys[action].region.right <= SMALL[0], (action, keys[action].region)
        assert "remove" not in keys  # left out for room; the help lists it
        await pilot.press("question_mark")
        dialog = await until(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen, "the help")
        listed = str(dialog.query_one("#help-keys").render())
        assert all(what in listed for what in ("remove a session", "copy the screen", "clear a finished"))
        await pilot.press("question_mark")
        await until(pilot, lambda: not isinstance(app.screen, HelpDialog), "the help closed")


async def test_a_wide_footer_shows_every_key_and_no_help_key(app, host):
    async with run(app, (230, 36)) as pilot:  # every key: fit, approvals, mute, search, zoom, mark, tile, export, info
        sid = await start_background(host.call, "cat", pty=True, workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        keys = await until(pilot, lambda: "remove" in footer_actions(app) and footer_actions(app), "every key")
        assert "toggle_help" not in keys and "new_command" in keys and "quit" in keys


async def test_help_lists_the_dashboards_keys_first_by_purpose(host):
    app = make_app(host, keymap={"kill": "ctrl+k"})
    async with run(app, (120, 50)) as pilot:
        await pilot.press("question_mark")
        dialog = await until(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen, "the help")
        text = str(dialog.query_one("#help-keys").render())
        groups = [line for line in text.splitlines() if line and not line.startswith(" ")]
        assert groups[:5] == ["Sessions", "Input to the selected session", "Looking", "Finding", "Dashboard"]
        for keys, what in (("ctrl+]", "leave type-through"), ("ctrl+s", "send the paste"), ("[", "older lines"),
                           ("]", "newer lines"), ("ctrl+k", "kill"), ("home", "first session")):
            assert any(line.split()[:1] == [keys] and what in line for line in text.splitlines()), (keys, text)
        assert text.index("Dashboard") < text.index("move the focus")  # Textual's own keys come last
        await pilot.press("escape")


ROOT = Path(__file__).resolve().parents[2]


async def test_the_log_view_footer_and_the_readme_name_the_same_paging_keys(app, host):
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, "seq 1 5; sleep 60", workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("l")
        keys = await until(pilot, lambda: {k.action: k for k in app.query("FooterKey") if k.action.startswith("page")}
                           or None, "the paging keys in the footer")
        shown = sorted((str(k.key_display), str(k.description)) for k in keys.values())
        assert shown == [("[", "Older"), ("]", "Newer")], shown
    readme = (ROOT / "README.md").read_text()
    assert "`[` older" in readme and "`]` newer" in readme


async def test_closing_the_log_pane_gives_the_arrows_back_to_the_list(app, host):
    async with run(app, SIZE) as pilot:
        older = await start_background(host.call, "sleep 60", workdir="/tmp")
        newer = await start_background(host.call, "sleep 60", workdir="/tmp")
        await until(pilot, lambda: app.workspace.select(newer) and selected(app) == newer, "the newest selected")
        await pilot.press("l")
        await until(pilot, lambda: app.workspace.view.log_mode, "the log pane open")
        await pilot.press("l", "down")
        await until(pilot, lambda: selected(app) == older, "the arrow moving the selection")
