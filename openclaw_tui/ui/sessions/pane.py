"""The sessions pane: the filter bar over the session list, and the keys that filter it (the node filter's
only with nodes configured)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from openclaw_tui.remote.mirror import SessionView

from .filters import FilterBar
from .list import SessionList
from .rows import agent_label


class SessionsPane(Vertical):
    """Keeps the list in step with the filter; ``show`` is called whenever sessions change."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", id="filter"),
        Binding("f", "cycle_state", "State", id="state-filter"),
        Binding("o", "cycle_node", "Node", id="node-filter"),
        # in the help, not the footer: the footer has no room left for them beside the session's keys
        Binding("at", "cycle_agent", "Agent", id="agent-filter", show=False),
        Binding("S", "cycle_order", "Sort", id="sort", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._sessions: Sequence[SessionView] = []
        self.pinned: str | None = None  # shown whatever the filter: the session being typed into
        self.node_states: Mapping[str, str | None] = {}

    def compose(self) -> ComposeResult:
        yield FilterBar(id="filter-bar")
        yield SessionList(id="session-list")

    @property
    def session_list(self) -> SessionList:
        return self.query_one(SessionList)

    def pin(self, session_id: str | None) -> None:
        """Keep ``session_id`` listed (and so selected) whatever the filter: typing into a waiting session
        makes it busy for a moment, and a "waiting" filter would otherwise drop it, and type-through with it."""
        self.pinned = session_id
        self.show(self._sessions)

    def show(self, sessions: Sequence[SessionView], nodes: Mapping[str, str | None] | None = None) -> None:
        """``nodes``: the configured nodes, each with why it does not answer (None: it does); as before if
        not given."""
        self._sessions = sessions
        if nodes is not None and nodes != self.node_states:
            self.node_states = dict(nodes)
            self.query_one(FilterBar).set_nodes(list(nodes))
            self.refresh_bindings()
        self.session_list.show(sessions, self.query_one(FilterBar).row_filter, self.pinned, self.node_states)

    def action_focus_filter(self) -> None:
        self.query_one(FilterBar).focus_text()

    def action_cycle_state(self) -> None:
        self.query_one(FilterBar).cycle_state()

    def action_cycle_node(self) -> None:
        self.query_one(FilterBar).cycle_node()

    def action_cycle_agent(self) -> None:
        agents = sorted({agent_label(s) for s in self._sessions})
        self.query_one(FilterBar).cycle_agent(agents)

    def action_cycle_order(self) -> None:
        self.query_one(FilterBar).cycle_order()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "cycle_node" or bool(self.node_states)  # no node to choose without nodes
    def on_filter_bar_changed(self, event: FilterBar.Changed) -> None:
        # not stopped: the workspace fits the pane to the rows the filter leaves (or the message saying why)
        self.session_list.show(self._sessions, event.row_filter, self.pinned, self.node_states)

    def on_filter_bar_done(self, event: FilterBar.Done) -> None:
        event.stop()
        self.session_list.focus()
