"""Painting a line of a session's output with what the operator looks for on it: search matches, the current
match and the selection, over the line's own styles.

Every view hands its line over as runs of ``(text, Rich style)``; spans are character ranges of the line's text
(a wide character is one character), which is what search and selection count in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.color import Color
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.binding import BindingsMap
from textual.strip import Strip
from textual.widget import Widget

from openclaw_tui.terminal import Match, Style

MATCH_STYLE = RichStyle(color="black", bgcolor="#5fafd7")  # every match, as tmux's copy-mode-match-style
CURRENT_STYLE = RichStyle(color="black", bgcolor="#ffaf00", bold=True)  # the one the view is on
NOTICE_STYLE = RichStyle(dim=True, reverse=True)
SELECTED = "selected"  # a span kind: the selection, shown reversed

Span = tuple[int, int, RichStyle | str]


def _colour(value: int | str | None) -> Color | None:
    if value is None:
        return None
    if isinstance(value, int):
        return Color.from_ansi(value)
    return Color.parse(value)


def rich_style(style: Style, base: RichStyle, cache: dict[Style, RichStyle]) -> RichStyle:
    """A terminal cell style as a Rich style over the view's ``base``, converted once per view and style."""
    rich = cache.get(style)
    if rich is None:
        rich = cache[style] = base + RichStyle(
            color=_colour(style.fg), bgcolor=_colour(style.bg), bold=style.bold, dim=style.dim,
            italic=style.italic, underline=style.underline, reverse=style.reverse, strike=style.strikethrough,
        )
    return rich


def spans_of(matches: Iterable[Match], current: Match | None, selected: tuple[int, int] | None) -> list[Span]:
    """The spans of one line: its matches (the current one marked), then the selection over them."""
    spans: list[Span] = [(m.start, m.end, CURRENT_STYLE if m == current else MATCH_STYLE) for m in matches]
    if selected is not None:
        spans.append((selected[0], selected[1], SELECTED))
    return spans


def painted(runs: Iterable[tuple[str, RichStyle]], spans: Sequence[Span]) -> list[Segment]:
    """Segments of a line's runs with each span's style laid over its characters, later spans on top; a
    selected span toggles reverse video, so a selection shows even over reversed text."""
    if not spans:
        return [Segment(text, style) for text, style in runs]
    cuts = sorted({cut for start, end, _ in spans for cut in (start, end)})
    out = []
    pos = 0
    for text, style in runs:
        end = pos + len(text)
        edges = [pos, *(c for c in cuts if pos < c < end), end]
        for a, b in zip(edges, edges[1:], strict=False):
            piece_style = style
            for start, stop, over in spans:
                if start <= a and b <= stop:
                    piece_style = (piece_style + RichStyle(reverse=not piece_style.reverse) if over == SELECTED
                                   else piece_style + over)  # type: ignore[operator]
            out.append(Segment(text[a - pos : b - pos], piece_style))
        pos = end
    return out


def notice(text: str, width: int, base: RichStyle) -> Strip:
    """The row a view keeps for saying where it stands ("−120 lines · end follows")."""
    return Strip([Segment(text, base + NOTICE_STYLE)]).crop(0, width).adjust_cell_length(width, base)


def binding_key_display(widget: Widget, binding_id: str) -> str:
    """The key bound (after the keymap) to the binding ``binding_id`` of ``widget`` or an ancestor, as the
    footer shows it; empty if none is bound."""
    for node in widget.ancestors_with_self:
        found = [b for _, b in getattr(node, "_bindings", BindingsMap()) if b.id == binding_id]
        if found:
            bindings = BindingsMap(found)
            bindings.apply_keymap(widget.app._keymap)
            return widget.app.get_key_display(next(b for _, b in bindings))
    return ""
