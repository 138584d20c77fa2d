"""The escape-sequence grammar: where each kind of sequence starts, what its body may hold, what ends it.

Every reader of a child's raw output asks this module where a sequence ends (the agent's text, the
emulator's parser, the mode and query scanners, a view's catch-up), so they all end it at the same byte:
the one tmux ends it at, since the screen must equal tmux's. :data:`TEXT` reads decoded text, :data:`BYTES`
raw bytes; both are built from the same pattern source. The rules, as tmux 3.3a parses them (``input.c``,
checked by ``tests/terminal/test_grammar_golden.py``) are in the package's docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import AnyStr, Generic

MAX_HELD = 1 << 20
"""Most of an unfinished sequence any reader holds back between reads (characters or bytes).

tmux's own bound (``INPUT_BUF_LIMIT``): a longer one is still read to its end, wherever that is, but not
acted on. A reader that needs no body (the agent's text) carries only the sequence's state."""

PARAMS_MAX = 63  # tmux keeps 63 parameter characters of a CSI, 3 intermediates, 23 parameters, int values
INTERMEDIATES_MAX = 3
PARAM_COUNT_MAX = 23
PARAM_VALUE_MAX = 2**31 - 1

# Pattern source shared by str and bytes patterns: ASCII escapes only, and every ``[^...]`` class takes in
# DEL and everything past ASCII, which a sequence ignores.
_INERT = r"[^\x18\x1a\x1b -~]"  # inside ESC and CSI: a C0 control that acts at once, or an ignored byte
_QUIET = r"[^\x00-\x7e]"  # the inert ones that do nothing (DEL, and bytes or characters past ASCII)
_ACTING = r"[\x00-\x17\x19\x1c-\x1f]"  # C0 controls other than CAN, SUB and ESC: they act inside ESC/CSI
_CSI_BODY = r"[^\x18\x1a\x1b@-~]"  # parameters, intermediates and inert bytes, up to a final @ .. ~
_CSI_QUIET_BODY = r"[^\x00-\x1f@-~]"
_INTER_BODY = r"[^\x18\x1a\x1b0-~]"  # after ESC and an intermediate: more of them, up to a final 0 .. ~
_INTER_QUIET_BODY = r"[^\x00-\x1f0-~]"
_OSC_BODY = r"[^\x07\x18\x1a\x1b]"  # ended by BEL, CAN or SUB (taken) or ESC (left to start what follows)
_STRING_BODY = r"[^\x18\x1a\x1b]"  # SOS, PM, APC and tmux's title (ESC k): BEL is part of the body
_ABORT = r"[\x18\x1a]|(?=\x1b)"
# DCS: parameters and intermediates (C0 and DEL ignored), a final, then a body of anything, where ESC and
# the byte after it are a pair: only ESC \ ends it (so ESC ESC \ does not: tmux passthrough doubles ESC).
_DCS_PREFIX = rf"(?>{_INERT}*(?:[0-9;<=>?](?:[0-9;]|{_INERT})*)?(?:[ -/](?:[ -/]|{_INERT})*)?)"
_DCS_BODY = r"[^\x1b]*+(?:\x1b[^\\][^\x1b]*+)*+"
_SHORT_FINAL = r"[0-OQ-WYZ\\`-jl-~]"  # 0x30-0x7e but the openers P X [ ] ^ _ k


def _after_esc(inert: str, csi_body: str, inter_body: str) -> str:
    """A finished sequence after its ESC; an unfinished one does not match."""
    return (
        rf"{inert}*+(?:"
        rf"\[{csi_body}*+(?:[@-~]|{_ABORT})"
        rf"|\]{_OSC_BODY}*+(?:\x07|{_ABORT})"
        rf"|[X^_k]{_STRING_BODY}*+(?:{_ABORT})"
        rf"|P{_DCS_PREFIX}(?:[@-~]{_DCS_BODY}\x1b\\|[0-?]{_STRING_BODY}*+(?:{_ABORT})|{_ABORT})"
        rf"|[ -/]{inter_body}*+(?:[0-~]|{_ABORT})"
        rf"|{_SHORT_FINAL}|{_ABORT})"
    )


_SEQUENCE = r"\x1b" + _after_esc(_INERT, _CSI_BODY, _INTER_BODY)
# Text: a sequence with no control acting inside (nearly all) | one with (group 1) | an unfinished one,
# which runs to the end (group 2). Tried in that order at each sequence start.
_TEXT_TOKENS = (
    r"\x1b(?:" + _after_esc(_QUIET, _CSI_QUIET_BODY, _INTER_QUIET_BODY)
    + "|(" + _after_esc(_INERT, _CSI_BODY, _INTER_BODY) + r")|([\s\S]*+))"
)
_KIND = rf"\x1b{_INERT}*+(?P<kind>[\[\]X^_kP]|[ -/])?"
_DCS_STATE = (
    rf"(?>{_INERT}*(?P<param>[0-9;<=>?](?:[0-9;]|{_INERT})*)?(?P<inter>[ -/](?:[ -/]|{_INERT})*)?)"
    rf"(?:(?P<body>[@-~]{_DCS_BODY})(?P<pair>\x1b)?|(?P<ignore>[0-?]{_STRING_BODY}*+))?\Z"
)
_ACTS_IN = rf"\x1b({_INERT}*+)(?:\[({_CSI_BODY}*+)|([ -/]{_INTER_BODY}*+))?"
_CSI_FORM = r"([<=>?]?)([0-9:;]*)([ -/]*)"  # lead, parameters, intermediates: any other order is ignored

# The shortest text that reads on as an unfinished sequence would, and is never acted on when it ends.
_DISCARDED = {
    "": "\x1b",  # nothing collected yet
    "[": "\x1b[ 0",  # a parameter after an intermediate: tmux ignores the sequence
    "]": "\x1b]\x7f",  # no OSC command starts with DEL
    " ": "\x1b    ",  # more intermediates than tmux keeps
    "dcs": "\x1bP", "param": "\x1bP0", "inter": "\x1bP ", "ignore": "\x1bP:", "body": "\x1bPq",
}


class Grammar(Generic[AnyStr]):
    """The grammar over ``str`` (:data:`TEXT`) or ``bytes`` (:data:`BYTES`)."""

    def __init__(self, spell: Callable[[str], AnyStr]) -> None:
        self._spell: Callable[[str], AnyStr] = spell
        self.esc: AnyStr = spell("\x1b")
        self.sequence: re.Pattern[AnyStr] = re.compile(spell(_SEQUENCE))
        """A finished sequence, matched at its ESC."""
        self._tokens: re.Pattern[AnyStr] = re.compile(spell(_TEXT_TOKENS))
        self.dcs_opener: re.Pattern[AnyStr] = re.compile(spell(r"\x1b" + DCS_OPENER))
        self._not_colour: re.Pattern[AnyStr] = re.compile(spell(r"\x1b(?!\[[0-9;:]*m)"))
        self.csi_form: re.Pattern[AnyStr] = re.compile(spell(_CSI_FORM))
        self.inert: re.Pattern[AnyStr] = re.compile(spell(_INERT))
        self.inert_run: re.Pattern[AnyStr] = re.compile(spell(_INERT + "*+"))
        self._kind: re.Pattern[AnyStr] = re.compile(spell(_KIND))
        self._dcs_state: re.Pattern[AnyStr] = re.compile(spell(_DCS_STATE))
        self._acts_in: re.Pattern[AnyStr] = re.compile(spell(_ACTS_IN))
        self._not_acting: re.Pattern[AnyStr] = re.compile(spell("[^" + _ACTING[1:]))

    def compile(self, *kinds: str) -> re.Pattern[AnyStr]:
        """A pattern matching, at an ESC, a sequence of any of ``kinds`` (:func:`csi`, :func:`short_escape`,
        :data:`DCS_OPENER`); their groups keep their order. The leading ESC lets the search jump from ESC
        to ESC, at the speed of a byte search."""
        return re.compile(self._spell(r"\x1b(?:" + "|".join(kinds) + ")"))

    def past_colours(self, buf: AnyStr, start: int = 0) -> int:
        """Index of the first ESC at or after ``start`` that does not start a plain SGR (``len(buf)`` if
        none): colour changes, most of a flood's sequences, set no mode and ask nothing, so a scanner
        starts here (one quick search, where its own pattern would try at every ESC)."""
        found = self._not_colour.search(buf, start)
        return len(buf) if found is None else found.start()

    def unfinished_start(self, buf: AnyStr, start: int = 0, strings: bool = True) -> int:
        """Where the sequence still unfinished at the end of ``buf`` starts (``len(buf)`` if none).

        ``buf[start]`` must not be inside a sequence. Only a DCS body can hold an ESC, so past the last
        DCS the last ESC starts the last sequence; a DCS is followed to its end, one match each (a caller
        that knows ``buf`` holds no DCS opener says so with ``strings=False``, saving the search).
        """
        pos = start
        while strings and (opener := self.dcs_opener.search(buf, pos)) is not None:
            found = self.sequence.match(buf, opener.start())
            if found is None:
                return opener.start()
            pos = found.end()
        last = buf.rfind(self.esc, pos)
        if last < 0 or self.sequence.match(buf, last) is not None:
            return len(buf)
        return last

    def boundary(self, buf: AnyStr, start: int, lo: int = 0) -> int:
        """The first index at or after ``start`` where no sequence is open (``buf[lo]`` must be at one)."""
        open_at = self.unfinished_start(buf[lo:start])
        if open_at == start - lo:
            return start
        found = self.sequence.match(buf, lo + open_at)
        return len(buf) if found is None else found.end()

    def dcs_spans(self, buf: AnyStr, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
        """The DCS strings in ``buf[start:end]``, whose bodies may hold what looks like sequences."""
        stop = len(buf) if end is None else end
        if self.dcs_opener.search(buf, start, stop) is None:
            return []  # the common case, at the speed of one scan
        spans = []
        pos = start
        while (opener := self.dcs_opener.search(buf, pos, stop)) is not None:
            found = self.sequence.match(buf, opener.start(), stop)
            if found is None:
                spans.append((opener.start(), stop))  # unfinished: it runs to the end
                break
            spans.append(found.span())
            pos = found.end()
        return spans

    def find(self, pattern: re.Pattern[AnyStr], buf: AnyStr, start: int = 0) -> Iterator[re.Match[AnyStr]]:
        """Matches of ``pattern`` (which starts at an ESC) that are sequences, not part of a DCS body."""
        spans = self.dcs_spans(buf, start)
        for found in pattern.finditer(buf, start):
            if not spans or not any(lo < found.start() < hi for lo, hi in spans):
                yield found

    def acted(self, sequence: AnyStr) -> AnyStr:
        """The C0 controls that act inside ``sequence`` (between ESC and its kind, in a CSI or after an
        intermediate), in order; tmux runs them at once, as a VT does, and the sequence goes on."""
        found = self._acts_in.match(sequence)
        if found is None:
            return sequence[:0]
        inside = sequence[:0].join(part for part in found.groups() if part)
        return self._not_acting.sub(sequence[:0], inside)

    def hold(self, tail: AnyStr, body: bool = True, osc: bool = False) -> tuple[AnyStr, AnyStr]:
        """What to carry of an unfinished ``tail`` to the next read: ``(acted, carried)``.

        With ``body``, a CSI or an ``ESC`` with intermediates (and with ``osc`` an OSC, whose payload the
        screen reads) is carried whole while it is at most :data:`MAX_HELD` long. Anything else is cut
        down to the shortest text that reads on exactly as the tail would and is never acted on when it
        ends; the controls that acted inside the tail are then returned, for the caller to act on now.
        """
        found = self._kind.match(tail)
        kind = _as_str(found.group("kind") or "") if found is not None else ""
        read = kind == "[" or kind == "" or kind < "0" or (osc and kind == "]")
        if body and read and len(tail) <= MAX_HELD:
            return tail[:0], tail
        pair = False
        if kind == "P" and found is not None:
            state = self._dcs_state.match(tail, found.end())
            key = "dcs" if state is None or state.lastgroup is None else state.lastgroup
            pair = key == "pair"
            key = "body" if pair else key
        elif kind and kind in "X^_k":
            key = kind
        else:
            key = " " if kind and kind < "0" else kind
        held = self._spell(_DISCARDED.get(key, "\x1b" + key)) + (self.esc if pair else tail[:0])
        return self.acted(tail), held

    def strip(self, text: AnyStr) -> tuple[AnyStr, AnyStr]:
        """``text`` without its sequences (controls that acted inside them kept in place), and apart the
        unfinished sequence it ends with (empty if none)."""
        parts = self._tokens.split(text)
        if len(parts) == 1:
            return text, text[:0]
        rest = parts[-2]
        tail = self.esc + rest if rest is not None else text[:0]
        if not any(parts[1::3]):
            return text[:0].join(parts[::3]), tail
        pieces = []
        for i in range(0, len(parts) - 1, 3):
            pieces.append(parts[i])
            if parts[i + 1]:
                pieces.append(self.acted(self.esc + parts[i + 1]))
        pieces.append(parts[-1])
        return text[:0].join(pieces), tail


def csi(finals: str, leads: str = "", lead: bool = False) -> str:
    """Pattern source, after its ESC, of a CSI with no intermediates and a final in ``finals``, as tmux
    reads it (inert bytes anywhere), led by one of ``leads`` (``<=>?``; optional unless ``lead``): the
    first group holds the parameters, inert bytes still in (drop them with ``Grammar.inert``), the
    second the final."""
    before = rf"{_INERT}*+[{re.escape(leads)}]{'' if lead else '?'}" if leads else ""
    return rf"{_INERT}*+\[{before}((?:[0-9:;]|{_INERT})*+)([{finals}])"


def short_escape(final: str) -> str:
    """Pattern source, after its ESC, of ``ESC final`` (no intermediates), as tmux reads it."""
    return rf"{_INERT}*+{re.escape(final)}"


INERT = _INERT
"""Pattern source of one inert byte inside ESC or CSI (a C0 control that acts, DEL, or past ASCII)."""
DCS_OPENER = rf"{_INERT}*+P"
"""Pattern source, after its ESC, of the start of a DCS string, the one kind whose body may hold an ESC."""


def discarded_params(params: str | bytes) -> bool:
    """Whether tmux drops a CSI for its parameters: too many characters, too many of them, or a number
    that overflows (a parameter holding ``:`` is a string, not a number)."""
    text = _as_str(params)
    if len(text) > PARAMS_MAX or text.count(";") >= PARAM_COUNT_MAX:
        return True
    return len(text) > 9 and any(
        part.isdigit() and int(part) > PARAM_VALUE_MAX for part in text.split(";") if ":" not in part
    )


def _as_str(part: str | bytes) -> str:
    return part.decode("latin-1") if isinstance(part, bytes) else part


TEXT: Grammar[str] = Grammar(str)
BYTES: Grammar[bytes] = Grammar(lambda source: source.encode("ascii"))
