"""Input to a session, and the ``process`` actions that send it: ``write``, ``send-keys``, ``submit``,
``paste``.

All input, whoever sends it, goes through :func:`send_input`, so keys keep their order and the session records
who sent them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from ..calls import ToolResult, failure, result
from ..launch import known_started, until_program_started
from ..procs import reads_lines
from ..session import Session, Status
from .keys import KeyEncodingError, encode_keys, paste_bytes
from .models import ProcessParams
from .toolcore import ToolCore


class InputRefused(Exception):
    """Nothing of an input was taken; ``kind`` is the failure kind the ``process`` tool reports for it."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class InputSent:
    """Input taken whole: ``written`` bytes reached the program at once, ``queued`` go as it reads."""

    written: int
    queued: int


_turns: WeakKeyDictionary[Session, asyncio.Lock] = WeakKeyDictionary()


async def send_input(s: Session, data: bytes, source: str, action: str) -> InputSent:
    """Send ``data`` to ``s``, recorded as ``source``'s ``action``; raises :class:`InputRefused` when none
    of it can be taken (stdin closed, or the input queue full)."""
    sent = send_input_now(s, data, source, action)
    if sent is not None:
        return sent
    async with _turns.setdefault(s, asyncio.Lock()):  # in the order it came
        await until_program_started(s)  # a Ctrl-C must reach the program, not the sandbox launcher
        return _write(s, data, source, action)


def send_input_now(s: Session, data: bytes, source: str, action: str) -> InputSent | None:
    """:func:`send_input` at once when nothing has to wait (the program runs and no earlier input is on
    its way); None, with nothing sent, when the input must go by :func:`send_input`."""
    if not s.stdin_writable:
        raise InputRefused(_not_writable(s), "stdin-not-writable")
    turn = _turns.get(s)
    if (turn is not None and turn.locked()) or not known_started(s):
        return None
    return _write(s, data, source, action)


def _write(s: Session, data: bytes, source: str, action: str) -> InputSent:
    if not s.stdin_writable:  # it may have ended while the input waited
        raise InputRefused(_not_writable(s), "stdin-not-writable")
    try:
        written = s.send(data, source, action)
    except BufferError as exc:  # the program is not reading: nothing of this input was taken
        raise InputRefused(f"cannot send input to {s.id}: {exc}; nothing was sent, try again once it reads",
                           "input-queue-full") from None
    except BrokenPipeError as exc:
        raise InputRefused(f"cannot send input to {s.id}: {exc}", "stdin-not-writable") from None
    return InputSent(written, len(data) - written)


def _not_writable(s: Session) -> str:
    if not s.running:
        why = f"session {s.id} has ended ({s.exit.words()})"
    elif not s.pty:
        why = (
            f"session {s.id} runs on pipes with stdin closed; start interactive programs with pty: true "
            "(exec {\"pty\": true, ...}) to be able to send input"
        )
    else:
        why = f"session {s.id} has no writable stdin"
    return f"cannot send input: {why}"


async def _send(s: Session, data: bytes, agent: str | None, action: str, extra: str = "", **details: Any) -> ToolResult:
    try:
        sent = await send_input(s, data, agent or "operator", action)
    except InputRefused as exc:
        return failure(str(exc), exc.kind, sessionId=s.id)
    text = f"Sent {len(data)} bytes to {s.id}."
    if sent.queued:
        text = (
            f"Accepted {len(data)} bytes for {s.id}: {sent.written} written now, {sent.queued} queued and delivered "
            "as the program reads."
        )
    return result(text + extra, Status.RUNNING, sessionId=s.id, bytes=len(data), bytesWritten=sent.written,
                  bytesQueued=sent.queued, **details)


async def write(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    if not p.data and not p.eof:
        return failure("nothing to send: give data (text for stdin) and/or eof: true", "nothing-to-send", sessionId=s.id)
    data = (p.data or "").encode("utf-8")
    if p.eof:
        data += _end_of_input(s, data)
    return await _send(s, data, agent, "write", " (end of input sent)" if p.eof else "")


def _end_of_input(s: Session, data: bytes) -> bytes:
    """Ctrl-D, the terminal's end of file. In line mode a Ctrl-D after unfinished text only hands that
    text over, so a second one is needed for the program to read end of file."""
    fd = s.child.stdin_fd if s.child is not None else None
    if data and not data.endswith((b"\n", b"\r")) and fd is not None and reads_lines(fd):
        return b"\x04\x04"
    return b"\x04"


async def send_keys(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    if not s.stdin_writable:  # said before the keys are read: a bad key in input nobody can take is moot
        return failure(_not_writable(s), "stdin-not-writable", sessionId=s.id)
    try:
        encoded = encode_keys(p.keys, p.hex, p.literal, app_cursor=s.tracked_modes.app_cursor)
    except KeyEncodingError as exc:
        return failure(f"send-keys: {exc}", "bad-keys", sessionId=s.id)
    extra = "".join(f"\nwarning: {w}" for w in encoded.warnings)
    return await _send(s, encoded.data, agent, "send-keys", extra, warnings=encoded.warnings)


async def submit(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    return await _send(s, b"\r", agent, "submit")


async def paste(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    """Paste as a terminal does: bracketed only when the program turned bracketed paste on (mode 2004),
    unless ``bracketed`` forces it either way."""
    if not p.text:
        return failure("nothing to paste: give text", "nothing-to-send", sessionId=s.id)
    enabled = s.pty and s.tracked_modes.bracketed_paste
    bracketed = enabled if p.bracketed is None else p.bracketed
    extra = ""
    if bracketed and not enabled:
        extra = ("\nwarning: bracketed: true, but the program has not turned bracketed paste on (ESC[?2004h), so "
                 "it reads the markers around the text as typed characters; leave bracketed out to paste as a "
                 "terminal would")
    return await _send(s, paste_bytes(p.text, bracketed), agent, "paste", extra, bracketed=bracketed)
