"""The approval queue (``a``): every host's exec approval requests, for the operator to decide.

One row per request, across every node: the time it has left, agent, node, directory and command
(secrets masked), then why it asks. Under the list, the highlighted request in full, its control and
bidirectional characters written out, so the command read is the command that would run. ``o`` allows it
once, ``A`` always (through the pattern editor, :mod:`.pattern_editor`), ``d`` denies it with an optional
reason. Enter never approves, and Escape closes without deciding. A decision goes to the host that
asked (a node's to that node, over its link), which records who decided and from which terminal.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from openclaw_tui.core.approvals import visible
from openclaw_tui.remote.mirror import HostView

from .base import Dialog, FormDialog
from .pattern_editor import PatternEditor

ENTER_NEVER_APPROVES = "Enter never approves: o allows once, A allows always, d denies."
WHY_SHOWN = 100  # characters of why a request asks, in its row (the whole of it is shown below the list)


def time_left(request: Mapping[str, Any], now_ms: float | None = None) -> str:
    """``29:41`` (minutes and seconds), ``1:02:03`` past an hour, ``0:00`` once due."""
    left = max(0, int((request["expiresAtMs"] - (time.time() * 1000 if now_ms is None else now_ms)) / 1000))
    hours, rest = divmod(left, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def row(request: Mapping[str, Any], width: int = 0) -> Text:
    """One request in the list: time left, who and where, the masked command; then why it asks. Each is one
    line, cut to ``width`` (when known) with an ellipsis, so every request takes two rows of the list."""
    head = Text()
    head.append(f"{time_left(request):>7}  ", style="bold #ffaf00")
    head.append(f"{request.get('agent') or 'operator'}", style="bold")
    head.append(f" @ {request.get('node') or 'local'}  {visible(str(request.get('cwd', '')))}  ", style="dim")
    head.append(visible(str(request.get("maskedCommand") or request.get("command", ""))))
    why = visible(str(request.get("why", "")))
    reason = Text(f"         {why if len(why) <= WHY_SHOWN else why[:WHY_SHOWN - 1] + '…'}", style="dim")
    for line in (head, reason):
        if width > 0:
            line.truncate(width, overflow="ellipsis")
    return Text("\n").join((head, reason))


def detail(request: Mapping[str, Any]) -> Text:
    """The highlighted request in full (the whole command, unmasked, every character visible)."""
    text = Text()
    text.append("Command  ", style="bold")
    text.append(visible(str(request.get("command", ""))) + "\n")
    where = request.get("placement", "?") + (" (elevated)" if request.get("elevated") else "")
    text.append("Runs     ", style="bold")
    text.append(f"{where} on {request.get('node') or 'local'}, in {visible(str(request.get('cwd', '')))}, "
                f"{'pty' if request.get('pty') else 'pipes'}, for {request.get('agent') or 'operator'}; "
                f"session {request.get('sessionId')}, {request.get('approvalId')}\n")
    for segment in request.get("segments") or []:
        mark, style = ("✓", "green") if segment.get("matched") else ("✗", "bold red")
        text.append(f"  {mark} ", style=style)
        text.append(f"{visible(str(segment.get('text', '')))}  → {visible(str(segment.get('resolvedPath') or 'not found'))}\n")
    text.append("Why      ", style="bold")
    text.append(visible(str(request.get("why", ""))) + "\n")
    text.append("Always   ", style="bold")
    text.append("offered (A)" if request.get("allowAlways") else
                f"not offered: {visible(str(request.get('allowAlwaysRefused') or ''))}")
    return text


class ApprovalQueue(Dialog[None]):
    """The queue over ``host``; ``where`` says where decisions are taken (the dashboard, its terminal)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "allow_once", "Allow once", id="approval-once"),
        Binding("A", "allow_always", "Allow always", id="approval-always"),
        Binding("d", "deny", "Deny", id="approval-deny"),
        Binding("escape", "close", "Close", id="approval-close"),
    ]

    def __init__(self, host: HostView, where: dict[str, Any]) -> None:
        super().__init__()
        self.host = host
        self.where = where
        self.requests: list[Mapping[str, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box approval-box"):
            yield Label("Approvals", classes="dialog-title", id="approval-title")
            yield OptionList(id="approval-list")
            yield Static(id="approval-detail")
            yield Label("o allow once · A allow always · d deny (with a reason if you like) · Esc closes without "
                        "deciding. Enter never approves.", classes="dialog-help")
            yield Label("", id="approval-error", classes="dialog-error")

    def on_mount(self) -> None:
        self.show_requests()
        self.set_interval(1.0, self._tick)
        self.query_one(OptionList).focus()

    @property
    def selected(self) -> Mapping[str, Any] | None:
        found = self.query_one(OptionList).highlighted_option
        return next((r for r in self.requests if found is not None and r["approvalId"] == found.id), None)

    def show_requests(self) -> None:
        """List what waits now (the app calls this whenever requests come or go), keeping the highlight."""
        listed = self.query_one(OptionList)
        keep = self.selected
        self.requests = list(self.host.pending_approvals())
        listed.set_options([Option(row(r, self._row_width()), id=r["approvalId"]) for r in self.requests])
        ids = [r["approvalId"] for r in self.requests]
        if ids:
            listed.highlighted = ids.index(keep["approvalId"]) if keep and keep["approvalId"] in ids else 0
        count = len(ids)
        self.query_one("#approval-title", Label).update(
            f"Approvals: {count} request{'s' if count != 1 else ''} waiting" if count else "Approvals: none waiting")
        self._show_detail()

    def _tick(self) -> None:
        listed = self.query_one(OptionList)
        for request in self.requests:
            listed.replace_option_prompt(request["approvalId"], row(request, self._row_width()))

    def _row_width(self) -> int:
        """The list's width for a row's text (0 before the first layout: rows are cut at the next tick)."""
        return self.query_one(OptionList).scrollable_content_region.width

    def _show_detail(self) -> None:
        request = self.selected
        self.query_one("#approval-detail", Static).update(detail(request) if request else Text(
            "Nothing waits for your approval.", style="dim"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # Enter on a row: never a decision
        self._say(ENTER_NEVER_APPROVES)

    def _say(self, text: str) -> None:
        self.query_one("#approval-error", Label).update(text)

    # -- decisions ------------------------------------------------------------------------------
    async def action_allow_once(self) -> None:
        request = self.selected
        if request is not None:
            await self._decide(request, "allow-once")

    def action_allow_always(self) -> None:
        request = self.selected
        if request is None:
            return
        if not request.get("allowAlways"):
            self._say(f"Allow always is not offered for this request: {request.get('allowAlwaysRefused')}. "
                      "Allow it once (o) or deny it (d).")
            return

        async def chosen(patterns: list[dict[str, Any]] | None) -> None:
            if patterns is not None:
                await self._decide(request, "allow-always", patterns=patterns)

        self.app.push_screen(PatternEditor(request), chosen)

    def action_deny(self) -> None:
        request = self.selected
        if request is None:
            return

        async def denied(reason: str | None) -> None:
            if reason is not None:
                await self._decide(request, "deny", reason=reason or None)

        self.app.push_screen(DenyReason(str(request["approvalId"])), denied)

    async def _decide(self, request: Mapping[str, Any], decision: str, reason: str | None = None,
                      patterns: list[dict[str, Any]] | None = None) -> None:
        res = await self.host.decide_approval(str(request["approvalId"]), decision, reason, patterns, self.where)
        if res["details"].get("status") == "failed":
            self._say(res["text"])
        else:
            self._say("")
            self.app.notify(res["text"], title="Approval", markup=False)
        self.show_requests()

    def action_close(self) -> None:
        self.dismiss(None)


class DenyReason(FormDialog[str | None]):
    """Why the request is denied (optional): Enter denies, Escape goes back to the queue undecided."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="deny-cancel")]

    def __init__(self, approval_id: str) -> None:
        super().__init__()
        self.approval_id = approval_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(f"Deny {self.approval_id}", classes="dialog-title")
            yield Label("A reason for the agent (optional): its session's end says it. Enter denies; Escape goes "
                        "back without deciding.", classes="dialog-help")
            yield Input(placeholder="reason (optional)", id="deny-reason")

    def on_mount(self) -> None:
        self.query_one("#deny-reason", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def submit(self) -> None:
        self.dismiss(self.query_one("#deny-reason", Input).value.strip())
