"""The ``process`` actions that send input: ``write``, ``send-keys``, ``submit`` and ``paste``.

Every one goes through one path (``_send``): stdin must still be writable, a sandboxed program is given
the few milliseconds it needs to hear what is sent (a Ctrl-C must reach the program, not the sandbox
launcher), input a program is not reading is refused whole when the queue is full rather than cut, and
the session records who sent it. Keys are encoded for the cursor mode the program asked for, and a paste
is bracketed only when the program turned bracketed paste on, as a terminal does.
"""

from __future__ import annotations

from typing import Any

from .exitrecord import RUNNING
from .inputwait import reads_lines
from .keys import KeyEncodingError, encode_keys, paste_bytes
from .launch import until_program_started
from .models import ProcessParams
from .results import ToolResult, failure, result
from .session import Session
from .toolcore import ToolCore


def _not_writable(s: Session) -> ToolResult:
    if not s.running:
        why = f"session {s.id} has ended ({s.exit.words()})"
    elif not s.pty:
        why = (
            f"session {s.id} runs on pipes with stdin closed; start interactive programs with pty: true "
            "(exec {\"pty\": true, ...}) to be able to send input"
        )
    else:
        why = f"session {s.id} has no writable stdin"
    return failure(f"cannot send input: {why}", "stdin-not-writable", sessionId=s.id)


async def _send(s: Session, data: bytes, agent: str | None, action: str, extra: str = "", **details: Any) -> ToolResult:
    if not s.stdin_writable:
        return _not_writable(s)
    await until_program_started(s)  # a Ctrl-C must reach the program, not the sandbox launcher
    try:
        sent = s.send(data, agent or "operator", action)
    except BufferError as exc:  # the program is not reading: nothing of this input was taken
        return failure(f"cannot send input to {s.id}: {exc}; nothing was sent, try again once it reads",
                       "input-queue-full", sessionId=s.id)
    except BrokenPipeError as exc:
        return failure(f"cannot send input to {s.id}: {exc}", "stdin-not-writable", sessionId=s.id)
    queued = len(data) - sent
    text = f"Sent {len(data)} bytes to {s.id}."
    if queued:
        text = (
            f"Accepted {len(data)} bytes for {s.id}: {sent} written now, {queued} queued and delivered as the "
            "program reads."
        )
    return result(text + extra, RUNNING, sessionId=s.id, bytes=len(data), bytesWritten=sent, bytesQueued=queued, **details)


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
    if not s.stdin_writable:
        return _not_writable(s)
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
