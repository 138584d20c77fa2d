"""The new-command dialog: command, working directory, PTY and background, as ``exec`` takes them.

It says where the command will run and what it may write; with nodes configured, a chooser says which machine
runs it. A re-run (``R``) opens it filled with the old session's call, its environment too, one ``NAME=value``
a line; a value the host masked (``***``) is sent as it is and the host keeps the old value for it.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, Select, TextArea

from .base import FormDialog

WHERE_IT_RUNS = (
    "In the sandbox (tools.exec.host): it may write only this directory, /tmp (the host's own, unless the "
    "sandbox's tmp is \"private\") and $TMPDIR; the rest is read-only, secrets such as ~/.ssh are hidden. On "
    "the host (gateway): whatever you may."
)
LOCAL = "local"
SHORT_ROWS = 32  # a re-run's dialog (its environment box too) on a screen shorter than this drops its long help


class StateCheckbox(Checkbox):
    """A checkbox whose box reads ``x`` when checked and stays empty when not, in any colour scheme."""

    @property  # Textual reads it at each render, so a property can answer for the current value
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "x" if self.value else " "


class NewCommandDialog(FormDialog[dict[str, Any] | None]):
    """Dismisses with the ``exec`` parameters (``command``, ``workdir``, ``pty``, ``background``; ``host:
    "node"`` and ``node`` when a node was chosen) or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="new-command-cancel")]

    def __init__(self, workdir: str | None = None, previous: dict[str, Any] | None = None, error: str = "",
                 nodes: list[str] | None = None) -> None:
        """``previous`` and ``error``: a refused run's parameters and why, to correct rather than retype;
        ``nodes``: the configured nodes, to choose from (none: no chooser)."""
        super().__init__()
        self.previous = previous or {}
        self.local_workdir = workdir or os.getcwd()
        self.chosen_node = self.previous.get("node") or LOCAL
        self.workdir = self.previous.get("workdir") or (self.local_workdir if self.chosen_node == LOCAL else "")
        self.error = error
        self.node_names = nodes or []
        self.rerun_of: str | None = self.previous.get("rerunOf")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(f"Re-run {self.previous.get('shownId') or self.rerun_of}" if self.rerun_of else "New command",
                        classes="dialog-title")
            yield Input(self.previous.get("command", ""), placeholder="command, e.g. make test", id="command")
            if self.node_names:
                yield Select([(f"runs on: {name}", name) for name in (LOCAL, *self.node_names)], value=self.chosen_node,
                             allow_blank=False, id="node")
            yield Input(self.workdir, placeholder="working directory (empty on a node: its host's own)",
                        id="workdir")
            yield Label(WHERE_IT_RUNS, classes="dialog-help long-help", id="new-command-where")
            if self.rerun_of:
                env = self.previous.get("env") or {}
                yield Label("environment, one NAME=value a line (*** keeps the old session's value)",
                            classes="dialog-help")
                yield TextArea("\n".join(f"{k}={v}" for k, v in env.items()), id="env", classes="env-box")
            with Horizontal(classes="dialog-options"):
                yield StateCheckbox("pty (interactive)", value=self.previous.get("pty", True), id="pty")
                yield StateCheckbox("background", value=self.previous.get("background", True), id="background")
            yield Label("The run stays listed after it ends. Not in the background: the view switches to it, "
                        "and keys go to it at once (PTY).", classes="dialog-help long-help")
            yield Label(self.error, id="new-command-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Run", id="run", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#new-command-error", Label).display = bool(self.error)  # no empty row: 24 lines hold it all
        self.query_one("#command", Input).focus()
        self.on_resize()

    def on_resize(self) -> None:
        self.set_class(bool(self.rerun_of) and self.app.size.height < SHORT_ROWS, "-short")

    def on_select_changed(self, event: Select.Changed) -> None:
        """A working directory of this machine means nothing on a node: the default follows the choice."""
        event.stop()
        workdir = self.query_one("#workdir", Input)
        if event.value == LOCAL and not workdir.value.strip():
            workdir.value = self.local_workdir
        elif event.value != LOCAL and workdir.value.strip() == self.local_workdir:
            workdir.value = ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def submit(self) -> None:
        command = self.query_one("#command", Input).value.strip()
        if not command:
            error = self.query_one("#new-command-error", Label)
            error.update("type a command to run")
            error.display = True
            return
        params: dict[str, Any] = {
            "command": command,
            "workdir": self.query_one("#workdir", Input).value.strip() or None,
            "pty": self.query_one("#pty", Checkbox).value,
            "background": self.query_one("#background", Checkbox).value,
        }
        node = self.query_one("#node", Select).value if self.node_names else LOCAL
        if node != LOCAL:
            params.update(host="node", node=node)
        if self.rerun_of:
            env, bad = parse_env(self.query_one("#env", TextArea).text)
            if bad:
                self.query_one("#new-command-error", Label).update(f"not NAME=value: {bad}")
                return
            params.update(env=env or None, rerunOf=self.rerun_of, shownId=self.previous.get("shownId"))
        self.dismiss(params)


def parse_env(text: str) -> tuple[dict[str, str], str]:
    """``NAME=value`` lines as a dict, and the first line that is not one (empty: none)."""
    env: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            return env, line
        env[name.strip()] = value
    return env, ""
