"""Keys from the dashboard to bytes for a PTY: the Textual key events that type-through forwards, mapped onto
the core's :func:`encode_keys` tokens.
"""

from __future__ import annotations

from textual.keys import key_to_character

from openclaw_tui.core.tools import encode_keys

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
