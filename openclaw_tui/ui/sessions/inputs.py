"""An input's recorded preview as a person reads it: keys by their names, text as typed.

The names come from the core's own key encoder, so they agree with send-keys.
"""

from __future__ import annotations

from functools import cache

from openclaw_tui.core.tools import encode_keys

SIGNS = {"\r": "⏎", "\n": "⏎", "\t": "⇥", "\x7f": "⌫"}
_SHOWN = {"Up": "↑", "Down": "↓", "Left": "←", "Right": "→", "PageUp": "PgUp", "PageDown": "PgDn",
          "Insert": "Ins", "Delete": "Del", "Home": "Home", "End": "End", "BTab": "S-Tab",
          **{f"F{n}": f"F{n}" for n in range(1, 13)}}
_MODIFIERS = ("", "S-", "M-", "C-", "C-S-", "C-M-", "M-S-", "C-M-S-")
_CONTROL_NAMES = {"\x00": "^@", "\x1b": "Esc", "\x1c": "^\\", "\x1d": "^]", "\x1e": "^^", "\x1f": "^_"}


@cache
def _sequences() -> dict[str, str]:
    """Escape sequence -> key name, for every named key with every modifier, in both cursor-key modes."""
    names: dict[str, str] = {}
    for token, shown in _SHOWN.items():
        for prefix in _MODIFIERS if token != "BTab" else ("",):
            for app_cursor in (False, True):
                try:
                    encoded = encode_keys([prefix + token], app_cursor=app_cursor)
                except ValueError:
                    continue
                if not encoded.warnings:
                    names.setdefault(encoded.data.decode("latin-1"), prefix + shown)
    names.update({"\x1b[200~": "", "\x1b[201~": ""})  # bracketed paste's frame: the action says "paste"
    return names


def key_name(ch: str) -> str | None:
    """The name of a one-character key: ``^C``, ``Esc``, ``⏎``; None for a printable character."""
    if ch in SIGNS:
        return SIGNS[ch]
    if ch in _CONTROL_NAMES:
        return _CONTROL_NAMES[ch]
    if ord(ch) < 0x20:
        return "^" + chr(ord(ch) + 0x40)
    return None


def input_preview(text: str) -> str:
    """``text`` (an input's recorded preview) for one line of the screen, keys named.

    Longer names (``F10``, ``Esc``, ``M-x``) stand apart from typed text by a space; a sequence cut short
    by the preview's length, and any other character a terminal would act on, is escaped (``\\x1b``).
    """
    sequences = _sequences()
    longest = max(map(len, sequences))
    parts: list[tuple[bool, str]] = []  # (is a key, shown)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            for size in range(min(longest, len(text) - i), 1, -1):
                name = sequences.get(text[i:i + size])
                if name is not None:
                    parts.append((True, name))
                    i += size
                    break
            else:
                nxt = text[i + 1:i + 2]
                if nxt and nxt.isprintable() and nxt not in "[O":
                    parts.append((True, "M-" + nxt))  # Alt+key: ESC then the key
                    i += 2
                elif nxt in ("[", "O") and i + 2 < len(text):
                    parts.append((False, "\\x1b"))  # a sequence with no name: shown raw, escaped
                    i += 1
                else:
                    parts.append((True, "Esc"))
                    i += 1
            continue
        name = key_name(ch)
        if name is not None:
            parts.append((True, name))
        elif ch == "\\" or not ch.isprintable():
            parts.append((False, ch.encode("unicode_escape").decode("ascii")))
        else:
            parts.append((False, ch))
        i += 1
    return _join(parts)


def _join(parts: list[tuple[bool, str]]) -> str:
    out: list[str] = []
    for n, (is_key, shown) in enumerate(parts):
        apart = is_key and len(shown) > 1 and not shown.startswith("^")
        if apart and out and not out[-1].endswith(" "):
            out.append(" ")
        out.append(shown)
        if apart and n + 1 < len(parts) and not parts[n + 1][1].startswith(" "):
            out.append(" ")
    return "".join(out)
