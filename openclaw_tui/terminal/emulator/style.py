"""Cell styles: what a run of screen text looks like, independent of any rendering library, and SGR applied to
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Color = int | str | None
"""None for the terminal default, 0-255 for the palette, ``"#rrggbb"`` for truecolour."""

_INTERNED: dict[tuple[object, ...], Style] = {}
_SGR_CACHE: dict[tuple[Style, str], Style] = {}
_SGR_CACHE_LIMIT = 4096
_INTERNED_LIMIT = 1 << 16


@dataclass(frozen=True, slots=True)
class Style:
    """Attributes of a screen cell. Build with :meth:`Style.of` to get the shared instance."""

    fg: Color = None
    bg: Color = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False
    strikethrough: bool = False
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Styles are dict keys on every hot path; hash the fields once, not on each lookup.
        object.__setattr__(self, "_hash", hash(self._fields()))

    def _fields(self) -> tuple[Color, Color, bool, bool, bool, bool, bool, bool]:
        return (self.fg, self.bg, self.bold, self.dim, self.italic, self.underline, self.reverse, self.strikethrough)

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(
        cls,
        fg: Color = None,
        bg: Color = None,
        bold: bool = False,
        dim: bool = False,
        italic: bool = False,
        underline: bool = False,
        reverse: bool = False,
        strikethrough: bool = False,
    ) -> Style:
        """The one shared ``Style`` with these attributes."""
        key = (fg, bg, bold, dim, italic, underline, reverse, strikethrough)
        style = _INTERNED.get(key)
        if style is None:
            if len(_INTERNED) >= _INTERNED_LIMIT:
                _INTERNED.clear()  # a truecolour gradient must not grow this forever; equal styles still compare equal
            style = _INTERNED[key] = cls(*key)
        return style

    def interned(self) -> Style:
        """The shared instance equal to this one (for styles built with the plain constructor)."""
        return Style.of(*self._fields())

    def but(self, **changes: object) -> Style:
        """A shared copy with some attributes changed."""
        return replace(self, **changes).interned()  # type: ignore[arg-type]


DEFAULT_STYLE = Style.of()

_FLAG_ON = {
    1: "bold",
    2: "dim",
    3: "italic",
    4: "underline",
    7: "reverse",
    9: "strikethrough",
    21: "underline",
}
_FLAG_OFF = {
    23: ("italic",),
    24: ("underline",),
    27: ("reverse",),
    29: ("strikethrough",),
    22: ("bold", "dim"),
}


def apply_sgr(style: Style, params: str) -> Style:
    """The style after ``CSI <params> m``; cached because the same few changes repeat endlessly."""
    key = (style, params)
    result = _SGR_CACHE.get(key)
    if result is None:
        if len(_SGR_CACHE) >= _SGR_CACHE_LIMIT:
            _SGR_CACHE.clear()
        result = _SGR_CACHE[key] = _apply(style, params)
    return result


_NAMES = ("fg", "bg", "bold", "dim", "italic", "underline", "reverse", "strikethrough")
_PLAIN = dict(zip(_NAMES, DEFAULT_STYLE._fields()))


def _apply(style: Style, params: str) -> Style:
    if not params or params == "0":
        return DEFAULT_STYLE
    attrs: dict[str, object] = dict(zip(_NAMES, style._fields()))
    parts = params.split(";")
    i = 0
    while i < len(parts):
        part = parts[i]
        i += 1
        if ":" in part:
            _apply_colon(attrs, [int(s) if s.isdigit() else 0 for s in part.split(":")])
            continue
        code = int(part) if part.isdigit() else 0
        if code in (38, 48, 58):  # a colour in the parameters that follow
            colour, i = _semicolon_colour(parts, i)
            if code != 58:  # underline colour: not modelled
                attrs["fg" if code == 38 else "bg"] = colour
        else:
            _apply_code(attrs, code)
    return Style.of(**attrs)  # type: ignore[arg-type]


def _apply_colon(attrs: dict[str, object], sub: list[int]) -> None:
    """A parameter with sub-parameters: ``38:2::r:g:b``, ``48:5:n``, ``4:3`` (curly underline)."""
    code = sub[0]
    if code in (38, 48):
        attrs["fg" if code == 38 else "bg"] = _colon_colour(sub[1:])
    elif code == 4:
        attrs["underline"] = len(sub) < 2 or sub[1] != 0
    # 58 (underline colour) is not modelled


def _apply_code(attrs: dict[str, object], code: int) -> None:
    """A plain parameter: a reset, a palette colour, a default colour, or an attribute on or off."""
    if code == 0:
        attrs.update(_PLAIN)
    elif 30 <= code <= 37:
        attrs["fg"] = code - 30
    elif 40 <= code <= 47:
        attrs["bg"] = code - 40
    elif 90 <= code <= 97:
        attrs["fg"] = code - 82
    elif 100 <= code <= 107:
        attrs["bg"] = code - 92
    elif code == 39:
        attrs["fg"] = None
    elif code == 49:
        attrs["bg"] = None
    elif code in _FLAG_ON:
        attrs[_FLAG_ON[code]] = True
    elif code in _FLAG_OFF:
        for name in _FLAG_OFF[code]:
            attrs[name] = False


def _semicolon_colour(parts: list[str], i: int) -> tuple[Color, int]:
    """Parse ``5;n`` or ``2;r;g;b`` after a 38/48; returns the colour and the next index."""

    def num(j: int) -> int:
        return int(parts[j]) if j < len(parts) and parts[j].isdigit() else 0

    kind = num(i)
    if kind == 5:
        return max(0, min(255, num(i + 1))), i + 2
    if kind == 2:
        return _hex(num(i + 1), num(i + 2), num(i + 3)), i + 4
    return None, i + 1


def _colon_colour(sub: list[int]) -> Color:
    """Parse ``5:n``, ``2:r:g:b`` or ``2:cs:r:g:b`` (ITU T.416 form with a colour-space id)."""
    if not sub:
        return None
    if sub[0] == 5 and len(sub) >= 2:
        return max(0, min(255, sub[1]))
    if sub[0] == 2:
        rgb = sub[2:5] if len(sub) >= 5 else sub[1:4]
        rgb += [0] * (3 - len(rgb))
        return _hex(*rgb)
    return None


def _hex(r: int, g: int, b: int) -> str:
    return f"#{min(r, 255):02x}{min(g, 255):02x}{min(b, 255):02x}"
