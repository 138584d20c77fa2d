"""A package's face, loaded on first use: what other packages may import from it, and nothing more.

The face is the imports of the ``if TYPE_CHECKING:`` block of a package's ``__init__`` (``from .mod import
Name as Name``, or ``from . import mod as mod`` for a module as a namespace), which type checkers read;
:func:`lazy_exports` reads the same lines at run time and imports a name's module only when somebody asks for
it.
"""

from __future__ import annotations

import re
import sys
from importlib import import_module

TYPE_CHECKING = False  # not `typing`: the command line's path avoids importing it
if TYPE_CHECKING:
    from collections.abc import Callable

_BLOCK = re.compile(r"^if TYPE_CHECKING:.*?\n((?:[ \t]+.*\n|\n)+)", re.M)
_IMPORT = re.compile(r"from (\.[\w.]*|[\w.]+) import (\([^)]*\)|.*)")
_NAME = re.compile(r"\b(\w+) as \1\b")


def face(source: str) -> dict[str, str]:
    """Each name the ``TYPE_CHECKING`` block of ``source`` offers, and the module it comes from."""
    block = _BLOCK.search(source)
    found: dict[str, str] = {}
    for module, names in _IMPORT.findall(block.group(1) if block else ""):
        for name in _NAME.findall(names):
            found[name] = module + name if module == "." else module
    return found


def lazy_exports(package: str, init_file: str) -> tuple[list[str], Callable[[str], object]]:
    """``__all__`` and a module ``__getattr__`` for ``package``, from the face its ``__init__`` lists."""
    with open(init_file, encoding="utf-8") as fh:
        origin = face(fh.read())

    def __getattr__(name: str) -> object:
        module = origin.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        loaded = import_module(module, package)
        value = loaded if module == "." + name else getattr(loaded, name)
        setattr(sys.modules[package], name, value)  # asked once: later lookups are plain attributes
        return value

    return sorted(origin), __getattr__
