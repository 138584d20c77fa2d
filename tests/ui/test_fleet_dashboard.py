"""The dashboard across nodes, driven by a pilot: the local host's sessions and nodes a and b's in one list
(real ssh to real node hosts: the ``rig`` fixture), the node column and filter, actions routed
to a node's host, the new-command dialog's node chooser, and a node that goes away and comes back.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select

from openclaw_tui import ToolHost
from openclaw_tui.remote.nodes.fleet import FleetHost, open_fleet
from openclaw_tui.ui import DashboardApp, make_app
from openclaw_tui.ui.dialogs import ConfirmDialog, NewCommandDialog
from openclaw_tui.ui.sessions.list import SessionList

from ..support.pilots import SIZE, drawn, header, run, selected, toasts, until
from ..support.sessions import start_background
from ..support.sshrig import SshRig

DEADLINE_S = 30.0


@pytest.fixture(name="fleet")
async def fleet_fixture(host: ToolHost, nodes_config: Path) -> AsyncIterator[FleetHost]:
    fleet = open_fleet(str(nodes_config), host)
    assert isinstance(fleet, FleetHost)
    yield fleet
    await asyncio.wait_for(fleet.close(), DEADLINE_S)  # the dashboard leaves its host's lifetime to its maker


@pytest.fixture(name="dash")
def dash_fixture(fleet: FleetHost) -> DashboardApp:
    return make_app(fleet)


def row_of(table: SessionList, sid: str) -> str:
    return next((line for line in drawn(table) if f" {sid} " in line), "")


async def test_every_hosts_sessions_in_one_list_with_a_node_column_and_a_node_filter(dash, fleet) -> None:
    async with run(dash, SIZE) as pilot:
        await until(pilot, lambda: fleet.node_states == {"a": None, "b": None}, "both nodes answering", DEADLINE_S)
        here = await start_background(fleet.call, "sleep 300", workdir="/tmp")
        on_a = await start_background(fleet.call, "sleep 300", host="node", node="a")
        on_b = await start_background(fleet.call, "sleep 300", host="node", node="b")
        table = dash.query_one(SessionList)
        await until(pilot, lambda: set(table.ids) == {here, on_a, on_b}, "every host's session listed", DEADLINE_S)
        assert table.ids == [on_b, on_a, here]  # newest first, whatever host
        assert drawn(table)[0].split()[:2] == ["node", "id"]
        # the list grows to its rows on the next layout: wait for each row to be drawn
        await until(pilot, lambda: row_of(table, on_a).split()[:2] == ["a", on_a], "node a's row drawn")
        await until(pilot, lambda: row_of(table, here).split()[:2] == ["local", here], "the local row drawn")
        await until(pilot, lambda: "3 running" in header(dash), "the header counting every node's sessions")
        assert "unreachable" not in header(dash)
        shown = []
        for _ in range(4):  # all -> local -> a -> b -> all
            await pilot.press("o")
            await pilot.pause()
            shown.append(list(table.ids))
        assert shown == [[here], [on_a], [on_b], [on_b, on_a, here]]
        await pilot.press("slash", *"b/", "enter")  # the text filter reads the node's part of the id too
        await until(pilot, lambda: table.ids == [on_b], "only node b's session")


async def test_actions_on_a_node_session_reach_its_node_and_new_commands_run_where_chosen(dash, fleet) -> None:
    async with run(dash, SIZE) as pilot:
        await until(pilot, lambda: fleet.node_states == {"a": None, "b": None}, "both nodes answering", DEADLINE_S)
        on_b = await start_background(fleet.call, "sleep 300", host="node", node="b")
        table = dash.query_one(SessionList)
        await until(pilot, lambda: on_b in table.ids and dash.workspace.select(on_b) and selected(dash) == on_b,
                    "node b's session selected", DEADLINE_S)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(dash.screen, ConfirmDialog), "the kill question")
        await pilot.press("y")
        res: dict[str, Any] = {}

        async def node_says_ended() -> None:
            res.update(await fleet.nodes["b"].mirror.call(  # type: ignore[union-attr]
                {"tool": "process", "action": "poll", "sessionId": on_b.removeprefix("b/")}))

        for _ in range(int(DEADLINE_S / 0.2)):
            await node_says_ended()
            if res["details"]["status"] != "running":
                break
            await pilot.pause(0.2)
        assert res["details"]["status"] != "running", res  # node b's host ended it
        await until(pilot, lambda: any(on_b in t and "SIGTERM" in t for t in toasts(dash)),
                    "node b's exit among the notices", DEADLINE_S)
        await pilot.press("n")
        dialog = await until(pilot, lambda: isinstance(dash.screen, NewCommandDialog) and dash.screen, "the dialog")
        dialog.query_one("#command", Input).value = "echo chosen-node; sleep 300"
        dialog.query_one("#node", Select).value = "a"
        await until(pilot, lambda: dialog.query_one("#workdir", Input).value == "", "the local workdir dropped")
        await pilot.click("#run")
        await until(pilot, lambda: any(s.node == "a" and s.command.startswith("echo chosen-node")
                                       for s in fleet.sessions()), "the command running on node a", DEADLINE_S)
        new = next(s for s in fleet.sessions() if s.command.startswith("echo chosen-node"))
        assert new.id.startswith("a/")
        await until(pilot, lambda: selected(dash) == new.id, "the new session selected")
        await fleet.call({"tool": "process", "action": "kill", "sessionId": new.id})


async def test_a_node_that_goes_away_is_marked_and_greyed_and_comes_back(dash, fleet, rig: SshRig) -> None:
    async with run(dash, SIZE) as pilot:
        await until(pilot, lambda: fleet.node_states == {"a": None, "b": None}, "both nodes answering", DEADLINE_S)
        # ended: a session still running when its host is SIGKILLed could outlive it (the node's affair)
        on_b = await start_background(fleet.call, "sleep 0.5; echo done", host="node", node="b")
        table = dash.query_one(SessionList)
        await until(pilot, lambda: on_b in table.ids and "exit 0" in row_of(table, on_b), "listed, ended", DEADLINE_S)
        await until(pilot, lambda: dash.workspace.select(on_b), "selected")
        rig.hosts["b"].kill(signal.SIGKILL)
        await until(pilot, lambda: "b unreachable" in header(dash), "the header marking node b", DEADLINE_S)
        assert on_b in table.ids and "node unreachable" in row_of(table, on_b)  # kept, greyed
        await until(pilot, lambda: selected(dash) == on_b, "its row selected")
        await pilot.press("c")
        await until(pilot, lambda: any("node b" in t and "last seen" in t for t in toasts(dash)),
                    "the action refused: node b is unreachable")
        rig.hosts["b"].start()
        rig.hosts["b"].wait_ready()
        await until(pilot, lambda: "unreachable" not in header(dash), "node b answering again", 60)
        # the view leaves the session last seen for the live one its node's restarted host restored
        await until(pilot, lambda: fleet.session(on_b) is not None and selected(dash) == on_b
                    and dash.workspace.view.session is fleet.session(on_b), "the view on the live session", DEADLINE_S)
        new = await start_background(fleet.call, "sleep 300", host="node", node="b")
        await until(pilot, lambda: new in table.ids and "node unreachable" not in row_of(table, new),
                    "node b's rows live again", DEADLINE_S)
        await fleet.call({"tool": "process", "action": "kill", "sessionId": new})
