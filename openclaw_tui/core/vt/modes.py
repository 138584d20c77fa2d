"""Terminal modes a child program switches on and off, read cheaply from its raw output.

Key encoding needs to know whether the program asked for application cursor keys (``ESC[?1h``) and the
dashboard's paste needs to know whether it enabled bracketed paste (``ESC[?2004h``). A full emulator is too
slow to sit on the ingest path, so this scanner only looks for private-mode set/reset sequences
(``ESC[?<n>;<m>h`` / ``l``) and full resets, read by the core's one grammar (:mod:`.grammar`), so a mode
the screen sets is the mode seen here (none inside a DCS string, a control inside the sequence acting as it
does there); an unfinished sequence at the end of a read is carried to the next one. The terminal engine
uses the same scanner to carry modes over bytes it skips when catching up.
"""

from __future__ import annotations

from .grammar import BYTES, DCS_OPENER, csi, discarded_params, short_escape
from .sequences import ALT_SCREENS, APP_CURSOR_KEYS, BRACKETED_PASTE, RIS, RM, SM

_SET = SM.encode()
_PRIVATE_MODE = BYTES.compile(csi(SM + RM, "?", lead=True))
_RESET = BYTES.compile(short_escape(RIS))
_NOTABLE = BYTES.compile(csi(SM + RM, "?", lead=True), short_escape(RIS), DCS_OPENER)


class ModeTracker:
    """Tracks private terminal modes from a raw byte stream fed in arbitrary pieces.

    ``modes`` maps a mode number to True (set) or False (reset) for modes seen so far. ``seen_output``
    stays False until the first byte arrives: until then the cursor-key mode is unknown.
    """

    __slots__ = ("carry", "modes", "seen_output")

    def __init__(self) -> None:
        self.modes: dict[int, bool] = {}
        self.seen_output = False
        self.carry = b""  # an unfinished sequence at the end of the output so far (a re-exec keeps it)

    def feed(self, data: bytes) -> None:
        """Scan a piece of output; cheap when it holds no escape sequence."""
        if not data:
            return
        self.seen_output = True
        if b"\x1b" not in data and not self.carry:
            return
        buf = self.carry + data
        skip = BYTES.past_colours(buf)
        notable = skip < len(buf) and _NOTABLE.search(buf, skip) is not None  # commonly no mode, reset, DCS
        end = BYTES.unfinished_start(buf, strings=notable)
        self.carry = BYTES.hold(buf[end:])[1] if end < len(buf) else b""
        if not notable:
            return
        buf = buf[:end]
        scan_from = 0
        for reset in BYTES.find(_RESET, buf):
            scan_from = reset.end()
        if scan_from:
            self.modes.clear()
        for m in BYTES.find(_PRIVATE_MODE, buf, scan_from):
            params = BYTES.inert.sub(b"", m.group(1))
            if discarded_params(params):
                continue
            on = m.group(2) == _SET
            for part in params.split(b";"):
                if part.isdigit():
                    self.modes[int(part)] = on

    def to_json(self) -> dict[str, object]:
        return {"modes": {str(k): v for k, v in self.modes.items()}, "seenOutput": self.seen_output}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> ModeTracker:
        tracker = cls()
        modes = d.get("modes")
        tracker.modes = {int(k): bool(v) for k, v in modes.items()} if isinstance(modes, dict) else {}
        tracker.seen_output = bool(d.get("seenOutput"))
        return tracker

    def is_set(self, mode: int) -> bool:
        return self.modes.get(mode, False)

    @property
    def app_cursor(self) -> bool | None:
        """True/False once output was seen; None while the mode is still unknown."""
        if not self.seen_output:
            return None
        return self.is_set(APP_CURSOR_KEYS)

    @property
    def bracketed_paste(self) -> bool:
        return self.is_set(BRACKETED_PASTE)

    @property
    def alt_screen(self) -> bool:
        return any(self.is_set(m) for m in ALT_SCREENS)

