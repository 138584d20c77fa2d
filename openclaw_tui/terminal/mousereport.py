"""Mouse reports a program asked for (``ESC[?1000h`` and friends): the bytes a terminal sends it for a click, a
drag or the wheel, so mc, htop and vim with ``mouse=a`` work through the dashboard as in a terminal.

Reports follow xterm: the tracking mode decides which events are reported (1000 presses and releases, 1002 also
motion with a button held, 1003 all motion), and mode 1006 writes them as ``ESC[<b;x;yM`` (``m`` for a
release); without it, the old ``ESC[M`` form with each number as one byte, which cannot reach past column 223.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from openclaw_tui.core.vt import sequences as vt

WHEEL_UP, WHEEL_DOWN = 64, 65  # the wheel's "buttons"
MOTION = 32  # added to the button of a report of motion
RELEASE = 3  # the old form's button for any release
_SHIFT, _META, _CTRL = 4, 8, 16
_LEGACY_MAX = 223  # the old form's largest coordinate: one byte, offset by 32


class Act(StrEnum):
    PRESS = "press"
    RELEASE = "release"
    MOTION = "motion"


def tracking(modes: Mapping[int, bool]) -> int | None:
    """Which mouse tracking the program switched on (the most reporting of those set), or None."""
    on = [m for m in (vt.MOUSE_CLICKS, vt.MOUSE_DRAG, vt.MOUSE_MOTION) if modes.get(m)]
    return on[-1] if on else None


def mouse_report(modes: Mapping[int, bool], act: Act, button: int, x: int, y: int, *, held: bool = False,
                 shift: bool = False, meta: bool = False, ctrl: bool = False) -> bytes | None:
    """The report of one mouse event at cell ``x``, ``y`` (from 0) for a program in ``modes``; None when the
    program did not ask for it. ``button``: 0 left, 1 middle, 2 right, or a wheel button; ``held``: for
    motion, whether a button is down."""
    mode = tracking(modes)
    if mode is None:
        return None
    if act is Act.MOTION and not (mode == vt.MOUSE_MOTION or (mode == vt.MOUSE_DRAG and held)):
        return None
    if act is Act.RELEASE and button in (WHEEL_UP, WHEEL_DOWN):
        return None  # the wheel has no release
    if act is Act.MOTION and not held:
        button = RELEASE  # xterm's "no button" in a report of motion
    code = button + (MOTION if act is Act.MOTION else 0)
    code += (_SHIFT if shift else 0) + (_META if meta else 0) + (_CTRL if ctrl else 0)
    if modes.get(vt.MOUSE_SGR):
        return f"\x1b[<{code};{x + 1};{y + 1}{'m' if act is Act.RELEASE else 'M'}".encode()
    if act is Act.RELEASE:
        code = RELEASE + (code & (_SHIFT | _META | _CTRL))
    if x + 1 > _LEGACY_MAX or y + 1 > _LEGACY_MAX:
        return None
    return bytes((0x1B, 0x5B, 0x4D, 32 + code, 32 + x + 1, 32 + y + 1))
