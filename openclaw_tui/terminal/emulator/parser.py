"""Splits a child's raw output into text runs, control characters and escape sequences.

Stock pyte walks a generator once per character; here a handful of regular expressions match whole
runs of printable text and whole CSI sequences, so a plain or coloured line costs a few Python calls
instead of one per byte. Where a sequence ends, and what its body may hold, is the core's one grammar
(:mod:`openclaw_tui.core.vt.grammar`, tmux's), the same the agent's text is stripped by. Bytes are decoded
with an incremental UTF-8 decoder (invalid bytes become U+FFFD, never an exception) and an escape sequence
cut off at the end of a read is held back until the rest arrives. The parser knows nothing of screen
state: it calls the screen's handlers by name.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import Any

from openclaw_tui.core.vt import grammar

_GRAMMAR = grammar.TEXT  # the emulator reads decoded text

_TEXT = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")  # C1 controls draw nothing, as in tmux
# The common CSI forms, straight to their handlers (the grammar's general reading covers the rest).
_SGR = re.compile(rf"\x1b\[([0-9;:]{{0,{grammar.PARAMS_MAX}}})m")
_CSI = re.compile(  # a lead and at most two intermediates: tmux keeps three in all
    rf"\x1b\[([<=>?]?)([0-9:;]{{0,{grammar.PARAMS_MAX}}})([\x20-\x2f]{{0,2}})([\x40-\x7e])"
)
_OSC_ENDS = re.compile(r"[\x07\x18\x1a\x1b]")
_C0 = re.compile(r"[\x00-\x1f]")
_CSI_FINAL = re.compile(r"[@-~]")

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
        self._pending = ""  # an unfinished sequence, held back for the next feed
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

    def feed(self, data: bytes) -> None:
        text = self._decoder.decode(data)
        if self._pending:
            if (self._pending.startswith("\x1b]") and _OSC_ENDS.search(text) is None
                    and len(self._pending) + len(text) <= grammar.MAX_HELD):
                self._pending += text  # a long OSC (a clipboard copy) is not scanned again per read
                return
            text = self._pending + text
            self._pending = ""
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
                    params = m.group(1)
                    if len(params) < 10 or not grammar.discarded_params(params):
                        sgr(params)
                    pos = m.end()
                    continue
                m = csi_match(text, pos)
                if m is not None:
                    if len(m.group(2)) < 10 or not grammar.discarded_params(m.group(2)):
                        csi(*m.groups())
                    pos = m.end()
                else:
                    pos = self._sequence(text, pos)
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

    def _act(self, controls: str) -> None:
        for char in controls:
            handler = self._controls.get(char)
            if handler is not None:
                handler()

    def _sequence(self, text: str, pos: int) -> int:
        """Read the sequence at ``pos`` as the grammar does; the next position, or -1 if it is held back."""
        m = _GRAMMAR.sequence.match(text, pos)
        if m is None:
            acted, self._pending = _GRAMMAR.hold(text[pos:], osc=True)
            self._act(acted)  # only for a tail cut down to its state: the controls in it act now
            return -1
        end = m.end()
        seq = m.group()
        if _GRAMMAR.inert.search(seq) is not None:
            self._act(_GRAMMAR.acted(seq))
            start = _GRAMMAR.inert_run.match(seq, 1).end()  # type: ignore[union-attr]
        else:
            start = 1
        kind = seq[start : start + 1]
        last = seq[-1]
        if kind == "[":
            if _CSI_FINAL.fullmatch(last) is not None:
                self._csi_read(_GRAMMAR.inert.sub("", seq[start + 1 : -1]), last)
        elif kind == "]":
            payload = seq[start + 1 :]
            if payload.endswith(("\x07", "\x18", "\x1a")):
                payload = payload[:-1]
            if len(payload) < grammar.MAX_HELD:  # tmux drops a payload its buffer cannot hold
                self._osc(_C0.sub("", payload))
        elif kind and "\x20" <= kind <= "\x2f":
            if "\x30" <= last <= "\x7e" and len(seq) > start + 1:
                inter = _GRAMMAR.inert.sub("", seq[start:-1])
                if len(inter) <= grammar.INTERMEDIATES_MAX:
                    self._esc(inter, last)
        elif kind and "\x30" <= kind <= "\x7e" and kind not in "P[]X^_k":
            self._esc("", kind)
        return end  # strings (DCS, SOS, PM, APC, tmux's title) carry nothing we draw; CAN/SUB abort

    def _csi_read(self, body: str, final: str) -> None:
        """A CSI read the long way (controls or ignored bytes inside, odd forms): dispatched as tmux would."""
        form = _GRAMMAR.csi_form.fullmatch(body)
        if form is None:
            return  # a parameter after an intermediate, or a second lead: tmux ignores the sequence
        lead, params, inter = form.groups()
        if len(lead) + len(inter) > grammar.INTERMEDIATES_MAX or grammar.discarded_params(params):
            return
        if final == "m" and not lead and not inter:
            self._sgr(params)
        else:
            self._csi(lead, params, inter, final)
