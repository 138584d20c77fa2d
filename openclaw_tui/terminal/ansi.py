"""Styled runs back to ANSI text, for printing a screen in a terminal (``python -m openclaw_tui.terminal
--ansi``).

Each run sets its whole style from a reset, so a printed row never depends on the row before it.
"""

from __future__ import annotations

from functools import lru_cache

from .emulator import DEFAULT_STYLE, Color, Run, Style

RESET = "\x1b[0m"
_FLAGS = (
    ("bold", "1"),
    ("dim", "2"),
    ("italic", "3"),
    ("underline", "4"),
    ("reverse", "7"),
    ("strikethrough", "9"),
)


def _colour(colour: Color, base: int) -> list[str]:
    if colour is None:
        return []
    if isinstance(colour, str):
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        return [str(base + 8), "2", str(r), str(g), str(b)]
    if colour < 8:
        return [str(base + colour)]
    if colour < 16:
        return [str(base + 60 + colour - 8)]
    return [str(base + 8), "5", str(colour)]


@lru_cache(maxsize=1024)
def sgr(style: Style) -> str:
    """The SGR sequence that turns the default style into ``style``."""
    params = ["0"] + [code for name, code in _FLAGS if getattr(style, name)]
    params += _colour(style.fg, 30) + _colour(style.bg, 40)
    return "\x1b[" + ";".join(params) + "m"


def runs_to_ansi(runs: list[Run], strip: bool = True) -> str:
    """One row as ANSI text; with ``strip`` trailing default-style blanks are dropped."""
    runs = list(runs)
    if strip:
        while runs and runs[-1][1] is DEFAULT_STYLE and not runs[-1][0].strip():
            runs.pop()
        if runs and runs[-1][1] is DEFAULT_STYLE:
            runs[-1] = (runs[-1][0].rstrip(), runs[-1][1])
    if not runs:
        return ""
    return "".join(sgr(style) + text for text, style in runs) + RESET
