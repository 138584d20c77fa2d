"""The ``export`` action: a session's recording written to a file of the operator's state directory, as
asciicast v2 (a PTY session) or as text with a time on each line (any session).

The copy of the record is taken on the loop; drawing the cut, encoding and writing run in a thread.
"""

from __future__ import annotations

import asyncio
import os
import time

from ..calls import ToolResult, failure, result
from ..session import Recording, Session, Status, Window, timed_text, when_ms
from .models import ProcessParams
from .toolcore import ToolCore

EXPORTS_DIR = "exports"  # under the state directory: private, as the journal is


def export_path(state_dir: str, session: Session, suffix: str) -> str:
    """A new file for ``session``'s recording: named after the session and the time, readable by the user
    only (in a directory only the user may enter)."""
    folder = os.path.join(state_dir, EXPORTS_DIR)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    stem = f"{session.id.replace('/', '-')}-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1, 1000):
        path = os.path.join(folder, f"{stem}{'' if n == 1 else f'-{n}'}.{suffix}")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"too many exports of {session.id} this second in {folder}")


def _write(state_dir: str, session: Session, suffix: str, text: str) -> str:
    path = export_path(state_dir, session, suffix)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.write(text)
    return path


def window_of(p: ProcessParams) -> Window | str:
    """The part of the recording ``p`` asks for, or the problem with it."""
    cut: dict[str, int | None] = {}
    for name in ("since", "until"):
        value = getattr(p, name)
        try:
            cut[name] = None if value is None else when_ms(value)
        except ValueError as exc:
            return f"{name} {exc}"
    since, until = cut["since"], cut["until"]
    if since is not None and until is not None and until < since:
        return "until is before since: nothing would be exported"
    return Window(since, until, p.idleLimit, bool(p.inputs))


async def export(core: ToolCore, p: ProcessParams, s: Session, agent: str | None) -> ToolResult:
    fmt = p.format or ("cast" if s.pty else "text")
    if fmt == "cast" and not s.pty:
        return failure(f"session {s.id} runs on pipes: it has no terminal to record as a cast; export it with "
                       'format "text" (each line with its time)', "not-a-pty", sessionId=s.id, valid=["text"])
    engine = core.terminal
    if fmt == "cast" and engine is None:
        return failure('this host has no terminal engine to record casts; export with format "text"',
                       "no-screen", sessionId=s.id)
    window = window_of(p)
    if isinstance(window, str):
        return failure(f"invalid export: {window}", "invalid-params", sessionId=s.id)
    record = Recording.of(s)
    build = engine.cast if fmt == "cast" and engine is not None else timed_text
    try:
        text = await asyncio.to_thread(build, record, window)
        path = await asyncio.to_thread(_write, core.settings.state_dir, s, fmt if fmt == "cast" else "txt", text)
    except OSError as exc:
        return failure(f"could not write the recording of {s.id}: {exc.strerror or exc}", "export-failed",
                       sessionId=s.id)
    what = "an asciicast v2 recording" if fmt == "cast" else "the output with a time on each line"
    note = "" if record.raw.times_from(record.raw.start) or not len(record.raw) else (
        " Its record has no times (it was journaled before times were kept): every event is at the start.")
    return result(f"Wrote {what} of session {s.id} to {path} ({len(text.encode())} bytes).{note}",
                  Status.COMPLETED, sessionId=s.id, path=path, format=fmt, bytes=len(text.encode()))
