"""The header line: the product name and how many sessions are running, waiting, finished and failed.

Waiting sessions are the ones a person should look at first, so their count is coloured like their rows.
No clock here: a ticking clock would make every screenshot different.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class SummaryHeader(Static):
    """Call :meth:`show_counts` with the counts from :func:`~openclaw_tui.ui.sessions.rows.counts`."""

    host_gone = False  # attached, and the host went away: the counts are the last ones known

    def show_counts(self, counts: dict[str, int]) -> None:
        text = Text()
        text.append(" openclaw-tui ", style="bold reverse")
        if self.host_gone:
            text.append("  host gone: not live (q, then attach again) ", style="bold white on red")
        text.append(f"   {counts['running']} running   ")
        waiting = counts["waiting"]
        text.append(f"◆ {waiting} waiting for input", style="bold black on #ffaf00" if waiting else "dim")
        text.append(f"   {counts['finished']} finished   ")
        text.append(f"{counts['failed']} failed", style="bold red" if counts["failed"] else "")
        self.update(text)
