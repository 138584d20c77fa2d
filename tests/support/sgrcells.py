"""Test oracle: the cells tmux reports in ``capture-pane -e``, read without the product's parser.

``capture-pane -e`` writes each row as text interleaved with SGR sequences (``ESC [ ... m``) and, for
cells drawn in the DEC line-drawing set, SO ... SI (that state carries across rows). This reader turns
that back into cells ``(text, Attrs)``, with a wide character followed by an empty stub cell as the
engine stores it, and a zero-width character joined to the cell before it. It shares no code with
``openclaw_tui.terminal``: a fidelity test that compared the engine with itself could never fail.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from wcwidth import wcwidth

_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
# The VT100 special graphics characters tmux marks with SO/SI, as xterm draws them.
LINE_DRAWING = dict(zip("`afgjklmnopqrstuvwxyz{|}~", "◆▒°±┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·", strict=True))


class Attrs(NamedTuple):
    """A cell's look: colours are None (default), 0-255 (palette) or ``"#rrggbb"``."""

    fg: int | str | None = None
    bg: int | str | None = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False
    strikethrough: bool = False


PLAIN = Attrs()
_ON = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "reverse", 9: "strikethrough", 21: "underline"}
_OFF = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 27: ("reverse",), 29: ("strikethrough",)}


def _colour(parts: list[int]) -> tuple[int | str | None, int]:
    """A 38/48 colour from the numbers after it: (colour, how many numbers it took)."""
    if parts[:1] == [5] and len(parts) >= 2:
        return parts[1], 2
    if parts[:1] == [2] and len(parts) >= 4:
        r, g, b = parts[1:4]
        return f"#{r:02x}{g:02x}{b:02x}", 4
    return None, 1


def apply(attrs: Attrs, params: str) -> Attrs:
    """``attrs`` after one ``ESC [ params m``."""
    state = attrs._asdict()
    groups = params.split(";") if params else ["0"]
    i = 0
    while i < len(groups):
        group = groups[i]
        i += 1
        if ":" in group:  # ITU form: 38:5:n, 38:2::r:g:b, 4:3 ...
            sub = [int(p) if p else 0 for p in group.split(":")]
            if sub[0] in (38, 48):
                key = "fg" if sub[0] == 38 else "bg"
                rest = sub[1:]
                if rest[:1] == [2] and len(rest) >= 5:
                    rest = [2, *rest[-3:]]
                state[key] = _colour(rest)[0]
            elif sub[0] == 4:
                state["underline"] = len(sub) < 2 or sub[1] != 0
            continue
        code = int(group) if group else 0
        if code == 0:
            state = PLAIN._asdict()
        elif code in _ON:
            state[_ON[code]] = True
        elif code in _OFF:
            for name in _OFF[code]:
                state[name] = False
        elif 30 <= code <= 37 or 40 <= code <= 47:
            state["fg" if code < 40 else "bg"] = code % 10
        elif 90 <= code <= 97 or 100 <= code <= 107:
            state["fg" if code < 100 else "bg"] = code % 10 + 8
        elif code in (39, 49):
            state["fg" if code == 39 else "bg"] = None
        elif code in (38, 48):
            numbers = [int(g) if g.isdigit() else 0 for g in groups[i : i + 4]]
            colour, taken = _colour(numbers)
            state["fg" if code == 38 else "bg"] = colour
            i += taken
    return Attrs(**state)


def _width(char: str) -> int:
    if unicodedata.combining(char) or char in "\u200b\u200d\ufe0f\ufe0e":
        return 0
    return max(1, wcwidth(char))


def read_capture(rows: list[str]) -> list[list[tuple[str, Attrs]]]:
    """Cells per captured row; only the cells tmux reported (its used width, not the full row)."""
    out: list[list[tuple[str, Attrs]]] = []
    attrs, drawing = PLAIN, False
    for row in rows:
        cells: list[tuple[str, Attrs]] = []
        joining = False
        pos = 0
        while pos < len(row):
            m = _SGR.match(row, pos)
            if m:
                attrs = apply(attrs, m.group(1))
                pos = m.end()
                continue
            char = row[pos]
            pos += 1
            if char in "\x0e\x0f":
                drawing = char == "\x0e"
                continue
            if drawing:
                char = LINE_DRAWING.get(char, char)
            width = _width(char)
            if width == 0 and not cells:
                continue  # a mark with nothing to join is not drawn (tmux drops it too)
            if width == 0 or (joining and cells):
                last = len(cells) - 1 if cells[-1][0] or len(cells) < 2 else len(cells) - 2
                cells[last] = (cells[last][0] + char, cells[last][1])
                joining = char == "\u200d"
                continue
            cells.append((char, attrs))
            if width == 2:
                cells.append(("", attrs))
        out.append(cells)
    return out
