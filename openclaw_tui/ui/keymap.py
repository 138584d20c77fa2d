"""Keys from the dashboard to bytes for a PTY: Textual key events, and the send-keys prompt's tokens.

Type-through mode forwards every key event; Textual names keys its own way (``ctrl+up``, ``f5``,
``shift+tab``), so named keys are mapped onto the tmux tokens the core's :func:`encode_keys` already
encodes (xterm sequences, application cursor mode included) and printable characters are sent as
typed. The send-keys prompt takes tmux tokens separated by spaces, with quoted text sent literally;
unlike the agent tool, which types an unknown token literally and warns, the prompt refuses the whole
line so a typo never reaches the program.
"""

from __future__ import annotations

import re

from textual.keys import key_to_character

from ..core.keys import KeyEncodingError, encode_keys

ESC = b"\x1b"

_NAMED = {
    "enter": "Enter", "tab": "Tab", "escape": "Escape", "space": "Space", "backspace": "BSpace",
    "up": "Up", "down": "Down", "left": "Left", "right": "Right", "home": "Home", "end": "End",
    "pageup": "PageUp", "pagedown": "PageDown", "insert": "Insert", "delete": "Delete",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}
# xterm reports Shift+F1..F12 as F13..F24; Textual names them so.
_NAMED.update({f"f{n + 12}": f"S-F{n}" for n in range(1, 13)})
_PREFIX = {"ctrl": "C-", "alt": "M-", "meta": "M-", "shift": "S-"}


def key_event_bytes(key: str, character: str | None, app_cursor: bool | None) -> bytes | None:
    """Bytes a terminal would send for a Textual key event, or None for a key with no encoding.

    An unknown cursor-key mode (the program printed nothing yet) is taken as normal mode: a person at a
    terminal gets the normal form too.
    """
    if key == "shift+tab":
        return _encode(["BTab"], app_cursor)
    *mods, base = key.split("+")
    token = _NAMED.get(base)
    if token is not None:
        prefix = "".join(_PREFIX.get(m, "") for m in mods if m != "shift" or "-" not in token)
        return _encode([prefix + token], app_cursor)
    alt = "alt" in mods or "meta" in mods
    if len(base) > 1:
        base = key_to_character(base) or base  # "right_square_bracket" -> "]"
    if character is None and alt and len(base) == 1 and "ctrl" not in mods:
        character = base.upper() if "shift" in mods else base
    if character and character.isprintable():
        return (ESC if alt else b"") + character.encode("utf-8", "replace")
    if "ctrl" in mods and len(base) == 1:
        return (ESC if alt else b"") + _encode(["C-" + base], app_cursor)
    if character:
        return (ESC if alt else b"") + character.encode("utf-8", "replace")
    return None


def _encode(tokens: list[str], app_cursor: bool | None) -> bytes:
    return encode_keys(tokens, app_cursor=False if app_cursor is None else app_cursor).data


class BadKeys(ValueError):
    """The send-keys line holds a token that is not a key; the message names it and the valid forms."""


def parse_key_line(line: str) -> list[str]:
    """tmux tokens from a prompt line: ``C-c``, ``Enter``, ``"quoted text"`` (typed as is).

    Returns tokens for the ``keys`` parameter of ``send-keys`` (quoted text becomes one token per
    character, so the order of text and keys is kept in one call).

    Raises:
        BadKeys: a token is not a key name (an unbalanced quote makes one), or the line is empty.
    """
    tokens: list[str] = []
    bad: list[str] = []
    for match in _WORD.finditer(line):
        double, single, word = match.groups()
        text = double if double is not None else single
        if text is not None:
            tokens.extend("Space" if ch == " " else ch for ch in text)
            continue
        try:
            warnings = encode_keys([word], app_cursor=False).warnings
        except KeyEncodingError:
            warnings = ["bad"]
        if warnings:
            bad.append(word)
        tokens.append(word)
    if bad:
        raise BadKeys(
            f"not a key: {', '.join(bad)} - nothing was sent. Use tmux names (Enter, Tab, Escape, BSpace, "
            "Up, PageDown, F5, C-c, M-x, S-Tab, ^D) or put text in quotes"
        )
    if not tokens:
        raise BadKeys('nothing to send: type key names like C-c Enter Up, or "quoted text"')
    return tokens


_WORD = re.compile(r'"([^"]*)"|\'([^\']*)\'|(\S+)')
