"""Turn a child's raw output stream into the plain text an agent reads.

Programs write bytes meant for a terminal: UTF-8 text interleaved with colour codes, cursor movement,
window titles and carriage-return progress bars. An agent needs the words, not the paint, so this module
decodes UTF-8 incrementally (invalid bytes become U+FFFD and never raise), removes every ANSI/VT escape
sequence (CSI, OSC, DCS/SOS/PM/APC strings and the short ``ESC x`` forms, in 7- and 8-bit spellings),
normalises line endings, and shows any remaining control character as a visible ``\\xNN`` escape so that
nothing invisible reaches the agent. Output arrives in arbitrary pieces, so a sequence, a UTF-8 character
or a ``\\r\\n`` cut in two by a read is held back and finished on the next feed; the result never depends
on where the reads split the stream. This sits on the ingest hot path, so the common case (a chunk with no
escape or control character) is one regex scan, and the rest is done with a few precompiled substitutions
rather than per-character Python loops. It is pure (no I/O).
"""

from __future__ import annotations

import base64
import codecs
import re
from typing import Any

__all__ = ["MAX_HELD", "StreamText"]

MAX_HELD = 4096
"""Longest incomplete escape sequence held back between feeds (in characters).

A sequence still open beyond this (typically an OSC/DCS string whose terminator never comes) is dropped
instead of buffered forever; only its two-character opener is kept, so the rest of it is still discarded
until its terminator arrives, as a terminal would, while memory stays bounded.
"""

# Anything that needs more than passing through: C0 controls except \t and \n, DEL, and C1 controls.
_SPECIAL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# Building blocks. CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, final byte 0x40-0x7E.
_CSI_PARAMS = r"[0-?]*[ -/]*"
# OSC and DCS/SOS/PM/APC bodies cannot hold ESC, a C1 control, CAN or SUB (nor BEL for OSC): those end or
# abort the string. ST (ESC \ or U+009C), CAN and SUB end it and are consumed with it; any other ESC or C1
# control aborts it and is then read as the start of what follows, as in the DEC/xterm parser.
_OSC_BODY = r"[^\x07\x18\x1a\x1b\x80-\x9f]*"
_STRING_BODY = r"[^\x18\x1a\x1b\x80-\x9f]*"
_STRING_END = r"(?:\x1b\\|[\x18\x1a\x9c]|(?=\x1b[^\\]|[\x80-\x9b\x9d-\x9f]))"
_OSC_END = rf"(?:\x07|{_STRING_END})"
# After a 7-bit ESC: CSI "[", OSC "]", DCS/SOS/PM/APC "P X ^ _", or a short escape: optional intermediates
# and a final (ESC ( B, ESC =, ESC 7, ESC c, ESC M, a bare ST ...). Without intermediates the openers of the
# longer kinds are excluded from the finals, so a cut-off CSI or OSC is never mistaken for a short escape.
_AFTER_ESC = (
    rf"(?:\[{_CSI_PARAMS}[@-~]|\]{_OSC_BODY}{_OSC_END}|[PX^_]{_STRING_BODY}{_STRING_END}"
    r"|[ -/]+[0-~]|[0-OQ-WYZ\\`a-~])"
)
# The same kinds spelled with 8-bit C1 introducers (U+009B CSI, U+009D OSC, U+0090/98/9E/9F strings).
_C1_SEQUENCE = (
    rf"\x9b{_CSI_PARAMS}[@-~]|\x9d{_OSC_BODY}{_OSC_END}|[\x90\x98\x9e\x9f]{_STRING_BODY}{_STRING_END}"
)

# Complete sequences, replaced by nothing. The ESC-only pattern starts with a literal, which lets the regex
# engine jump from ESC to ESC (several times faster); the full one is used only when a C1 introducer is
# present, in one pass so that mixed spellings (U+009D ... ESC \) pair up correctly.
_ESC_SEQUENCE = re.compile(rf"\x1b{_AFTER_ESC}")
_ANY_SEQUENCE = re.compile(rf"\x1b{_AFTER_ESC}|{_C1_SEQUENCE}")
_C1_INTRODUCER = re.compile(r"[\x90\x98\x9b\x9d-\x9f]")

# The start of a sequence cut off by the end of the text (matched from its introducer to the end).
_OPEN_STRING = re.compile(rf"(?:\x1b\]|\x9d){_OSC_BODY}|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f]){_STRING_BODY}")
_INCOMPLETE = re.compile(rf"\x1b[ -/]*|(?:\x1b\[|\x9b){_CSI_PARAMS}|{_OPEN_STRING.pattern}")
_INTRODUCERS = ("\x1b", "\x9b", "\x9d", "\x90", "\x98", "\x9e", "\x9f")

# Carriage returns: a CR (or a run of them) before LF is a line ending; a lone CR also ends the line.
_CARRIAGE_RETURNS = re.compile(r"\r+\n?")

# Controls left after sequences and line endings are handled: shown as visible \xNN escapes.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ESCAPES: dict[str, str] = {
    chr(code): f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))
}


class StreamText:
    """One per output stream (stdout, stderr or the merged PTY stream).

    Each ``feed`` returns the plain text that became final with that chunk; whatever might still change
    meaning with the next chunk (half a UTF-8 character, an unfinished escape sequence, a trailing ``\\r``
    that may be the first half of ``\\r\\n``) is held and returned by a later ``feed`` or by ``flush``.

    Line endings: ``\\r\\n`` becomes ``\\n``, and so does a lone ``\\r``. A terminal would return the cursor
    and overwrite the line, but an agent reads a log, not a screen: turning each carriage-return redraw
    into its own line keeps every progress update readable (and never silently loses text that a redraw
    would have hidden). A run of ``\\r`` counts as one line break, and one at the start of a line counts for
    nothing (the cursor is there already): shells and prompts send ``\\r`` after each newline.
    """

    __slots__ = ("_at_line_start", "_decoder", "_held")

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._held = ""
        self._at_line_start = True

    def feed(self, data: bytes) -> str:
        """Plain text made final by ``data`` (an incomplete tail is held back for the next call)."""
        return self._convert(self._decoder.decode(data), final=False)

    def flush(self) -> str:
        """At end of stream: whatever was held back.

        A half UTF-8 character becomes U+FFFD and a trailing ``\\r`` a line break; an escape sequence cut
        off by the end of the stream is dropped, since a terminal would not have displayed it either.
        """
        return self._convert(self._decoder.decode(b"", final=True), final=True)

    def to_json(self) -> dict[str, Any]:
        """What is held back between feeds (half a character, an unfinished sequence, a trailing CR), so a
        host re-executing in place carries it over and the text goes on as if the stream had never paused."""
        pending, flag = self._decoder.getstate()
        return {"bytes": base64.b64encode(pending).decode(), "flag": flag, "held": self._held,
                "lineStart": self._at_line_start}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> StreamText:
        text = cls()
        text._decoder.setstate((base64.b64decode(d["bytes"]), int(d["flag"])))
        text._held, text._at_line_start = str(d["held"]), bool(d["lineStart"])
        return text

    def _convert(self, text: str, final: bool) -> str:
        text = self._plain(text, final)
        if text:
            self._at_line_start = text.endswith("\n")
        return text

    def _plain(self, text: str, final: bool) -> str:
        if self._held:
            text = self._held + text
            self._held = ""
        if _SPECIAL.search(text) is None:
            return text
        # Strip the whole text, cut-off tail included, so a string aborted by the tail's introducer is
        # still seen as ended. No complete sequence can start inside or reach into the cut-off tail, so it
        # comes out unchanged at the end and is split off afterwards.
        start = _incomplete_start(text)
        tail = "" if start is None else text[start:]
        text = _strip_sequences(text)
        if tail:
            text = text[: len(text) - len(tail)]
            if not final:
                self._held = _bounded(tail)
        if not final:
            text = self._hold_trailing_carriage_returns(text)
        if "\r" in text:
            text = text.replace("\r\n", "\n")  # the common case, much faster than the regex
            if "\r" in text:
                text = _CARRIAGE_RETURNS.sub(self._line_break, text)
        if _CONTROL.search(text) is not None:
            text = _CONTROL.sub(_escape_control, text)
        return text

    def _line_break(self, match: re.Match[str]) -> str:
        """``\\n`` for a run of CRs, unless it starts a line, where a terminal's cursor would not move."""
        if match.group().endswith("\n"):
            return "\n"
        start = match.start()
        at_line_start = self._at_line_start if start == 0 else match.string[start - 1] == "\n"
        return "" if at_line_start else "\n"

    def _hold_trailing_carriage_returns(self, text: str) -> str:
        """Keep trailing CRs for the next feed: if it starts with LF, CR LF is one line ending, not two."""
        kept = text.rstrip("\r")
        if len(kept) != len(text):
            self._held = text[len(kept) :] + self._held
        return kept


def _incomplete_start(text: str) -> int | None:
    """Index where an escape sequence cut off by the end of ``text`` begins, or None if there is none.

    Only the last introducer can start it, because no sequence body may contain one. The exception is a
    lone ESC at the very end right after an open string (OSC, DCS ...): it may be the first half of that
    string's ``ESC \\`` terminator, so the whole string is what is still incomplete.
    """
    last = _last_introducer(text, len(text))
    if last < 0:
        return None
    if last == len(text) - 1 and text[last] == "\x1b":
        before = _last_introducer(text, last)
        if before >= 0 and _OPEN_STRING.fullmatch(text, before, last) is not None:
            return before
        return last
    return last if _INCOMPLETE.fullmatch(text, last) is not None else None


def _strip_sequences(text: str) -> str:
    """``text`` without its complete escape sequences; C1-spelled ones only cost extra when present."""
    if text.isascii() or _C1_INTRODUCER.search(text) is None:
        return _ESC_SEQUENCE.sub("", text)
    return _ANY_SEQUENCE.sub("", text)


def _last_introducer(text: str, end: int) -> int:
    """Position of the last ESC or 8-bit sequence introducer before ``end`` (-1 if none)."""
    return max(text.rfind(introducer, 0, end) for introducer in _INTRODUCERS)


def _bounded(pending: str) -> str:
    """An incomplete sequence to hold, cut down to its opener once it outgrows ``MAX_HELD``.

    Keeping the opener means the rest of an over-long string is still recognised (and discarded) as part
    of it when more arrives, while the body seen so far is dropped instead of held forever.
    """
    if len(pending) <= MAX_HELD:
        return pending
    opener = pending[:2] if pending[0] == "\x1b" else pending[:1]
    if len(pending) > len(opener) and pending[-1] == "\x1b":
        return opener + "\x1b"  # may be the first half of the string's ESC \ terminator: keep it too
    return opener


def _escape_control(match: re.Match[str]) -> str:
    return _CONTROL_ESCAPES[match.group()]
