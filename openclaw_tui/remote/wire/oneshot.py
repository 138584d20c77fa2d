"""A few requests to the running host over a blocking socket, for commands that must start fast or need no
event loop: ``openclaw-tui --version``, ``serve --reexec``, and ``call`` finding out whether the host it lost
mid-call is back.

Nothing heavy is imported (``call`` runs in scripts' loops; ``tests/remote/test_call_startup.py`` guards it).
"""

from __future__ import annotations

import json
import socket

from . import protocol as p
from .retry import BACK_S
from .socketpaths import SocketPathError, check_length

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


class HostUnreachable(Exception):
    """No host answered; the message says why in one line."""


def exchange(path: Path, requests: list[tuple[str, dict[str, Any]]], timeout: float | None = None,
             until_closed: bool = False) -> list[Any]:
    """Send ``requests`` (method, params) on one connection and return their results in order; raises
    HostUnreachable (no host, or it closed the connection first) or ``protocol.RemoteError``. With
    ``until_closed``, return only once the host closed the connection (``host.reexec``: the handover began)."""
    try:
        check_length(path)
    except SocketPathError as exc:
        raise HostUnreachable(str(exc)) from None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
            sock.sendall(b"".join(p.request(i, method, params) for i, (method, params) in enumerate(requests, 1)))
            lines = sock.makefile("rb")
            answers = _answers(lines, len(requests))
            while until_closed and lines.readline(p.MAX_LINE):
                continue
            return answers
        except (FileNotFoundError, ConnectionRefusedError):
            raise HostUnreachable(f"no openclaw-tui host is running on {path}") from None
        except OSError as exc:
            raise HostUnreachable(f"cannot reach the host on {path}: {exc}") from None


def _answers(lines: Any, count: int) -> list[Any]:
    found: dict[int, Any] = {}
    while len(found) < count:
        line = lines.readline(p.MAX_LINE)
        if not line:
            raise HostUnreachable("the host closed the connection before answering")
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("id"), int):
            continue
        if "error" in msg:
            err = msg["error"] if isinstance(msg["error"], dict) else {}
            raise p.RemoteError(err.get("code", p.INTERNAL_ERROR), err.get("message", "error"))
        found[msg["id"]] = msg.get("result")
    return [found[i] for i in range(1, count + 1)]


def hello(path: Path, client: str, timeout: float | None = 10.0) -> dict[str, Any]:
    """The host's ``hello``: its version, pid, ``hostId`` and ``generation``; raises HostUnreachable."""
    (answer,) = exchange(path, [("hello", {"client": client})], timeout)
    return answer if isinstance(answer, dict) else {}


def same_host(path: Path, before: dict[str, Any], client: str, within: float = BACK_S) -> dict[str, Any] | None:
    """The ``hello`` of the host ``before`` describes (same ``hostId``), once it answers again after dropping
    a connection; None when no host answers on ``path``, or another one does. A host re-executing itself
    stops accepting before it drops its connections and its socket stays bound, so a connection made now
    waits in the backlog for the next image (``generation`` one higher), or for the same one if the exec
    failed; a refused connection means the host is gone."""
    try:
        now = hello(path, client, within)
    except (HostUnreachable, p.RemoteError):
        return None
    return now if now.get("hostId") == before.get("hostId") else None
