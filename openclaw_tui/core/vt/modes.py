"""Terminal modes a child program switches on and off, read cheaply from its raw output.

Key encoding needs to know whether the program asked for application cursor keys (``ESC[?1h``) and the
dashboard's paste needs to know whether it enabled bracketed paste (``ESC[?2004h``). A full emulator is too
slow to sit on the ingest path, so this scanner only looks for private-mode set/reset sequences
(``ESC[?<n>;<m>h`` / ``l``) and keeps the last few bytes so a sequence split across reads is still seen.
The terminal engine uses the same scanner to carry modes over bytes it skips when catching up.
"""

from __future__ import annotations

import re

from .sequences import ALT_SCREENS, APP_CURSOR_KEYS, BRACKETED_PASTE, RIS, RM, SM

_SET = SM.encode()
_PRIVATE_MODE = re.compile(rb"\x1b\[\?([0-9;]*)([" + _SET + RM.encode() + rb"])")
_FULL_RESET = b"\x1b" + RIS.encode()
_RESET = re.compile(re.escape(_FULL_RESET))
_CARRY = 24  # longest private-mode sequence we care about, with room for several params


class ModeTracker:
    """Tracks private terminal modes from a raw byte stream fed in arbitrary pieces.

    ``modes`` maps a mode number to True (set) or False (reset) for modes seen so far. ``seen_output``
    stays False until the first byte arrives: until then the cursor-key mode is unknown.
    """

    __slots__ = ("carry", "modes", "seen_output")

    def __init__(self) -> None:
        self.modes: dict[int, bool] = {}
        self.seen_output = False
        self.carry = b""  # the end of the output so far that may start a mode sequence (a re-exec keeps it)

    def feed(self, data: bytes) -> None:
        """Scan a piece of output; cheap when it holds no escape sequence."""
        if not data:
            return
        self.seen_output = True
        if b"\x1b" not in data and not self.carry:
            return
        buf = self.carry + data
        if b"\x1b[?" in buf or _FULL_RESET in buf:
            last_reset = None
            for m in _RESET.finditer(buf):
                last_reset = m.end()
            if last_reset is not None:
                self.modes.clear()
                scan = buf[last_reset:]
            else:
                scan = buf
            for m in _PRIVATE_MODE.finditer(scan):
                on = m.group(2) == _SET
                for part in m.group(1).split(b";"):
                    if part.isdigit():
                        self.modes[int(part)] = on
        # Keep a tail that may hold the start of a sequence split across reads.
        esc = buf.rfind(b"\x1b", max(0, len(buf) - _CARRY))
        self.carry = buf[esc:] if esc >= 0 and not _complete(buf[esc:]) else b""

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


def _complete(seq: bytes) -> bool:
    """Whether an escape sequence starting at ``seq[0]`` is already terminated within ``seq``."""
    if len(seq) < 2:
        return False
    if seq[1:2] != b"[":
        return True  # not a CSI: nothing we track can continue past here
    for b in seq[2:]:
        if 0x40 <= b <= 0x7E:
            return True
    return False
