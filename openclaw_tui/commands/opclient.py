"""The operator's command line, shared: a connection to the running host that acts as the operator, and the
exit statuses every command keeps (0 done, 1 a failed result, 2 with one line when the call cannot be made,
130 on Ctrl-C).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from openclaw_tui.remote.wire import HostClient, NoHost, find_host, protocol as p, socket_path

CONFINED = -32001  # the host's error for a caller inside a session asking for what only the operator may do


class CannotCall(Exception):
    """The call cannot be made (no host, it went away, a bad argument); the message says why in one line."""


class OperatorRefused(Exception):
    """The host refused what only the operator may do (the caller runs inside a session): a failed result."""


async def connect(command: str) -> HostClient:
    """A connection to the host serving this user's socket, for ``openclaw-tui COMMAND``."""
    path = find_host() or socket_path()
    try:
        return await HostClient.connect(path, client=f"openclaw-tui {command}")
    except NoHost as exc:
        raise CannotCall(str(exc)) from None
    except OSError as exc:
        raise CannotCall(f"cannot reach the host on {path}: {exc.strerror or exc}") from None


async def operator_call(client: HostClient, call: dict[str, Any]) -> dict[str, Any]:
    """A tool call acting as the operator (all agents); a caller inside a session gets ``caller-confined``."""
    return await request(client, "call", {"call": call, "agent": None, "operator": True})


async def request(client: HostClient, method: str, params: dict[str, Any]) -> Any:
    """A request whose refusal or lost connection becomes :class:`OperatorRefused` or :class:`CannotCall`."""
    try:
        return await client.request(method, params)
    except p.RemoteError as exc:
        if exc.code == CONFINED:
            raise OperatorRefused(str(exc)) from None
        if exc.code == p.METHOD_NOT_FOUND:
            raise CannotCall(f"the running host is older than this command ({exc}); restart it with "
                             "`openclaw-tui serve --reexec`") from None
        raise CannotCall(f"the host refused the request: {exc}") from None
    except ConnectionError as exc:
        raise CannotCall(f"the host closed the connection ({exc})") from None


def finish(res: dict[str, Any]) -> int:
    """Print a result's text (a failed one on stderr) and return its exit status."""
    failed = res.get("details", {}).get("status") == "failed"
    text = str(res.get("text", "")).rstrip("\n")
    if text:
        print(text, file=sys.stderr if failed else sys.stdout, flush=True)
    return 1 if failed else 0


def run(main: Callable[[], Awaitable[int]]) -> int:
    """Run a command's coroutine: its status, 2 with one line for a call that cannot be made, 1 for a
    refusal, 130 on Ctrl-C."""
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    except CannotCall as exc:
        print(f"openclaw-tui: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OperatorRefused as exc:
        print(f"openclaw-tui: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader (``| head``) stopped early: not our failure
        sys.stdout = None  # type: ignore[assignment]  (nothing left to flush at exit)
        return 0
