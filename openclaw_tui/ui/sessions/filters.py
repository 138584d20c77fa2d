"""The filter bar above the session list: free text, a state (all, running, waiting, finished, failed) and,
with nodes configured, a node (all, local, then each node).

It owns the filter's state and says so with :class:`Changed`; the keys that drive it live on the sessions
pane.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label

from .rows import ALL_AGENTS, ALL_NODES, LOCAL, ORDERS, STATES, RowFilter


class FilterBar(Horizontal):
    """Text box, state label and node label (shown with nodes only); posts :class:`Changed` with the new :class:`RowFilter`."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "clear", "Clear filter", id="filter-clear")]

    class Changed(Message):
        def __init__(self, row_filter: RowFilter) -> None:
            super().__init__()
            self.row_filter = row_filter

    class Done(Message):
        """The operator finished typing a filter (Enter or Escape)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.row_filter = RowFilter()
        self.node_names: list[str] = []

    def compose(self) -> ComposeResult:
        yield Label(" filter ", classes="filter-label")  # spaces in the text: they survive a copy of the screen
        yield Input(placeholder="text in id, name, command or agent", id="filter-text")
        yield Label(self._state_text(), id="filter-state")
        yield Label(self._node_text(), id="filter-node", classes="-hidden")
        yield Label(self._agent_text(), id="filter-agent", classes="-hidden")
        yield Label(self._order_text(), id="filter-order", classes="-hidden")

    def focus_text(self) -> None:
        self.query_one(Input).focus()

    def cycle_state(self) -> None:
        states = list(STATES)
        nxt = states[(states.index(self.row_filter.state) + 1) % len(states)]
        self._set(replace(self.row_filter, state=nxt))

    def set_nodes(self, nodes: list[str]) -> None:
        """The configured nodes: the node filter shows (and cycles through them) only when there are some."""
        if nodes != self.node_names:
            self.node_names = nodes
            self.query_one("#filter-node", Label).set_class(not nodes, "-hidden")

    def cycle_node(self) -> None:
        choices = [ALL_NODES, LOCAL, *self.node_names]
        at = choices.index(self.row_filter.node) if self.row_filter.node in choices else 0
        self._set(replace(self.row_filter, node=choices[(at + 1) % len(choices)]))

    def cycle_agent(self, agents: list[str]) -> None:
        """The next of ``all`` and ``agents`` (the agents listed now, ``operator`` for the operator's own)."""
        choices = [ALL_AGENTS, *agents]
        at = choices.index(self.row_filter.agent) if self.row_filter.agent in choices else 0
        self._set(replace(self.row_filter, agent=choices[(at + 1) % len(choices)]))

    def cycle_order(self) -> None:
        orders = list(ORDERS)
        self._set(replace(self.row_filter, order=orders[(orders.index(self.row_filter.order) + 1) % len(orders)]))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._set(replace(self.row_filter, text=event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Done())

    def action_clear(self) -> None:
        self.query_one(Input).value = ""  # Input.Changed sets the filter
        self.post_message(self.Done())

    def _set(self, row_filter: RowFilter) -> None:
        self.row_filter = row_filter
        self.query_one("#filter-state", Label).update(self._state_text())
        self.query_one("#filter-node", Label).update(self._node_text())
        # shown once chosen (the default, all and newest, says nothing the list does not show)
        self.query_one("#filter-agent", Label).update(self._agent_text())
        self.query_one("#filter-agent", Label).set_class(row_filter.agent == ALL_AGENTS, "-hidden")
        self.query_one("#filter-order", Label).update(self._order_text())
        self.query_one("#filter-order", Label).set_class(row_filter.order == ORDERS[0], "-hidden")
        self.post_message(self.Changed(row_filter))

    def _state_text(self) -> str:
        return f" state: {self.row_filter.state} "

    def _node_text(self) -> str:
        return f" node: {self.row_filter.node} "

    def _agent_text(self) -> str:
        return f" agent: {self.row_filter.agent} "

    def _order_text(self) -> str:
        return f" sort: {self.row_filter.order} "
