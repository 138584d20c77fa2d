"""Turn the keys an agent asks to press into the exact bytes a terminal would write to a child's PTY.

It follows xterm's encodings, application cursor mode included, and is pure so the agent tools and the
dashboard's send-keys prompt (:func:`key_line_tokens`) share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .keynames import NearMiss, check_near_miss, to_tmux

__all__ = [
    "KEY_NAMES",
    "SUBMIT",
    "EncodedKeys",
    "KeyEncodingError",
    "RefusedKey",
    "encode_keys",
    "key_line_tokens",
    "paste_bytes",
]

SUBMIT = b"\r"
"""What pressing Enter sends: a carriage return (the PTY's line discipline turns it into a newline)."""

_ESC = "\x1b"
_CSI = "\x1b["
_SS3 = "\x1bO"
_PASTE_START = "\x1b[200~"
_PASTE_END = "\x1b[201~"

_HEX_BYTE = re.compile(r"(?:0[xX])?([0-9a-fA-F]{1,2})")


class KeyEncodingError(ValueError):
    """The request cannot be turned into bytes at all (as opposed to a part of it, which only warns)."""


class RefusedKey(KeyEncodingError):
    """A token that looks like a key but is not one (a near miss, a GUI-only modifier); ``reason`` says
    why, without the advice for agents that the message adds."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason} (to type it as text, send it with literal)")
        self.reason = reason


@dataclass(frozen=True)
class EncodedKeys:
    """Bytes ready to write to the PTY plus notes about anything in the request that was not taken as-is.

    Warnings are returned rather than raised so that one typo does not throw away an otherwise good send.
    """

    data: bytes
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Mods:
    """Modifier prefixes of one token; ``param`` is xterm's modifier number (1 + shift 1, alt 2, ctrl 4)."""

    shift: bool = False
    meta: bool = False
    ctrl: bool = False

    @property
    def any(self) -> bool:
        return self.shift or self.meta or self.ctrl

    @property
    def param(self) -> int:
        return 1 + (1 if self.shift else 0) + (2 if self.meta else 0) + (4 if self.ctrl else 0)


# Keys whose modifiers behave as on an ordinary character (C- maps through the control table, M- adds ESC).
_CHAR_KEYS: dict[str, str] = {
    "Enter": "\r",
    "Tab": "\t",
    "Escape": "\x1b",
    "Esc": "\x1b",
    "Space": " ",
    "BSpace": "\x7f",
    # The keypad in normal (numeric) keypad mode sends its plain characters, as tmux does.
    **{f"KP{d}": str(d) for d in range(10)},
    "KP/": "/",
    "KP*": "*",
    "KP-": "-",
    "KP+": "+",
    "KP.": ".",
    "KPEnter": "\r",
}

# Cursor keys: final byte of ``ESC [ x`` / ``ESC O x``; their form depends on the cursor-key mode.
_CURSOR_KEYS: dict[str, str] = {"Up": "A", "Down": "B", "Right": "C", "Left": "D", "Home": "H", "End": "F"}

# Home/End switch to the vt220 tilde form when modified (``ESC [ 1 ; m ~`` / ``ESC [ 4 ; m ~``).
_CURSOR_TILDE_WHEN_MODIFIED: dict[str, int] = {"Home": 1, "End": 4}

# Keys sent as ``ESC [ n ~``, or ``ESC [ n ; m ~`` when modified.
_TILDE_KEYS: dict[str, int] = {
    "Insert": 2,
    "IC": 2,
    "Delete": 3,
    "Del": 3,
    "DC": 3,
    "PageUp": 5,
    "PgUp": 5,
    "PPage": 5,
    "PageDown": 6,
    "PgDn": 6,
    "NPage": 6,
    "F5": 15,
    "F6": 17,
    "F7": 18,
    "F8": 19,
    "F9": 20,
    "F10": 21,
    "F11": 23,
    "F12": 24,
}

# F1-F4 are ``ESC O x`` unmodified and ``ESC [ 1 ; m x`` modified.
_SS3_KEYS: dict[str, str] = {"F1": "P", "F2": "Q", "F3": "R", "F4": "S"}

_BTAB = "BTab"

KEY_NAMES: list[str] = sorted([*_CHAR_KEYS, *_CURSOR_KEYS, *_TILDE_KEYS, *_SS3_KEYS, _BTAB])
"""Every key name accepted (case-insensitively), for error messages and help text."""

_BY_LOWER: dict[str, str] = {name.lower(): name for name in KEY_NAMES}

# Ctrl on non-letters: the classic VT220/xterm table (Ctrl+2 is NUL, Ctrl+3 is ESC, ... Ctrl+8 is DEL).
_CONTROL_SYMBOLS: dict[str, str] = {
    "@": "\x00",
    " ": "\x00",
    "2": "\x00",
    "[": "\x1b",
    "3": "\x1b",
    "\\": "\x1c",
    "4": "\x1c",
    "]": "\x1d",
    "5": "\x1d",
    "^": "\x1e",
    "6": "\x1e",
    "_": "\x1f",
    "/": "\x1f",
    "7": "\x1f",
    "?": "\x7f",
    "8": "\x7f",
}


def encode_keys(
    keys: list[str] | None = None,
    hex: list[str] | None = None,  # shadows the builtin: the public name matches the tool schema
    literal: str | None = None,
    *,
    app_cursor: bool | None = False,
) -> EncodedKeys:
    """Encode ``literal`` text, then ``hex`` bytes, then ``keys`` tokens, in that order, into one write.

    ``app_cursor`` is the child's cursor-key mode; ``None`` means it is not known yet (the child has
    written nothing), in which case a plain arrow/Home/End is refused rather than guessed, because the
    wrong guess silently does the wrong thing in the child.

    Raises:
        KeyEncodingError: nothing was asked for or nothing encodable remained, or the cursor-key mode is
            unknown and a mode-dependent key was requested.
    """
    if not keys and not hex and not literal:
        raise KeyEncodingError("nothing to send: give at least one of keys, hex or literal")
    warnings: list[str] = []
    parts: list[bytes] = []
    if literal:
        parts.append(_utf8(literal, "literal text", warnings))
    for item in hex or []:
        parts.append(_decode_hex_item(item, warnings))
    for token in keys or []:
        parts.append(_encode_token(token, app_cursor, warnings))
    data = b"".join(parts)
    if not data:
        raise KeyEncodingError("nothing to send: every item was skipped (" + "; ".join(warnings) + ")")
    return EncodedKeys(data=data, warnings=warnings)


def paste_bytes(text: str, bracketed: bool = True) -> bytes:
    """Bytes for pasting ``text``, wrapped in ``ESC[200~`` ... ``ESC[201~`` when ``bracketed``.

    Bracketed paste lets the child tell typed keys from pasted text (so a pasted newline does not run a
    command). Any ``ESC[201~`` inside the text is removed first: otherwise the text could end the paste
    early and have the rest interpreted as typed keystrokes, which is exactly what bracketing prevents.
    Removal repeats until none is left, since deleting one occurrence can join two halves into another.
    """
    if not bracketed:
        return text.encode("utf-8", "replace")
    while _PASTE_END in text:
        text = text.replace(_PASTE_END, "")
    return (_PASTE_START + text + _PASTE_END).encode("utf-8", "replace")


def _utf8(text: str, what: str, warnings: list[str]) -> bytes:
    """UTF-8 of ``text``; lone surrogates (not encodable) become ``?`` with a warning instead of failing."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        warnings.append(f"{what} {text!r} holds characters that are not valid Unicode; sent them as '?'")
        return text.encode("utf-8", "replace")


def _decode_hex_item(item: str, warnings: list[str]) -> bytes:
    """Bytes of one hex item, which may hold several whitespace-separated bytes ("c3 a9")."""
    pieces = item.split()
    if not pieces:
        warnings.append(f"hex item {item!r} is empty; skipped")
        return b""
    out = bytearray()
    for piece in pieces:
        match = _HEX_BYTE.fullmatch(piece)
        if match is None:
            warnings.append(f"hex byte {piece!r} is not a byte like 'c3' or '0xc3'; skipped")
            continue
        out.append(int(match.group(1), 16))
    return bytes(out)


def _encode_token(token: str, app_cursor: bool | None, warnings: list[str]) -> bytes:
    """Bytes for one key token; text that is no key name is typed literally with a warning.

    Raises:
        KeyEncodingError: the token is a near miss of a key name, or needs a modifier no terminal sends.
    """
    if not token:
        warnings.append("empty key token; skipped")
        return b""
    try:
        mods, base = _split_modifiers(to_tmux(token))
    except ValueError as exc:
        raise RefusedKey(str(exc)) from None
    name = _BY_LOWER.get(base.lower())
    if name is not None:
        return _encode_named(name, mods, token, app_cursor, warnings).encode("ascii")
    if len(base) == 1:
        return _utf8(_encode_char(base, mods, token, warnings), f"key {token!r}", warnings)
    try:
        check_near_miss(token, KEY_NAMES)
    except NearMiss as exc:
        raise RefusedKey(str(exc)) from None
    warnings.append(
        f"unknown key {token!r}: sent it as literal text (key names: {', '.join(KEY_NAMES)}, also Return, "
        "Backspace, ArrowUp...; modifiers C-, M-, S-, ^ or Ctrl-, Alt-, Shift-)"
    )
    return _utf8(token, f"key {token!r}", warnings)


def _split_modifiers(token: str) -> tuple[_Mods, str]:
    """Peel ``C-``/``M-``/``S-`` prefixes (any order, any case) and a ``^`` control prefix off a token."""
    shift = meta = ctrl = False
    rest = token
    while len(rest) > 2 and rest[1] == "-" and rest[0] in "CMScms":
        flag = rest[0].upper()
        shift = shift or flag == "S"
        meta = meta or flag == "M"
        ctrl = ctrl or flag == "C"
        rest = rest[2:]
    if len(rest) > 1 and rest[0] == "^":
        ctrl = True
        rest = rest[1:]
    return _Mods(shift=shift, meta=meta, ctrl=ctrl), rest


def _encode_named(name: str, mods: _Mods, token: str, app_cursor: bool | None, warnings: list[str]) -> str:
    """Escape sequence (or character) for a named key under the given modifiers."""
    if name in _CURSOR_KEYS:
        return _encode_cursor(name, mods, token, app_cursor)
    if name in _TILDE_KEYS:
        number = _TILDE_KEYS[name]
        return f"{_CSI}{number};{mods.param}~" if mods.any else f"{_CSI}{number}~"
    if name in _SS3_KEYS:
        final = _SS3_KEYS[name]
        return f"{_CSI}1;{mods.param}{final}" if mods.any else f"{_SS3}{final}"
    if name == _BTAB or (name == "Tab" and mods.shift):
        return _encode_backtab(mods, token, warnings)
    return _encode_char(_CHAR_KEYS[name], mods, token, warnings)


def _encode_cursor(name: str, mods: _Mods, token: str, app_cursor: bool | None) -> str:
    """Arrow/Home/End: xterm's modified form, or the plain form for the child's cursor-key mode."""
    if mods.any:
        tilde = _CURSOR_TILDE_WHEN_MODIFIED.get(name)
        if tilde is not None:
            return f"{_CSI}{tilde};{mods.param}~"
        return f"{_CSI}1;{mods.param}{_CURSOR_KEYS[name]}"
    if app_cursor is None:
        raise KeyEncodingError(
            f"cannot encode {token!r} yet: the program has written no output, so its cursor-key mode "
            "(normal ESC[A vs application ESC O A) is unknown; poll the session for output first and "
            "then send the key again (modified keys such as C-Up do not depend on the mode)"
        )
    return (_SS3 if app_cursor else _CSI) + _CURSOR_KEYS[name]


def _encode_backtab(mods: _Mods, token: str, warnings: list[str]) -> str:
    """Shift-Tab (``ESC [ Z``); M- adds ESC, C- has no encoding and is dropped with a warning."""
    if mods.ctrl:
        warnings.append(f"key {token!r}: C- has no encoding for back-tab; sent it without C-")
    return (_ESC if mods.meta else "") + f"{_CSI}Z"


def _encode_char(char: str, mods: _Mods, token: str, warnings: list[str]) -> str:
    """A character under S- (upper case), C- (control byte) and M- (ESC prefix), applied in that order."""
    if mods.shift:
        char = _shifted(char, token, warnings)
    if mods.ctrl:
        char = _controlled(char, token, warnings)
    return (_ESC if mods.meta else "") + char


def _shifted(char: str, token: str, warnings: list[str]) -> str:
    """Upper-case letter for S-; other keys have no shifted form a terminal could send."""
    upper = char.upper()
    if len(upper) == 1 and upper != char.lower():
        return upper
    warnings.append(f"key {token!r}: S- has no effect on {char!r}; sent it without S-")
    return char


def _controlled(char: str, token: str, warnings: list[str]) -> str:
    """Control byte for C-: letters map to 0x01-0x1a, a few symbols/digits via the classic table."""
    if char.isascii() and char.isalpha():
        return chr(ord(char.lower()) & 0x1F)
    control = _CONTROL_SYMBOLS.get(char)
    if control is not None:
        return control
    warnings.append(f"key {token!r}: C- has no control code for {char!r}; sent it without C-")
    return char


_LINE_WORD = re.compile(r'"([^"]*)"|\'([^\']*)\'|(\S+)')


def key_line_tokens(line: str) -> list[str]:
    """Tokens for ``send-keys`` from a line a person typed: key names separated by spaces, and
    ``"quoted text"`` typed as is (one token per character, so text and keys keep their order).

    Stricter than the agent tool, which types a token that is no key name literally and warns: here any
    such token refuses the whole line, so a typo never reaches the program.

    Raises:
        KeyEncodingError: a token is not a key (the message says which, with a suggestion for a near
            miss, and that nothing was sent), or the line holds nothing to send.
    """
    tokens: list[str] = []
    bad: list[str] = []
    for match in _LINE_WORD.finditer(line):
        double, single, word = match.groups()
        text = double if double is not None else single
        if text is not None:
            tokens.extend("Space" if ch == " " else ch for ch in text)
            continue
        try:
            if encode_keys([word], app_cursor=False).warnings:
                bad.append(word)
        except RefusedKey as exc:
            raise KeyEncodingError(f"{exc.reason} (put text in quotes)") from None
        tokens.append(word)
    if bad:
        raise KeyEncodingError(
            f"not a key: {', '.join(bad)} - nothing was sent. Use key names (Enter, Tab, Esc, BSpace, Up, "
            "PgDn, F5, C-c or Ctrl-C, M-x or Alt-x, S-Tab, ^D) or put text in quotes"
        )
    if not tokens:
        raise KeyEncodingError('nothing to send: type key names like C-c Enter Up, or "quoted text"')
    return tokens
