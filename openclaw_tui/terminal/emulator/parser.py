"""Splits a child's raw output into text runs, control characters and escape sequences.

Stock pyte walks a generator once per character; here a handful of regular expressions match whole
runs of printable text and whole CSI sequences, so a plain or coloured line costs a few Python calls
instead of one per byte. Bytes are decoded with an incremental UTF-8 decoder (invalid bytes become
U+FFFD, never an exception) and an escape sequence cut off at the end of a read is held back until the
rest arrives. The parser knows nothing of screen state: it calls the screen's handlers by name.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import Any

_TEXT = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_CSI = re.compile(r"\x1b\[([<=>?]?)([0-9:;]*)([\x20-\x2f]*)([\x40-\x7e])")
_CSI_ANY = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]")
_OSC = re.compile(r"\x1b\]([^\x07\x1b\x9c]*)(\x07|\x9c|\x1b\\)")
_ST = re.compile(
    r"\x9c|\x1b\\"
)  # ends a DCS/PM/APC/SOS string, which may hold other escapes (tmux passthrough)
_ESC = re.compile(r"\x1b([\x20-\x2f]*)([\x30-\x7e])")
_PARTIAL = re.compile(r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|\][^\x07\x1b\x9c]*\x1b?|[\x20-\x2f]*)?")
_STRING_END = re.compile(r"\x07|\x9c|\x1b\\")
_MAX_PENDING = 1 << 16  # an unterminated OSC/DCS longer than this is skipped, not buffered

CONTROLS = {
    "\x07": "bell",
    "\x08": "backspace",
    "\x09": "tab",
    "\x0a": "linefeed",
    "\x0b": "linefeed",
    "\x0c": "linefeed",
    "\x0d": "carriage_return",
    "\x0e": "shift_out",
    "\x0f": "shift_in",
}

_INTS: dict[str, tuple[int, ...]] = {}


def int_params(params: str) -> tuple[int, ...]:
    """``"1;;5"`` -> ``(1, 0, 5)``; sub-parameters after ``:`` are dropped; values capped at 9999."""
    found = _INTS.get(params)
    if found is None:
        if len(_INTS) > 4096:
            _INTS.clear()
        found = _INTS[params] = (
            tuple(
                min(int(head), 9999) if (head := p.split(":", 1)[0]).isdigit() else 0
                for p in params.split(";")
            )
            if params
            else ()
        )
    return found


class ByteParser:
    """Feeds a byte stream to a screen's handlers.

    The screen provides ``draw(text)``, the control handlers named in ``CONTROLS``, ``carriage_return_linefeed()``, ``sgr(params)``,
    ``csi(lead, params, intermediates, final)``, ``esc(intermediates, final)`` and ``osc(payload)``.
    """

    def __init__(self, screen: Any) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""
        self._skipping_string = False
        self._draw: Callable[[str], None] = screen.draw
        self._csi: Callable[[str, str, str, str], None] = screen.csi
        self._sgr: Callable[[str], None] = screen.sgr
        self._esc: Callable[[str, str], None] = screen.esc
        self._osc: Callable[[str], None] = screen.osc
        self._controls = {char: getattr(screen, name) for char, name in CONTROLS.items()}
        self._crlf: Callable[[], None] = screen.carriage_return_linefeed

    def reset(self) -> None:
        """Forget half-read input (a partial UTF-8 character or escape sequence)."""
        self._decoder.reset()
        self._pending = ""
        self._skipping_string = False

    def feed(self, data: bytes) -> None:
        text = self._decoder.decode(data)
        if self._pending:
            text = self._pending + text
            self._pending = ""
        if self._skipping_string:
            end = _STRING_END.search(text)
            if end is None:
                return
            self._skipping_string = False
            text = text[end.end() :]
        self.feed_text(text)

    def feed_text(self, text: str) -> None:
        draw, csi, controls, crlf = self._draw, self._csi, self._controls, self._crlf
        text_match, csi_match, sgr_match, sgr = _TEXT.match, _CSI.match, _SGR.match, self._sgr
        pos, length = 0, len(text)
        while pos < length:
            char = text[pos]
            if char == "\x1b":
                m = sgr_match(text, pos)
                if m is not None:
                    sgr(m.group(1))
                    pos = m.end()
                    continue
                m = csi_match(text, pos)
                if m is not None:
                    csi(*m.groups())
                    pos = m.end()
                else:
                    pos = self._escape(text, pos)
                    if pos < 0:
                        return
            elif char >= " " and not "\x7f" <= char <= "\x9f":
                m = text_match(text, pos)
                draw(m.group())  # type: ignore[union-attr]
                pos = m.end()  # type: ignore[union-attr]
            elif char == "\r" and text.startswith("\n", pos + 1):
                crlf()
                pos += 2
            else:
                handler = controls.get(char)
                if handler is not None:
                    handler()
                pos += 1

    def _escape(self, text: str, pos: int) -> int:
        """Handle a non-CSI (or odd CSI) escape at ``pos``; returns the next position, -1 if held back."""
        nxt = text[pos + 1 : pos + 2]
        if nxt == "]":
            m = _OSC.match(text, pos)
            if m is not None:
                self._osc(m.group(1))
                return m.end()
        elif nxt in ("P", "^", "_", "X"):
            m = _ST.search(text, pos + 2)
            if m is not None:
                return m.end()  # DCS/PM/APC/SOS strings carry nothing we draw
            return self._hold(text[pos:], string=True)
        elif nxt == "[":
            m = _CSI_ANY.match(text, pos)
            if m is not None:
                return m.end()  # well-formed but not a sequence we know: ignore it whole
        else:
            m = _ESC.match(text, pos)
            if m is not None:
                self._esc(*m.groups())
                return m.end()
        rest = text[pos:]
        partial = _PARTIAL.match(rest)
        if partial is not None and partial.end() == len(rest):
            if len(rest) <= _MAX_PENDING or nxt == "]":
                return self._hold(rest, string=nxt == "]")
            return pos + 1  # an endless run of parameters: not a sequence any program meant
        if nxt == "]":
            # An OSC cut short by another escape: drop what was collected, go on at that escape.
            end = text.find("\x1b", pos + 2)
            return end if end > 0 else len(text)
        if nxt == "[":
            return self._csi_with_controls(text, pos)
        return pos + 1  # a lone ESC before something that cannot follow it: drop the ESC

    def _hold(self, rest: str, string: bool) -> int:
        """Keep an unfinished sequence for the next feed; a string grown past the limit is skipped instead."""
        if len(rest) <= _MAX_PENDING:
            self._pending = rest
        elif string:
            self._skipping_string = True
        return -1

    def _csi_with_controls(self, text: str, pos: int) -> int:
        """A CSI with C0 controls inside: they act at once (as on a VT), then the sequence completes."""
        i = pos + 2
        body: list[str] = []
        controls: list[str] = []
        while i < len(text):
            char = text[i]
            if char in ("\x18", "\x1a"):
                return i + 1  # CAN/SUB cancel the sequence
            if char == "\x1b":
                return i
            if char < " ":
                controls.append(char)
            elif "\x20" <= char <= "\x3f":
                body.append(char)
            elif "\x40" <= char <= "\x7e":
                for control in controls:
                    handler = self._controls.get(control)
                    if handler is not None:
                        handler()
                m = _CSI.match("\x1b[" + "".join(body) + char)
                if m is not None:
                    self._csi(*m.groups())
                return i + 1
            else:
                return i  # not part of a CSI: abandon it
            i += 1
        if len(text) - pos > _MAX_PENDING:
            return pos + 1
        self._pending = text[pos:]
        return -1
