"""Turn a child's raw output stream into the plain text an agent reads.

Programs write bytes meant for a terminal: UTF-8 text interleaved with colour codes, cursor movement,
window titles and carriage-return progress bars. An agent needs the words, not the paint, so this module
decodes UTF-8 incrementally (invalid bytes become U+FFFD and never raise), removes every escape sequence
where the shared grammar (:mod:`.grammar`, tmux's) says it ends, so the text and the dashboard's screen end
each one at the same byte, normalises line endings, and shows any remaining control character (8-bit C1
ones included: they introduce nothing) as a visible ``\\xNN`` escape so that nothing invisible reaches the
agent. Output arrives in arbitrary pieces, so a sequence, a UTF-8 character or a ``\\r\\n`` cut in two by
a read is held back (as its state, never its body) and finished on the next feed; the result never depends
on where the reads split the stream. This sits on the ingest hot path, so the common case (a chunk with no
escape or control character) is one regex scan, and the rest is done with a few precompiled regular
expressions rather than per-character Python loops. It is pure (no I/O).
"""

from __future__ import annotations

import base64
import codecs
import re
from typing import Any

from .grammar import MAX_HELD, TEXT

__all__ = ["MAX_HELD", "StreamText"]

# Anything that needs more than passing through: C0 controls except \t and \n, DEL, and C1 controls.
_SPECIAL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

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
        if "\x1b" in text:
            # Sequences end where the grammar says, the screen's parser reads them the same way; controls
            # that act inside one are kept, where the screen acts on them too.
            text, tail = TEXT.strip(text)
            if tail:
                acted, held = TEXT.hold(tail, body=False)  # the text needs no body: only where it ends
                text += acted
                if not final:
                    self._held = held
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


def _escape_control(match: re.Match[str]) -> str:
    return _CONTROL_ESCAPES[match.group()]
