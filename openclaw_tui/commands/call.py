"""``openclaw-tui call``: one tool call against the running host, the result as JSON on stdout.

The call is the argument, ``-`` (stdin) or ``@FILE``; a read is sent again when the host re-executes mid-call.
It loads only a blocking socket and ``json``, since scripts call it in loops.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from openclaw_tui.core.calls import calltext, failure, toolcall
from openclaw_tui.core.session import Status
from openclaw_tui.remote.wire import find_host, oneshot, protocol as p, socket_path

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from typing import Any

CLIENT = "openclaw-tui call"


class BadInput(Exception):
    """The call cannot be read; the message says why in one line."""


class NoAnswer(Exception):
    """No result came back; the message says why in one line."""


def run_call(source: str, agent: str | None) -> int:
    try:
        call = _in_this_directory(read_call(source))
        res = _request(find_host() or socket_path(), call, agent)  # a host on any of this user's candidate paths
    except KeyboardInterrupt:
        return 130
    except (BadInput, NoAnswer) as exc:
        sys.stderr.write(f"openclaw-tui: {' '.join(str(exc).split())}\n")  # one line, whatever it quotes
        return 2
    _print(res)
    return 1 if res.get("details", {}).get("status") == Status.FAILED else 0


def read_call(source: str) -> dict[str, Any]:
    """The call from the argument, stdin (``-``) or a file (``@FILE``), decoded; raises ``BadInput``."""
    where = "stdin" if source == "-" else source[1:] if source.startswith("@") else "the call"
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        elif source.startswith("@"):
            text = Path(source[1:]).read_bytes().decode("utf-8")
        else:
            text = source
    except OSError as exc:
        raise BadInput(f"cannot read {where}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"{where} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        call = calltext.loads(text)
    except calltext.BadJSON as exc:
        raise BadInput(f"{where} is not valid JSON: {exc}") from None
    try:
        return toolcall.as_object(call)
    except toolcall.BadCall as exc:
        raise BadInput(str(exc)) from None


def _in_this_directory(call: dict[str, Any]) -> dict[str, Any]:
    """An exec call without workdir runs where ``call`` was run, as a command typed here would."""
    return p.in_callers_directory(call, os.getcwd())


def _request(path: Path, call: dict[str, Any], agent: str | None) -> dict[str, Any]:
    """The call's result from the host on ``path`` (riding through its re-execs); raises NoAnswer."""
    try:
        return oneshot.tool_call(path, call, agent, CLIENT)
    except p.MessageTooLarge as exc:
        return failure(f"the call is too large: {exc}; send large input in several calls", "call-too-large")
    except oneshot.NotRunning as exc:
        raise NoAnswer(f"{exc} (start one with `openclaw-tui serve`)") from None
    except oneshot.HostUnreachable as exc:
        raise NoAnswer(str(exc)) from None
    except p.RemoteError as exc:
        raise NoAnswer(f"the host on {path} refused the request: {exc}") from None


def _print(res: dict[str, Any]) -> None:
    data = json.dumps(res, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n"
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (``| head``) stopped early: not our failure
        sys.stdout = None  # nothing left to flush at exit
