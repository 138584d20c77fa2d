"""The log pane: exactly what an agent's ``process log`` returns, paged the same way, plus who typed what."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from openclaw_tui.remote.mirror import HostView

from .. import clock
from .inputs import input_preview

PAGE = 200


class LogPane(VerticalScroll, can_focus=True):
    """Shows one page of a session's log; ``load`` fetches it again (the tail unless paged back)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "page(-1)", "Older", id="log-older"),
        Binding("right_square_bracket", "page(1)", "Newer", id="log-newer"),
        Binding("left", "page(-1)", "Older", id="log-older-arrow", show=False),
        Binding("right", "page(1)", "Newer", id="log-newer-arrow", show=False),
    ]

    def __init__(self, host: HostView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.host = host
        self.session_id: str | None = None
        self.page_offset: int | None = None  # None: the tail, as an agent's log with no offset
        self.details: dict[str, Any] = {}
        self.text = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="log-text", markup=False)
        yield Static("", id="log-inputs")

    async def show(self, session_id: str | None) -> None:
        if session_id != self.session_id:
            self.session_id = session_id
            self.page_offset = None
        await self.load()

    @property
    def following(self) -> bool:
        return self.page_offset is None

    async def load(self) -> None:
        if self.session_id is None:
            self.query_one("#log-text", Static).update("")
            self.query_one("#log-inputs", Static).update("")
            return
        call: dict[str, Any] = {"tool": "process", "action": "log", "sessionId": self.session_id}
        if self.page_offset is not None:
            call.update(offset=self.page_offset, limit=PAGE)
        res = await self.host.call(call, agent=None)
        self.details = res["details"]
        self.text = res["text"]
        self.query_one("#log-text", Static).update(res["text"])
        self.query_one("#log-inputs", Static).update(self._inputs(self.details.get("inputs") or []))
        if self.following:
            self.scroll_end(animate=False)

    def _inputs(self, inputs: list[dict[str, Any]]) -> Text:
        out = Text()
        out.append("inputs (who sent what):\n", style="bold")
        if not inputs:
            out.append("  none yet\n", style="dim")
        for rec in inputs:
            out.append(f"  {clock.wall_clock(rec['at'])}  ")
            out.append(f"{rec['source']:<10}", style="bold cyan" if rec["source"] == "operator" else "bold magenta")
            out.append(f" {rec['action']:<10} {rec['bytes']:>5} B  {input_preview(rec['preview'])}\n")
        return out

    async def action_page(self, direction: int) -> None:
        start = int(self.details.get("offset", 0))
        total = int(self.details.get("totalLines", 0))
        if direction < 0:
            if start == 0:
                return
            self.page_offset = max(0, start - PAGE)
        else:
            if self.page_offset is None:
                return
            nxt = self.page_offset + PAGE
            self.page_offset = None if nxt + PAGE >= total else nxt
        await self.load()
        if not self.following:
            self.scroll_home(animate=False)
