"""Several sessions at once: marking sessions in the list, tiling them, moving the focus between tiles and
typing through into one, at 120x40 and 80x24.

Real hosts and real programs: each tile shows a real PTY (or pipe) session's live output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot

from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.help import HelpDialog
from openclaw_tui.ui.notices import NoticeLine
from openclaw_tui.ui.sessions.list import TILE_MARK, SessionList
from openclaw_tui.ui.sessions.workspace import Workspace
from openclaw_tui.ui.tiles import Tile, TileGrid, arrange

from ..support.pilots import SMALL, ClosingApp, drawn, new_host, run, screen_text, toasts, until
from ..support.sessions import start_background

BIG = (120, 40)
SIZES = pytest.mark.parametrize("size", [BIG, SMALL], ids=["120x40", "80x24"])
ECHOER = "printf 'tile %s ready\\n' {n}; while read -r line; do echo \"got:$line\"; done"


def tiles(app: DashboardApp) -> list[Tile]:
    return app.query_one(TileGrid).tiles


def title(tile: Tile) -> str:
    return Text.from_markup(str(tile.border_title)).plain


def tile_text(tile: Tile) -> str:
    body = tile.body
    return "\n".join(body.render_line(y).text.rstrip() for y in range(body.size.height))


async def started(pilot: Pilot[Any], app: DashboardApp, count: int, pty: bool = True) -> list[str]:
    """``count`` echoing sessions, listed; their ids, oldest first."""
    ids = [await start_background(app.host.call, ECHOER.format(n=n), pty=pty, workdir="/tmp") for n in range(count)]
    await until(pilot, lambda: all(i in app.query_one(SessionList).ids for i in ids), "the sessions listed")
    return ids


async def mark(pilot: Pilot[Any], app: DashboardApp, ids: list[str]) -> None:
    for sid in ids:
        await until(pilot, lambda sid=sid: app.workspace.select(sid) and app.workspace.selected is not None
                    and app.workspace.selected.id == sid, f"{sid} selected")
        await pilot.press("space")
    await until(pilot, lambda: app.workspace.marked == ids, "the sessions marked")


def test_tiles_stand_side_by_side_while_each_keeps_80_columns_else_stack() -> None:
    assert (arrange(2, 200).columns, arrange(2, 200).rows) == (2, 1)
    assert (arrange(2, 120).columns, arrange(2, 120).rows) == (1, 2)
    assert (arrange(4, 160).columns, arrange(4, 160).rows) == (2, 2)
    assert (arrange(4, 80).columns, arrange(4, 80).rows) == (1, 4)
    three = arrange(3, 160)
    assert (three.columns, three.rows, three.last_spans) == (2, 2, 2)  # the third takes its row's width
    assert arrange(9, 400).count == 4  # four at most


@SIZES
async def test_space_marks_sessions_in_the_list_and_v_tiles_them_each_live(app: DashboardApp, size):
    async with run(app, size) as pilot:
        ids = await started(pilot, app, 3)
        await mark(pilot, app, ids[:2])
        session_list = app.query_one(SessionList)
        marked_rows = [line for line in drawn(session_list) if line.startswith(TILE_MARK)]
        assert len(marked_rows) == 2 and all(any(i in row for i in ids[:2]) for row in marked_rows), marked_rows
        assert any("marked; v tiles them" in t for t in toasts(app))
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 2, "two tiles")
        assert not session_list.display or not session_list.is_on_screen
        for n, tile in enumerate(tiles(app)):
            assert tile.session.id == ids[n]
            await until(pilot, lambda tile=tile, n=n: f"tile {n} ready" in tile_text(tile), f"tile {n} live")
            # the title line (the border's top) marks the wait once the host has seen it
            await until(pilot, lambda tile=tile: "◆" in drawn(tile)[0], f"tile {n}'s title marked waiting")
            title = drawn(tile)[0]
            assert ids[n] in title and "printf" in title and "◆" in title and "waiting" in title, title
            region = tile.region
            assert region.right <= size[0] and region.bottom <= size[1]
        first, second = (t.region for t in tiles(app))
        assert first.x == second.x and first.bottom <= second.y  # stacked: 120 columns hold one of 80
        assert tiles(app)[0].body.has_focus
        await pilot.press("v")
        await until(pilot, lambda: not app.workspace.tiled and not app.query(Tile), "the tiles gone")
        await until(pilot, lambda: session_list.has_focus and app.workspace.selected is not None, "the list back")


async def test_tab_moves_the_focus_and_type_through_goes_to_the_focused_tile_and_leaves(app: DashboardApp):
    async with run(app, BIG) as pilot:
        ids = await started(pilot, app, 2)
        await mark(pilot, app, ids)
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 2, "two tiles")
        first, second = tiles(app)
        await pilot.press("tab")
        await until(pilot, lambda: second.body.has_focus, "tab: the second tile")
        assert app.workspace.selected is not None and app.workspace.selected.id == ids[1]
        await pilot.press("t")
        await until(pilot, lambda: second.typing, "typing through into the second tile")
        assert "TYPE-THROUGH" in drawn(second)[0] and "ctrl+] leaves" in drawn(second)[0]
        await pilot.press("t", "a", "b", "tab", "v", "enter")  # every key goes to the program, tab and v too
        await until(pilot, lambda: "got:tab\tv" in app.host.session(ids[1]).output.full_text(), "the keys arrived")
        assert "got:" not in app.host.session(ids[0]).output.full_text()
        assert app.workspace.tiled and second.body.has_focus
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not second.typing and "TYPE-THROUGH" not in drawn(second)[0],
                    "left type-through")
        assert app.workspace.tiled and second.body.has_focus  # still tiled, the focus where it was
        await pilot.press("shift+tab")
        await until(pilot, lambda: first.body.has_focus, "shift+tab: the first tile again")


async def test_v_with_no_mark_or_one_mark_tiles_nothing_and_says_why(app: DashboardApp):
    async with run(app, BIG) as pilot:
        ids = await started(pilot, app, 2)
        await pilot.press("v")
        await until(pilot, lambda: any("no session is marked" in t for t in toasts(app)), "why nothing was tiled")
        assert not app.workspace.tiled
        await mark(pilot, app, ids[:1])
        await pilot.press("v")
        await until(pilot, lambda: any(f"only {ids[0]} is marked" in t and "z zooms" in t for t in toasts(app)),
                    "one mark: tiles need two, z zooms one")
        assert not app.workspace.tiled
        await pilot.press("space")  # space again unmarks
        await until(pilot, lambda: app.workspace.marked == [], "unmarked")


async def test_a_pipe_session_tiles_beside_a_pty_one_and_its_output_arrives(app: DashboardApp):
    async with run(app, BIG) as pilot:
        pty = await started(pilot, app, 1)
        pipe = await start_background(app.host.call, "for i in 1 2 3; do echo pipe-line-$i; sleep 0.3; done; sleep 60",
                                      workdir="/tmp")
        await until(pilot, lambda: pipe in app.query_one(SessionList).ids, "the pipe session listed")
        await mark(pilot, app, [pty[0], pipe])
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 2, "two tiles")
        await until(pilot, lambda: "pipe-line-3" in tile_text(tiles(app)[1]), "the pipe's lines as they come")


async def test_a_tiled_session_that_is_removed_keeps_its_tile_as_last_seen_titled_removed(app: DashboardApp):
    async with run(app, BIG) as pilot:
        gone, stays = await started(pilot, app, 2)
        await mark(pilot, app, [gone, stays])
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 2 and "tile 0 ready" in tile_text(tiles(app)[0]), "two tiles")
        await app.host.call({"tool": "process", "action": "kill", "sessionId": gone})
        await until(pilot, lambda: not app.host.session(gone).running, "the kill")
        removed = await app.host.call({"tool": "process", "action": "remove", "sessionId": gone})
        assert removed["details"]["status"] == "completed", removed
        await until(pilot, lambda: title(tiles(app)[0]).startswith(f"{gone} · ")
                    and " · removed" in title(tiles(app)[0]), "the tile titled removed")
        assert "tile 0 ready" in tile_text(tiles(app)[0])  # its last screen stays
        assert title(tiles(app)[1]).endswith(" · running") and len(tiles(app)) == 2


async def test_the_keymap_remaps_mark_and_tile_by_id(host):
    app = make_app(host, keymap={"mark": "ctrl+m", "tile": "ctrl+t"})
    async with run(app, BIG) as pilot:
        ids = await started(pilot, app, 2)
        for sid in ids:
            await until(pilot, lambda sid=sid: app.workspace.select(sid) and app.workspace.selected is not None
                        and app.workspace.selected.id == sid, f"{sid} selected")
            await pilot.press("ctrl+m")
        await until(pilot, lambda: app.workspace.marked == ids, "marked by the remapped key")
        await pilot.press("ctrl+t")
        await until(pilot, lambda: len(tiles(app)) == 2, "tiled by the remapped key")


async def test_the_readme_key_table_and_the_help_name_every_key_of_the_tiles(app: DashboardApp):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = readme[readme.index("## Keys"):]
    ids = [b.id for b in (*Workspace.BINDINGS, *TileGrid.BINDINGS) if b.id]  # type: ignore[union-attr]
    assert {"mark", "tile", "tile-next", "tile-previous"} <= set(ids)
    assert [i for i in ids if f"`{i}`" not in table] == []
    async with run(app, (120, 50)) as pilot:
        await pilot.press("question_mark")
        dialog = await until(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen, "the help")
        text = str(dialog.query_one("#help-keys").render())
        for keys, what in (("space", "mark the selected session"), ("v", "tiles: up to four"),
                           ("tab", "next tile"), ("shift+tab", "previous tile")):
            assert any(line.split()[:1] == [keys] and what in line for line in text.splitlines()), (keys, text)


PROMPT = "bash -c 'printf \"\\033[32mready\\033[0m to deploy\\n\"; read -r -p \"Deploy to production? [y/N] \" a'"
BUILD = "printf 'compiling \\033[1mcore\\033[0m\\ncompiling ui\\n\\033[33mwarning\\033[0m: unused import\\nbuild$ '; sleep 60"


@SIZES
def test_two_tiles_snapshot(snap_compare, frozen, size):
    """Two marked sessions tiled: stacked (neither size leaves two tiles 80 columns each), each title with the
    id, command and status, the waiting one marked, the focused tile's border heavy."""
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        prompt = await start_background(app.host.call, PROMPT, pty=True, workdir="/tmp")
        build = await start_background(app.host.call, BUILD, pty=True, workdir="/tmp")
        await until(pilot, lambda: app.host.session(prompt).waiting_for_input, "the prompt waiting")
        await until(pilot, lambda: "build$" in screen_text(app) or app.workspace.select(build), "listed")
        await mark(pilot, app, [prompt, build])
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 2 and "Deploy to production" in tile_text(tiles(app)[0])
                    and "build$" in tile_text(tiles(app)[1]), "both tiles live")
        await until(pilot, lambda: "◆" in drawn(tiles(app)[0])[0], "the waiting marker in the title")
        app.query_one(NoticeLine).clear()
        await pilot.pause(0.2)

    assert snap_compare(ClosingApp(new_host(600_000)), terminal_size=size, run_before=run_before)


async def test_at_80_columns_the_tiles_footer_fits_and_keeps_tab_or_the_help_key(app: DashboardApp):
    async with run(app, SMALL) as pilot:
        ids = await started(pilot, app, 3)
        await mark(pilot, app, ids)
        await pilot.press("v")
        await until(pilot, lambda: len(tiles(app)) == 3, "three tiles")
        keys = await until(pilot, lambda: [k for k in app.query("FooterKey") if k.region.width] or None, "the footer")
        assert all(k.region.right <= SMALL[0] for k in keys), [(k.action, k.region) for k in keys]
        assert any(k.action == "toggle_help" for k in keys)  # what did not fit is in the help
        for tile in tiles(app):
            assert tile.region.bottom <= SMALL[1] - 2 and tile.body.size.height >= 3  # rows for each program
