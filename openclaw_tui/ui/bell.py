"""The terminal's share of the host's notifications: a bell, and a desktop notice (OSC 9, and OSC 777 where
the terminal is known to take it), for each notification the host sends.

Inside tmux the bell is written as it is, so tmux marks the window (its bell flag) and rings the client's
terminal as its ``bell-action`` says; the notices go through tmux's passthrough (``allow-passthrough on``)
to the terminal tmux runs in, since tmux would keep them for itself.
"""

from __future__ import annotations

from collections.abc import Mapping

BEL = "\a"
TITLE = "openclaw-tui"
NOTICE_CHARS = 200


def takes_777(env: Mapping[str, str]) -> bool:
    """Terminals known to show OSC 777 notifications: VTE's (GNOME Terminal…), urxvt, foot, WezTerm."""
    term = env.get("TERM", "")
    return bool(env.get("VTE_VERSION")) or term.startswith(("rxvt-unicode", "foot")) or \
        env.get("TERM_PROGRAM") == "WezTerm"


def passthrough(sequence: str) -> str:
    """``sequence`` wrapped for tmux to hand on to its own terminal."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def ring(text: str, env: Mapping[str, str]) -> str:
    """What to write to the terminal for a notification saying ``text``."""
    plain = "".join(c if c.isprintable() else " " for c in text)[:NOTICE_CHARS]
    notices = [f"\x1b]9;{plain}\a"]
    if takes_777(env):
        notices.append(f"\x1b]777;notify;{TITLE};{plain.replace(';', ',')}\a")
    if env.get("TMUX"):
        notices = [passthrough(n) for n in notices]
    return BEL + "".join(notices)
