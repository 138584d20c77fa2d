"""The pauses between tries to connect again: the first after a failure, each one after twice the one
before, up to a longest, and the first again once a try succeeds. The dashboard's host link, a node's link
and the dashboard's fleet of nodes all pace their reconnects by it.
"""

from __future__ import annotations


class ReconnectBackoff:
    """Pauses from ``first`` seconds, doubling with each failed try in a row, never longer than ``longest``."""

    def __init__(self, first: float, longest: float) -> None:
        self.first, self.longest = first, longest
        self.failures = 0  # tries in a row that failed
        self.pause = first  # what to wait after the last failure (the first, before any)

    def failed(self) -> float:
        """One more try failed (or a connection dropped): the pause to take before the next try."""
        if self.failures:
            self.pause = min(self.pause * 2, self.longest)
        self.failures += 1
        return self.pause

    def succeeded(self) -> None:
        """A try got through: the next failure waits the first pause again."""
        self.failures, self.pause = 0, self.first
