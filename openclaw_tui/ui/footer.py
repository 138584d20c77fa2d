"""The footer: Textual's, leaving out the less used keys when the terminal is too narrow for all of them.

It drops keys in :data:`DROP_ORDER` (least needed first) until the rest fit, and then shows ``?``, which opens
the help.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_ACTION = "toggle_help"

# Actions whose keys leave the footer first when it is narrow, by action name (the keys are remappable).
# Fit goes first: a terminal view too small for its PTY names the fit key on its own last row.
# The view's last row names the follow key while scrolled back, so it goes as early. Tab (between tiles) goes
# last: only the tiles show it, and nothing else moves the focus there; export just before it.
DROP_ORDER = ("fit", "follow", "mark", "tile", "copy", "toggle_mute", "zoom", "remove", "clear", "paste", "submit",
              "cycle_state", "toggle_log", "search_step", "search", "focus_filter", "export", "focus_tile")

# FooterKey's own padding (``0 1`` around the key, ``0 1 0 0`` after the description) around its text.
_KEY_PADDING = 3


def key_width(key: FooterKey) -> int:
    """Columns ``key`` takes in the (non-compact) footer."""
    return cell_len(key.key_display) + cell_len(key.description) + _KEY_PADDING


def fit(keys: list[FooterKey], width: int) -> list[FooterKey]:
    """``keys`` if they fit in ``width``; else without the :data:`DROP_ORDER` ones (as few as needed) plus help."""
    help_keys = [k for k in keys if k.action == HELP_ACTION]
    shown = [k for k in keys if k.action != HELP_ACTION]
    if sum(map(key_width, shown)) <= width:
        return shown
    budget = width - sum(map(key_width, help_keys))
    for action in DROP_ORDER:
        if sum(map(key_width, shown)) <= budget:
            break
        shown = [k for k in shown if k.action.partition("(")[0] != action]  # "search_step(True)" is search_step
    return shown + help_keys


class DashboardFooter(Footer):
    """A :class:`~textual.widgets.Footer` that fits the most needed keys into the terminal's width."""

    def __init__(self) -> None:
        super().__init__()
        self._laid_out_for = 0

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        width = self.size.width or self.app.size.width
        self._laid_out_for = width
        if all(isinstance(k, FooterKey) for k in keys):  # no key groups (the dashboard defines none)
            keys = list(fit([k for k in keys if isinstance(k, FooterKey)], width))
        yield from keys

    async def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._laid_out_for:
            await self.recompose()
