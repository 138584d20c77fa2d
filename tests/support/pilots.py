"""Text cursors that do not blink, for tests and screenshots (the product never knows about it).

A blinking cursor is drawn or not depending on the moment of capture, so every capture would differ.
Textual's text fields (``Input``, ``TextArea``) blink by default; here each one is made steady as it is
built, for as long as the context lasts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from textual.widgets import Input, TextArea

FIELDS: tuple[type[Input] | type[TextArea], ...] = (Input, TextArea)


def _steady(build: Callable[..., None]) -> Callable[..., None]:
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        self.cursor_blink = False

    return init


@contextlib.contextmanager
def steady_cursors() -> Iterator[None]:
    """Every text field built inside the context has a cursor that does not blink."""
    builds = {field: field.__init__ for field in FIELDS}
    for field, build in builds.items():
        field.__init__ = _steady(build)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for field, build in builds.items():
            field.__init__ = build  # type: ignore[method-assign]
