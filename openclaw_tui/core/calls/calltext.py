"""Reading a tool call's text without trusting it: JSON that decodes or a named reason, and text that is text.

Deep nesting, huge numbers, ``NaN`` and lone surrogates each become one readable reason before anything runs,
never an exception inside the host.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import reprlib
from collections.abc import Callable, Mapping

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 16  # a tool call is two levels deep; nothing legitimate comes near this
MAX_ITEMS = 1000  # items in any one list or object of a call (keys, hex, env, parameters)
MAX_VALUES = 10_000  # values in a whole call (a real one has a few dozen), or in one large message
LARGE = 256 << 10  # bytes: a message this long is decoded off the event loop, by ``loads_large``


class BadJSON(ValueError):
    """The text is not JSON a call can be read from; the message says why, in one line."""


def _no_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadJSON(f"the number {text[:40]} is too large")
    return value


def loads(text: str | bytes) -> Any:
    """Decode JSON text, or raise ``BadJSON`` naming the problem (never another exception)."""
    return _decoded(lambda: json.loads(text, parse_constant=_no_constant, parse_float=_finite))


def loads_large(text: str | bytes, max_values: int = MAX_VALUES) -> Any:
    """``loads`` for a large message, made to run on a worker thread without stalling the event loop.

    The C decoder holds the GIL for a whole document: a few MB of tiny values (``[0,0,…]``, a
    hundred thousand keys) would freeze the host's loop for that long even from another thread. Here
    the structure is walked in Python, which lets the loop thread run between values, while each string
    (where a legitimate large message, a paste, keeps its bulk) is still scanned in C. More than
    ``max_values`` values is refused as soon as it is seen, so a hostile message never builds millions
    of objects (whose garbage collection would stall the loop in turn).
    """

    def decode() -> Any:
        as_str = text if isinstance(text, str) else text.decode(json.detect_encoding(text), "surrogatepass")
        return _BoundedDecoder(max_values).decode(as_str)

    return _decoded(decode)


def _decoded(decode: Callable[[], Any]) -> Any:
    try:
        return decode()
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON("it is nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise BadJSON(f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, and numbers too long to convert
        raise BadJSON(_one_line(str(exc))) from None


class _BoundedDecoder(json.JSONDecoder):
    """The standard decoder with a Python structure walk that counts values (see ``loads_large``)."""

    def __init__(self, max_values: int) -> None:
        super().__init__(parse_constant=_no_constant, parse_float=_finite)
        self.limit = self.left = max_values
        self.parse_array = self._array
        self.parse_object = self._object
        # The pure-Python scanner and its helpers are public in the module, if not in its stubs.
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]

    def _counted(self, scan_once: Any) -> Any:
        def scan(text: str, index: int) -> Any:
            self.left -= 1
            if self.left < 0:
                raise BadJSON(f"it holds more than {self.limit:,} values")
            return scan_once(text, index)

        return scan

    def _array(self, s_and_end: Any, scan_once: Any) -> Any:
        return json.decoder.JSONArray(s_and_end, self._counted(scan_once))  # type: ignore[attr-defined]

    def _object(self, s_and_end: Any, strict: bool, scan_once: Any, *hooks: Any) -> Any:
        return json.decoder.JSONObject(  # type: ignore[attr-defined]
            s_and_end, strict, self._counted(scan_once), *hooks
        )


def has_lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class Problem:
    """Why a call's arguments cannot be validated: the sentence names where. (A plain class: a
    NamedTuple would import ``typing`` on the command line's path.)"""

    __slots__ = ("not_text", "parameter", "sentence")

    def __init__(self, parameter: str, sentence: str, not_text: bool) -> None:
        self.parameter = parameter  # the top-level parameter it is in ("" for the call as a whole)
        self.sentence = sentence
        self.not_text = not_text  # a string that is not valid Unicode (a lone surrogate)


def shape_problem(args: Mapping[str, Any]) -> Problem | None:
    """What makes a call's arguments unfit to validate, or None.

    A lone surrogate in any string or key (``command``, ``keys[2]``, ``parameter name '\\udc80'``),
    nesting deeper than ``MAX_DEPTH``, or a list or object longer than ``MAX_ITEMS``. Checked before the
    parameters are validated because validating a million bad items costs seconds, and an unencodable
    string would fail deep inside a write. The walk is iterative and looks at no more than ``MAX_VALUES``
    values.
    """
    stack: list[tuple[Any, str, int]] = [(args, "", 0)]
    seen = 0
    while stack:
        item, at, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return Problem("", f"the call holds more than {MAX_VALUES:,} values", False)
        parameter = at.split(".", 1)[0].split("[", 1)[0]
        if isinstance(item, str):
            if has_lone_surrogate(item):
                return Problem(parameter, surrogate_problem(at or "a value"), True)
            continue
        if not isinstance(item, Mapping | list | tuple):
            continue
        where = at or "the call"
        if depth >= MAX_DEPTH:
            return Problem(parameter, f"{where} is nested more than {MAX_DEPTH} levels deep", False)
        if len(item) > MAX_ITEMS:
            limit = f"a list or object in a call holds at most {MAX_ITEMS:,}"
            return Problem(parameter, f"{where} holds {len(item):,} items; {limit}", False)
        if isinstance(item, Mapping):
            for key, inner in reversed(list(item.items())):
                if isinstance(key, str) and has_lone_surrogate(key):
                    named = f"{at} key {key!r}" if at else f"parameter name {key!r}"
                    return Problem(parameter, surrogate_problem(named), True)
                stack.append((inner, f"{at}.{key}" if at else str(key), depth + 1))
        else:
            stack.extend((inner, f"{at}[{i}]", depth + 1) for i, inner in reversed(list(enumerate(item))))
    return None


def surrogate_problem(field: str) -> str:
    """The sentence that names a field holding a lone surrogate."""
    return (
        f"{field} holds a lone surrogate (such as \\udc80), which is not valid Unicode text; "
        "send text as UTF-8 (raw bytes go in send-keys hex)"
    )


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
