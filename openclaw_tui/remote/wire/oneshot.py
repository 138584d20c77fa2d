"""Requests to the running host over a blocking socket, for commands that must start fast or need no event
loop: ``openclaw-tui call`` (a tool call, riding through the host's re-execs), ``--version`` and
``serve --reexec``.

Nothing heavy is imported (``call`` runs in scripts' loops; ``tests/remote/test_call_startup.py`` guards it).
"""

from __future__ import annotations

import json
import socket

from . import protocol as p
from .retry import BACK_S, RideThrough
from .socketpaths import SocketPathError, check_length

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, BinaryIO


class HostUnreachable(Exception):
    """No host answered; the message says why in one line."""


class NotRunning(HostUnreachable):
    """Nothing serves on the socket: no socket file, or nobody listening on it."""


class Dropped(HostUnreachable):
    """The host closed the connection before answering every request; ``answered`` holds the results it
    gave first, by the request's place (from 1)."""

    def __init__(self, why: str, answered: dict[int, Any]) -> None:
        super().__init__(why)
        self.answered = answered


def exchange(path: Path, requests: list[tuple[str, dict[str, Any]]], timeout: float | None = None,
             until_closed: bool = False) -> list[Any]:
    """Send ``requests`` (method, params) on one connection and return their results in order, passing over
    notifications; raises HostUnreachable (NotRunning, or Dropped when the host closed the connection first),
    ``protocol.RemoteError``, or ``protocol.MessageTooLarge`` before connecting. With ``until_closed``, return
    only once the host closed the connection (``host.reexec``: the handover began). Interrupted (Ctrl-C), it
    cancels what is not answered yet, so a foreground exec ends its run on the host as it would in-process."""
    lines = [p.within_limit(p.request(i, method, params)) for i, (method, params) in enumerate(requests, 1)]
    try:
        check_length(path)
    except SocketPathError as exc:
        raise HostUnreachable(str(exc)) from None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise NotRunning(f"no openclaw-tui host is running on {path}") from None
        except OSError as exc:
            raise HostUnreachable(f"cannot reach the host on {path}: {exc}") from None
        found: dict[int, Any] = {}
        try:
            sock.sendall(b"".join(lines))
            replies = sock.makefile("rb")
            _answers(replies, found, len(requests))
            while until_closed and replies.readline(p.MAX_LINE):
                continue
        except KeyboardInterrupt:
            _cancel(sock, [i for i in range(1, len(requests) + 1) if i not in found])
            raise
        except ConnectionError as exc:
            raise Dropped(f"cannot reach the host on {path}: {exc}", found) from None
        except OSError as exc:
            raise HostUnreachable(f"cannot reach the host on {path}: {exc}") from None
    return [found[i] for i in range(1, len(requests) + 1)]


def _answers(replies: BinaryIO, found: dict[int, Any], count: int) -> None:
    """Read into ``found`` until ``count`` requests are answered; an error answer raises at once."""
    while len(found) < count:
        line = replies.readline(p.MAX_LINE)
        if not line:
            raise Dropped("the host closed the connection before answering", found)
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("id"), int):
            continue  # a notification (``event``, ``raw``), or an answer to nothing we asked
        if "error" in msg:
            err = msg["error"] if isinstance(msg["error"], dict) else {}
            raise p.RemoteError(err.get("code", p.INTERNAL_ERROR), err.get("message", "error"))
        found[msg["id"]] = msg.get("result")


def _cancel(sock: socket.socket, ids: list[int]) -> None:
    try:
        sock.sendall(b"".join(p.notification("cancel", {"id": i}) for i in ids))
    except OSError:
        pass


def hello(path: Path, client: str, timeout: float | None = 10.0) -> dict[str, Any]:
    """The host's ``hello``: its version, pid, ``hostId`` and ``generation``; raises HostUnreachable."""
    (answer,) = exchange(path, [("hello", {"client": client})], timeout)
    return answer if isinstance(answer, dict) else {}


def answering(path: Path, client: str, within: float = BACK_S) -> dict[str, Any] | None:
    """The ``hello`` of whatever host answers on ``path`` within ``within`` seconds; None when none does."""
    try:
        return hello(path, client, within)
    except (HostUnreachable, p.RemoteError):
        return None


def same_host(path: Path, before: dict[str, Any], client: str, within: float = BACK_S) -> dict[str, Any] | None:
    """The ``hello`` of the host ``before`` describes (same ``hostId``), once it answers again after dropping
    a connection; None when no host answers on ``path``, or another one does. A host re-executing itself
    stops accepting before it drops its connections and its socket stays bound, so a connection made now
    waits in the backlog for the next image (``generation`` one higher), or for the same one if the exec
    failed; a refused connection means the host is gone."""
    now = answering(path, client, within)
    return now if now is not None and now.get("hostId") == before.get("hostId") else None


def tool_call(path: Path, call: dict[str, Any], agent: str | None, client: str) -> dict[str, Any]:
    """``call`` run by the host on ``path`` in ``agent``'s scope, and its result; when the host re-executes
    itself meanwhile, sent again or failed as ``retry.RideThrough`` says. Raises as :func:`exchange` does,
    HostUnreachable saying why in one line when no result came back."""
    ride = RideThrough(call, path)
    requests: list[tuple[str, dict[str, Any]]] = [("hello", {"client": client}),
                                                  ("call", {"call": call, "agent": agent})]
    before: dict[str, Any] | None = None
    while True:
        try:
            result: dict[str, Any] = exchange(path, requests)[1] or {}
            return result
        except Dropped as lost:
            said = lost.answered.get(1)  # the hello, if it came before the drop
            before = before or (said if isinstance(said, dict) else None)
        # without a hello from the lost connection, whichever host answers now is taken for the same
        back = same_host(path, before, client) if before else answering(path, client)
        if back is None:
            raise HostUnreachable(f"the host on {path} closed the connection before answering; the call's "
                                  "outcome is unknown")
        why = ride.restarted()  # the same host answers again: it re-executed itself (or tried to)
        if why is not None:
            raise HostUnreachable(why)
