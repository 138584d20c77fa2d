"""Allow always: what the allowlist gets for each segment of a request that missed it.

Each such segment starts as its exact program and arguments (what ``openclaw-tui approvals approve
--always`` adds) and can be widened to "this program, the first N arguments as given, then any", down to
"this program with any arguments". The patterns are shown as they will be written to
``exec-approvals.json``. ``ctrl+s`` (or the button) allows; Enter never does, Escape goes back undecided.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Select

from openclaw_tui.core.approvals import visible, widened

from .base import FormDialog

ARGS_SHOWN = 40  # characters of the kept arguments shown in a choice


def choices(argv: list[str]) -> list[tuple[str, int]]:
    """How much of ``argv``'s arguments an entry keeps: all of them, fewer, or none (any arguments)."""
    args = argv[1:]
    out = [("exactly these arguments", len(args))]
    for keep in range(len(args) - 1, 0, -1):
        kept = " ".join(args[:keep])
        kept = kept if len(kept) <= ARGS_SHOWN else kept[:ARGS_SHOWN - 1] + "…"
        out.append((f"the first {keep} ({visible(kept)}), then any", keep))
    if args:
        out.append(("any arguments", 0))
    return out


class PatternEditor(FormDialog[list[dict[str, Any]] | None]):
    """Dismisses with the entries to add (``{pattern, argPattern?}`` each), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "allow", "Allow always", id="pattern-allow", priority=True),
        Binding("escape", "cancel", "Cancel", id="pattern-cancel"),
    ]

    def __init__(self, request: Mapping[str, Any]) -> None:
        super().__init__()
        self.request = request
        self.segments = [s for s in request.get("segments") or []
                         if not s.get("matched") and s.get("argv") and s.get("resolvedPath")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box pattern-box"):
            yield Label(f"Allow always: {self.request['approvalId']}", classes="dialog-title")
            yield Label(f"Added to the allowlist of agent {self.request.get('agent') or '*'} (exec-approvals.json), "
                        "so these run without asking from now on.", classes="dialog-help")
            for i, segment in enumerate(self.segments):
                yield Label(visible(str(segment["text"])), classes="pattern-segment")
                yield Select(choices(segment["argv"]), value=len(segment["argv"]) - 1, allow_blank=False,
                             id=f"keep-{i}")
                yield Label(self._preview(i, len(segment["argv"]) - 1), id=f"pattern-{i}", classes="dialog-help")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Allow always (ctrl+s)", id="allow", variant="warning")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        if self.segments:
            self.query_one("#keep-0", Select).focus()

    def _entry(self, i: int, keep: int) -> dict[str, Any]:
        segment = self.segments[i]
        return widened(tuple(segment["argv"]), str(segment["resolvedPath"]), keep).to_json()

    def _preview(self, i: int, keep: int) -> str:
        entry = self._entry(i, keep)
        return f"pattern {visible(entry['pattern'])}, arguments {visible(entry.get('argPattern') or 'any')}"

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        i = int(str(event.select.id).removeprefix("keep-"))
        self.query_one(f"#pattern-{i}", Label).update(self._preview(i, self._keep(i)))

    def _keep(self, i: int) -> int:
        value = self.query_one(f"#keep-{i}", Select).value
        return value if isinstance(value, int) else len(self.segments[i]["argv"]) - 1

    def action_allow(self) -> None:
        self.submit()

    def submit(self) -> None:
        self.dismiss([self._entry(i, self._keep(i)) for i in range(len(self.segments))])
