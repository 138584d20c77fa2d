"""Reading a tool call's text without trusting it: JSON that decodes or a named reason, and text that is text.

A call arrives as JSON from agents, scripts and sockets, and some of it is hostile or simply broken:
nesting a hundred thousand levels deep, a number with ten thousand digits, ``NaN``, a lone UTF-16
surrogate (``"\\udc80"``) that no UTF-8 encoder accepts. Each of these used to escape as an exception
(``RecursionError``, ``ValueError``, ``UnicodeEncodeError``) deep inside the host, where it became an
``internal-error`` or no answer at all. Here each becomes one readable reason, found before anything runs.
Only the standard library is imported: the command line's call path uses this too, and must start fast.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64  # a tool call is two levels deep; nothing legitimate comes near this


class BadJSON(ValueError):
    """The text is not JSON a call can be read from; the message says why, in one line."""


def _no_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON value")


def loads(text: str | bytes) -> Any:
    """Decode JSON text, or raise ``BadJSON`` naming the problem (never another exception)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON("it is nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise BadJSON(f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, and numbers too long to convert
        raise BadJSON(_one_line(str(exc))) from None
    if depth_over(value, MAX_DEPTH):
        raise BadJSON(f"it is nested more than {MAX_DEPTH} levels deep")
    return value


def depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (without recursion, so any depth is safe to ask)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, Mapping | list))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, Mapping | list))
    return False


def has_lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate(value: Any, where: str = "") -> str | None:
    """Where in ``value`` a string (or key) holds a lone surrogate, e.g. ``env key '\\udc80'`` or
    ``keys[2]``; None if nowhere. Looks no deeper than ``MAX_DEPTH``."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, at, depth = stack.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                return at or "the text"
        elif depth >= MAX_DEPTH:
            continue
        elif isinstance(item, Mapping):
            for key, inner in reversed(list(item.items())):
                if isinstance(key, str) and has_lone_surrogate(key):
                    return f"{at} key {key!r}".lstrip() if at else f"parameter name {key!r}"
                stack.append((inner, f"{at}.{key}" if at else str(key), depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((inner, f"{at}[{i}]", depth + 1) for i, inner in reversed(list(enumerate(item))))
    return None


def surrogate_problem(field: str) -> str:
    """The sentence that names a field holding a lone surrogate."""
    return (f"{field} holds a lone surrogate (such as \\udc80), which is not valid Unicode text; "
            "send text as UTF-8 (raw bytes go in send-keys hex)")


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxdict = 2, 50, 50, 4, 4


def shown(value: Any) -> str:
    """A bad value as sent, cut short and escaped: never a megabyte echoed back, never unencodable text."""
    try:
        text = _REPR.repr(value)
    except ValueError:  # an int too long to print (Python refuses beyond 4300 digits)
        return "a number too large to show"
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(text: str) -> str:
    return " ".join(text.split())
