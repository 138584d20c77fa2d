"""Key names as agents actually write them (tmux's, GUIs', xdotool's and browsers'), turned into the tmux
tokens :mod:`.keys` encodes.

A near miss of a key name (``Entr``) is refused with the name it was probably meant to be.
"""

from __future__ import annotations

import re

# Modifier words, in the order the pattern must try them (longer first), and the tmux prefix each means.
_MODIFIERS = {
    "control": "C-", "ctrl": "C-", "ctl": "C-", "c": "C-",
    "option": "M-", "opt": "M-", "meta": "M-", "alt": "M-", "m": "M-",
    "shift": "S-", "s": "S-",
}
_MODIFIER = re.compile(r"(" + "|".join(_MODIFIERS) + r")[-+](?=.)", re.IGNORECASE)
_GUI_ONLY = re.compile(r"(command|cmd|super|windows|win|hyper)[-+](?=.)", re.IGNORECASE)
_SUGGESTED_MODIFIERS = ("Ctrl", "Alt", "Shift", "Meta", "Control", "Option")

ALIASES: dict[str, str] = {
    "Return": "Enter",
    "Backspace": "BSpace",
    "Ins": "Insert",
    "Page_Up": "PageUp",
    "Page_Down": "PageDown",
    "ArrowUp": "Up",
    "ArrowDown": "Down",
    "ArrowLeft": "Left",
    "ArrowRight": "Right",
    "BackTab": "BTab",
    **{f"F{n + 12}": f"S-F{n}" for n in range(1, 13)},
}
"""Other names for keys, each mapped to its tmux token."""

_ALIAS_BY_LOWER = {name.lower(): token for name, token in ALIASES.items()}
_WORDLIKE = re.compile(r"[A-Za-z0-9_]+(?:[-+][A-Za-z0-9_]+)*")


class NearMiss(ValueError):
    """A token that is almost a key name; the message says which one and that nothing was sent."""


def to_tmux(token: str) -> str:
    """``token`` in tmux's spelling: modifier words become ``C-``/``M-``/``S-`` and aliases their key.

    Raises:
        ValueError: the token uses a modifier no terminal can send (Cmd, Super, Win).
    """
    prefix, rest = "", token
    while (match := _MODIFIER.match(rest)) is not None:
        prefix += _MODIFIERS[match.group(1).lower()]
        rest = rest[match.end():]
    gui = _GUI_ONLY.match(rest)
    if gui is not None:
        raise ValueError(
            f"key {token!r}: {gui.group(1)} combinations are handled by the desktop and never reach a program "
            "through a terminal (Ctrl, Alt and Shift combinations do). Nothing was sent"
        )
    return prefix + _ALIAS_BY_LOWER.get(rest.lower(), rest)


def check_near_miss(token: str, key_names: list[str]) -> None:
    """Raise :class:`NearMiss` when ``token`` (not a key) looks like a misspelt key name.

    Only word-like tokens count (letters and digits, joined by ``-`` or ``+``): text with spaces or other
    punctuation is text. Each modifier word and the key name are compared on their own, so ``Ctlr-C``
    suggests ``Ctrl-C`` and ``C-Entr`` suggests ``C-Enter``.
    """
    if not _WORDLIKE.fullmatch(token):
        return
    parts = re.split(r"([-+])", token)
    (*prefixes, base), separators = parts[::2], parts[1::2]
    fixed: list[str] = []
    for word in prefixes:
        if word.lower() in _MODIFIERS:
            fixed.append(word)
            continue
        close = _closest(word, _SUGGESTED_MODIFIERS)
        if close is None:
            return
        fixed.append(close)
    names = [*key_names, *ALIASES]
    if len(base) == 1 or base.lower() in {n.lower() for n in names}:
        if fixed == prefixes:
            return  # every part is right: not a near miss (an unknown combination is the encoder's to judge)
        guess = base
    else:
        guess = _closest(base, names)
        if guess is None:
            return
    suggestion = "".join(part + sep for part, sep in zip(fixed, separators)) + guess
    raise NearMiss(f"unknown key {token!r}: did you mean {suggestion}? Nothing was sent")


def _closest(word: str, names: list[str] | tuple[str, ...]) -> str | None:
    """The name ``word`` is one slip away from (two for long words), or None. Short words never match, and
    neither does a name with another first letter: slips rarely hit the first one, and words such as
    ``and`` or ``night`` are one edit from a key name (``End``, ``Right``) too."""
    if len(word) < 3:
        return None
    limit = 1 if len(word) <= 5 else 2
    best: tuple[int, str] | None = None
    for name in names:
        if len(name) < 3 or not name.isalnum() or name[0].lower() != word[0].lower():
            continue
        distance = _edits(word.lower(), name.lower())
        if distance <= limit and (best is None or distance < best[0]):
            best = (distance, name)
    return None if best is None or best[0] == 0 else best[1]


def _edits(a: str, b: str) -> int:
    """Edits between ``a`` and ``b``: insertions, deletions, substitutions and swaps of neighbours."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]
