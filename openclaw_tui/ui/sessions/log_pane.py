"""The log pane: exactly what an agent's ``process log`` returns, paged the same way, plus who typed what."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType

from openclaw_tui.remote.mirror import HostView

from .. import clock
from ..reading.linelog import LineLog, Runs
from .inputs import input_preview

PAGE = 200


class LogPane(LineLog):
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
        self.inputs_text = ""  # the list of who sent what, as shown under the log
        self._lines: list[Text] = []

    async def show(self, session_id: str | None) -> None:
        if session_id != self.session_id:
            self.session_id = session_id
            self.page_offset = None
            self.forget_lines()
            self.follow()
        await self.load()

    @property
    def following(self) -> bool:
        """On the tail page and at its end: new output is shown as it comes."""
        return self.page_offset is None and super().following

    async def load(self) -> None:
        if self.session_id is None:
            self._show("", [])
            return
        call: dict[str, Any] = {"tool": "process", "action": "log", "sessionId": self.session_id}
        if self.page_offset is not None:
            call.update(offset=self.page_offset, limit=PAGE)
        res = await self.host.call(call, agent=None)
        self.details = res["details"]
        self._show(res["text"], self.details.get("inputs") or [], self.details.get("acts") or [])

    def _show(self, text: str, inputs: list[dict[str, Any]], acts: list[dict[str, Any]] | None = None) -> None:
        self.text = text
        lines = [Text(line.expandtabs(8)) for line in text.split("\n")] if text else []
        listed = self._inputs(inputs, acts or [])
        self._lines = [*lines, Text(), *listed.split("\n")]
        self.inputs_text = listed.plain
        self.forget_lines()
        self.lines_changed(max((line.cell_len for line in self._lines), default=0))

    def _inputs(self, inputs: list[dict[str, Any]], acts: list[dict[str, Any]]) -> Text:
        """Who sent what, among the session's other acts (started, resized, approved, killed, ended), as
        ``openclaw-tui audit`` lists them; the inputs come from the input records, with their sizes."""
        rows: list[tuple[float, int, dict[str, Any]]] = [(float(rec["at"]), 0, rec) for rec in inputs]
        rows += [(a["atMs"] / 1000, 1, a) for a in acts if a["act"] not in ("input", "approved", "denied")]
        rows.sort(key=lambda row: row[0])  # stable: an act and an input of one millisecond keep their order
        out = Text()
        out.append("inputs and acts (who did what):\n", style="bold")
        if not rows:
            out.append("  none yet\n", style="dim")
        for at, is_act, rec in rows:
            who = rec["actor"] if is_act else rec["source"]
            out.append(f"  {clock.wall_clock(at)}  ")
            out.append(f"{who:<10}", style="bold cyan" if who == "operator" else "bold magenta")
            if is_act:
                out.append(f" {rec['act']:<10}          {rec['detail']}\n", style="dim")
            else:
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
        if self.page_offset is None:
            self.follow()
        await self.load()
        if self.page_offset is not None:
            self.scroll_lines(-self.line_count())  # an older page is read from its top

    # -- the lines, for the log ------------------------------------------------------------------
    def line_count(self) -> int:
        return len(self._lines)

    def line_text(self, index: int) -> str:
        return self._lines[index].plain

    def line_runs(self, index: int, base: Style) -> Runs:
        line = self._lines[index]
        return [(segment.text, base + segment.style if segment.style else base)
                for segment in line.render(self.app.console)]
