"""A request's params, checked before anything runs: the names its method takes
(:data:`~openclaw_tui.remote.wire.protocol.METHODS`), then each value.

Every problem is an invalid-params error (-32602) that names the parameter and shows a bad value only cut
short.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from openclaw_tui.core.calls import calltext

from ..wire import protocol as p

MAX_TERMINAL_SIDE = 1000  # columns or rows a client may resize a session's terminal to
MAX_OFFSET = (1 << 63) - 1

_shown = calltext.shown


def invalid(message: str) -> p.RemoteError:
    return p.RemoteError(p.INVALID_PARAMS, message)


def valid_id(id_: Any) -> bool:
    """JSON-RPC 2.0: a request id is a string, a number or null (anything else cannot be answered by id)."""
    return id_ is None or isinstance(id_, str) or (isinstance(id_, int | float) and not isinstance(id_, bool))


def names(method: str, params: Any) -> dict[str, Any]:
    """``params`` if it is an object holding every parameter ``method`` requires and no other."""
    if not isinstance(params, dict):
        raise invalid("params must be an object")
    required, optional = p.METHODS[method]
    unknown = [name for name in params if name not in required + optional]
    missing = [name for name in required if name not in params]
    if unknown or missing:
        takes = ", ".join(required + tuple(f"{name}?" for name in optional)) or "no params"
        problem = f"unknown param {unknown[0]!r}" if unknown else f"missing param {missing[0]!r}"
        raise invalid(f"bad params for {method}: {problem} (it takes {takes})")
    return params


def text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise invalid(f"{name} must be a string (got {_shown(value)})")
    if calltext.has_lone_surrogate(value):
        raise invalid(calltext.surrogate_problem(name))
    return value


def integer(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise invalid(f"{name} must be an integer from {low} to {high} (got {_shown(value)})")
    return value


def offset(name: str, value: Any) -> int:
    return integer(name, value, 0, MAX_OFFSET)


def side(name: str, value: Any) -> int:
    return integer(name, value, 1, MAX_TERMINAL_SIDE)


def base64_bytes(name: str, value: Any) -> bytes:
    try:
        return base64.b64decode(text(name, value), validate=True)
    except (binascii.Error, ValueError):
        raise invalid(f"{name} must be base64 (got {_shown(value)})") from None
