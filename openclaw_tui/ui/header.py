"""The header line: how many sessions run, wait, finished and failed, and what quitting does.

It shows no clock (it would make every screenshot different), and no run of its text starts with a blank,
which an SVG renderer would drop.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

MUTED = "dim"
WAITING = "bold black on #ffaf00"
APPROVAL = "bold black on #d7afff"
TITLE = Style(bold=True, reverse=True)
BLANK = Style(meta={"blank": True})
LINK_MARKS = {  # the link to the host, when it is not live: the long form and the short, and their colours
    "connecting": ("connecting… ", "connecting ", "bold black on #5fafff"),
    "reconnecting": ("reconnecting to the host… ", "reconnecting ", "bold black on #ffaf00"),
    "gone": ("host gone: not live ", "host gone ", "bold white on red"),
}  # shows as a space does; only keeps the blank apart from the text after it


class SummaryHeader(Widget):
    """Call :meth:`show_counts` with :func:`~openclaw_tui.ui.sessions.rows.counts`; set :attr:`attached_to` for
    an attached dashboard. Only a change repaints it (the tick calls it every 2 s)."""

    def __init__(self, *, attached_to: str | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.attached_to = attached_to
        self.link = "live"  # connecting, live, reconnecting or gone (the counts are then the last ones known)
        self.journal_problem: str | None = None  # why the host's sessions are not being saved to disk
        self.quit_key = "q"  # as bound now (the keymap may remap it)
        self.counts = {"running": 0, "waiting": 0, "finished": 0, "failed": 0}
        self.running_all = 0
        self.unreachable: list[str] = []  # the nodes that do not answer now
        self.approvals = 0  # requests waiting for the operator's approval
        self.agent: str | None = None  # the agent filter: the counts are this agent's

    def show_agent(self, agent: str | None) -> None:
        if agent != self.agent:
            self.agent = agent
            self.refresh()

    def show_approvals(self, count: int) -> None:
        if count != self.approvals:
            self.approvals = count
            self.refresh()

    def show_counts(self, counts: dict[str, int], running_all: int | None = None) -> None:
        """``counts``: the sessions shown (one agent's, under the agent filter); ``running_all``: every running
        session, which quitting keeps or ends whatever the filter (the same as ``counts`` when omitted)."""
        running_all = counts["running"] if running_all is None else running_all
        if counts != self.counts or running_all != self.running_all:
            self.counts, self.running_all = dict(counts), running_all
            self.refresh()

    def show_journal_problem(self, problem: str | None) -> bool:
        """Mark (or unmark) that sessions are not being saved to disk; True when that changed."""
        if problem == self.journal_problem:
            return False
        self.journal_problem = problem
        self.refresh()
        return True

    def show_link(self, link: str, where: str = "") -> None:
        if link != self.link or (where and where != self.attached_to):
            self.link = link
            self.attached_to = where or self.attached_to
            self.refresh()

    def show_nodes(self, nodes: Mapping[str, str | None]) -> None:
        """Mark the nodes that do not answer (``nodes``: each with why not, None when it answers)."""
        down = [name for name, problem in nodes.items() if problem is not None]
        if down != self.unreachable:
            self.unreachable = down
            self.refresh()

    def render(self) -> Text:
        width = self.size.width
        for counts_form, right in ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2), (2, 3)):
            text = self.line(counts_form, right)
            if cell_len(text.plain) <= width:
                return text
        return text

    def line(self, counts_form: int = 0, right_form: int = 0) -> Text:
        """The whole line: counts in form 0 (words), 1 or 2 (shortest); the right part in form 0 (all), 1, 2
        or 3 (none), right-aligned to the widget's width (see :meth:`_right`)."""
        c = self.counts
        words = (("running", "waiting for input", "finished", "failed"), ("running", "waiting", "finished", "failed"),
                 ("run", "wait", "done", "failed"))[counts_form]
        text = Text()
        text.append(" ", style=TITLE + BLANK)
        text.append("openclaw-tui ", style=TITLE)
        if self.link != "live":
            text.append(" ", style=BLANK)
            long, short, colours = LINK_MARKS[self.link]
            style = Style.parse(colours)
            text.append(" ", style=style + BLANK)
            text.append(short if counts_form else long, style=style)
        if self.unreachable:
            text.append(" ", style=BLANK)
            text.append(self._nodes_mark(counts_form), style="bold white on #5f5f5f")
        if self.approvals:
            text.append(" ", style=BLANK)
            asked = ("awaiting approval", "awaiting approval", "to approve")[counts_form]
            text.append(f" {self.approvals} {asked} ", style=APPROVAL)
        if self.journal_problem:
            text.append(" ", style=BLANK)
            text.append((" not saved to disk ", " not saved ", " unsaved ")[counts_form], style="bold white on red")
        text.append("  ", style=BLANK)
        if self.agent is not None:
            text.append(f"{self.agent}: ", style="bold")
        text.append(f"{c['running']} {words[0]} · ")
        waiting = c["waiting"]
        text.append(f"◆ {waiting} {words[1]}", style=WAITING if waiting else MUTED)
        text.append(" ", style=BLANK)
        text.append("· ")
        text.append(f"{c['finished']} {words[2]} ", style="" if c["finished"] else MUTED)
        text.append("· ")
        failed = "bold red" if c["failed"] else MUTED
        text.append(f"{c['failed']} {words[3]}", style=failed)
        if right_form == 3:
            return text
        right = self._right(right_form)
        pad = self.size.width - cell_len(text.plain) - cell_len(right.plain) - 1
        text.append(" " * max(2, pad), style=failed)  # trails the counts: a copy of the screen reads them apart
        text.append_text(right)
        return text

    def _nodes_mark(self, form: int) -> str:
        """``node b unreachable``, shorter in the narrower forms (``b unreachable``, ``b down``)."""
        names = ", ".join(self.unreachable)
        if form == 0:
            return f" node{'s' if len(self.unreachable) > 1 else ''} {names} unreachable "
        return f" {names} unreachable " if form == 1 else f" {','.join(self.unreachable)} down "

    def _right(self, form: int) -> Text:
        """Form 0: where the host serves and what quitting does; 1: shorter; 2: what quitting does alone."""
        running, q = self.running_all, self.quit_key
        quitting = (f"{q}: keep running or end {running}", f"{q}: keep or end {running}",
                    f"{q}: keep/end {running}")[form] if running else f"{q} quits"
        if form == 2:
            return Text(quitting)
        text = Text("attached", style="bold")
        for part in ([f"to {self.attached_to}"] if self.attached_to and form == 0 else []) + [f"· {quitting}"]:
            text.append(" ", style=BLANK)
            text.append(part)
        return text
