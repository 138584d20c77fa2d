"""``openclaw-tui call``: one tool call against the running host, the result as JSON on stdout.

The call is the argument, ``-`` (stdin) or ``@FILE``; a read is sent again when the host re-executes mid-call.
``--operator`` acts as the operator (every agent's sessions), which a caller inside a session may not.
It loads only a blocking socket and ``json``, since scripts call it in loops.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

from openclaw_tui.core.calls import calltext, failure, toolcall
from openclaw_tui.remote.wire import (
    SocketPathError,
    check_length,
    find_host,
    oneshot,
    protocol as p,
    socket_path,
)

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from typing import Any, BinaryIO

HELLO_ID, CALL_ID = 1, 2
CLIENT = "openclaw-tui call"
DEFAULT_AGENT = "cli"  # the scope a call runs in unless --agent or --operator says otherwise
RETRIES = 3  # re-execs in a row a read rides through


class BadInput(Exception):
    """The call cannot be read; the message says why in one line."""


class NoAnswer(Exception):
    """No result came back; the message says why in one line."""


class Dropped(Exception):
    """The host closed the connection before answering; ``hello`` is what it said first, if it did."""

    def __init__(self, hello: dict[str, Any] | None) -> None:
        super().__init__("dropped")
        self.hello = hello


def run_call(source: str, agent: str | None, operator: bool = False) -> int:
    try:
        call = _in_this_directory(read_call(source))
        path = find_host() or socket_path()  # a host on any of this user's candidate paths
        res = _request(path, call, None if operator else agent, operator)
        if agent == DEFAULT_AGENT and not operator and _empty_list(call, res):
            _say_other_scopes(path)
    except KeyboardInterrupt:
        return 130
    except (BadInput, NoAnswer) as exc:
        sys.stderr.write(f"openclaw-tui: {' '.join(str(exc).split())}\n")  # one line, whatever it quotes
        return 2
    _print(res)
    return 1 if res.get("details", {}).get("status") == "failed" else 0


def _empty_list(call: dict[str, Any], res: dict[str, Any]) -> bool:
    return (call.get("tool") == "process" and call.get("action") == "list"
            and res.get("details", {}).get("sessions") == [])


def _say_other_scopes(path: Path) -> None:
    """An empty list in ``call``'s own scope while agents' sessions run: say where they are (on stderr, so
    the JSON on stdout stays the result). Nothing is said when the host will not list them for us."""
    try:
        res = _request(path, {"tool": "process", "action": "list"}, None, True)
    except NoAnswer:
        return
    others = res.get("details", {}).get("sessions") or []
    if others:
        agents = sorted({str(d.get("agent") or "operator") for d in others})
        sys.stderr.write(f"openclaw-tui: no sessions in scope {DEFAULT_AGENT!r}, but the host has {len(others)} in "
                         f"other scopes ({', '.join(agents)}): pass --agent NAME to act as that agent, or "
                         "--operator to see them all\n")


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


def _request(path: Path, call: dict[str, Any], agent: str | None, operator: bool = False) -> dict[str, Any]:
    params = {"call": call, "agent": agent, **({"operator": True} if operator else {})}
    line = p.request(CALL_ID, "call", params)
    if len(line) >= p.MAX_LINE:
        return failure(
            f"the call is too large: {len(line)} bytes once encoded; the host reads at most "
            f"{p.MAX_LINE} per message; send large input in several calls",
            "call-too-large",
        )
    try:
        check_length(path)
    except SocketPathError as exc:
        raise NoAnswer(str(exc)) from None
    before: dict[str, Any] | None = None
    for _ in range(RETRIES + 1):
        try:
            return _once(path, line)
        except Dropped as lost:
            before = before or lost.hello
        back = oneshot.same_host(path, before, CLIENT) if before else _answering(path)
        if back is None:
            raise NoAnswer(_closed(path))
        if not p.retry_safe(call):  # the same host answers again: it re-executed itself (or tried to)
            raise NoAnswer(f"{p.RESTARTED} (host on {path})")
    raise NoAnswer(f"the host on {path} restarted {RETRIES + 1} times while this call ran; it was not answered")


def _answering(path: Path) -> dict[str, Any] | None:
    """The ``hello`` of whatever host answers on ``path`` now (the connection was lost before its own)."""
    try:
        return oneshot.hello(path, CLIENT, oneshot.BACK_S)
    except (oneshot.HostUnreachable, p.RemoteError):
        return None


def _once(path: Path, line: bytes) -> dict[str, Any]:
    """One connection: hello and the call; raises Dropped when the host closes it before answering."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise NoAnswer(
                f"no openclaw-tui host is running on {path} (start one with `openclaw-tui serve`)"
            ) from None
        except OSError as exc:
            raise NoAnswer(f"cannot reach the host on {path}: {exc}") from None
        try:
            sock.sendall(p.request(HELLO_ID, "hello", {"client": CLIENT}) + line)
            return _answer(sock.makefile("rb"), path)
        except KeyboardInterrupt:
            # Tell the host, so a cancelled foreground exec ends its run there as it would in-process.
            try:
                sock.sendall(p.notification("cancel", {"id": CALL_ID}))
            except OSError:
                pass
            raise
        except ConnectionError:
            raise Dropped(None) from None
        except OSError as exc:
            raise NoAnswer(f"cannot reach the host on {path}: {exc}") from None


def _answer(lines: BinaryIO, path: Path) -> dict[str, Any]:
    """Read until the call's answer arrives (the hello's answer is kept, notifications are skipped)."""
    hello = None
    try:
        while line := lines.readline(p.MAX_LINE):
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict) and msg.get("id") == HELLO_ID:
                hello = msg.get("result") if isinstance(msg.get("result"), dict) else None
            if not isinstance(msg, dict) or msg.get("id") != CALL_ID:
                continue
            if "error" in msg:
                raise NoAnswer(
                    f"the host on {path} refused the request: {msg['error'].get('message', 'error')}"
                )
            result: dict[str, Any] = msg.get("result") or {}
            return result
    except ConnectionError:
        pass
    raise Dropped(hello)


def _closed(path: Path) -> str:
    return f"the host on {path} closed the connection before answering; the call's outcome is unknown"


def _print(res: dict[str, Any]) -> None:
    data = json.dumps(res, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n"
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (``| head``) stopped early: not our failure
        sys.stdout = None  # nothing left to flush at exit
