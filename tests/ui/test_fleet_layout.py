"""The dashboard's parts for nodes, without a host: the header's node marks in every width, the node column
(there only with nodes, the first to go when room runs short), the node filter's rule and greyed rows."""

from __future__ import annotations

from types import SimpleNamespace

from openclaw_tui.core.session.exitrecord import ExitRecord
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.sessions.columns import fit
from openclaw_tui.ui.sessions.rows import RowFilter, row_cells


def keys(width: int, node_width: int | None) -> list[str]:
    return [c.key for c in fit(width, 16, node_width).columns]


def test_the_node_column_shows_only_with_nodes_and_goes_first_when_narrow() -> None:
    assert "node" not in keys(120, None)
    assert keys(120, 5)[:3] == ["mark", "node", "id"]
    assert fit(120, 16, 5).width_of("id") == 16  # as wide as the longest id, node part included
    assert "node" not in keys(80, 5) and {"id", "state", "end"} <= set(keys(80, 5))
    assert fit(160, 30, 7).width_of("id") == 18 + 7 + 1  # room for NODE/ ahead of an id of full length


def test_the_header_marks_unreachable_nodes_shorter_in_narrow_forms() -> None:
    header = SummaryHeader()
    assert "unreachable" not in header.line(0, 3).plain
    header.show_nodes({"a": None, "b": "node b: the connection dropped"})
    wide, middle, narrow = (header.line(form, 3).plain for form in (0, 1, 2))
    assert " node b unreachable " in wide
    assert " b unreachable " in middle and "node b" not in middle and len(middle) < len(wide)
    assert " b down " in narrow and "unreachable" not in narrow
    header.show_nodes({"a": "gone", "b": "gone"})
    assert "nodes a, b unreachable" in header.line(0, 3).plain and "a,b down" in header.line(2, 3).plain


def session(node: str | None, **kw: object) -> SimpleNamespace:
    return SimpleNamespace(**{
        "id": f"{node}/brisk-atlas" if node else "brisk-atlas", "name": "sleep 9", "command": "sleep 9",
        "agent": None, "node": node, "running": True, "status": "running", "waiting_for_input": True,
        "waiting_reason": None, "pty": False, "placement": "sandbox", "elevated": False, "exit": ExitRecord(),
        "started_ms": 0, "runtime_ms": lambda: 1000, "prompt": "Continue? [y/N]", "muted": False, **kw})


def test_the_node_filter_keeps_one_hosts_sessions_and_text_matches_the_node() -> None:
    here, there = session(None), session("gpu-box")
    assert RowFilter(node="local").keeps(here) and not RowFilter(node="local").keeps(there)
    assert RowFilter(node="gpu-box").keeps(there) and not RowFilter(node="gpu-box").keeps(here)
    assert RowFilter(text="gpu").keeps(there) and not RowFilter(text="gpu").keeps(here)
    assert RowFilter().keeps(here) and RowFilter().keeps(there)


def test_a_row_of_an_unreachable_node_is_greyed_and_says_so() -> None:
    there = session("gpu-box")
    live, greyed = row_cells(there), row_cells(there, unreachable=True)  # type: ignore[arg-type]
    assert live["state"].plain == "waiting" and live["node"].plain == "gpu-box"
    assert greyed["state"].plain == "node unreachable" and greyed["mark"].plain == "?"
    assert all("grey50" in str(cell.style) for cell in greyed.values())
    assert row_cells(session(None))["node"].plain == "local"  # type: ignore[arg-type]
