"""What a journaled session hands its durable record as it changes: the journal's side, seen from here.

The journal (a layer above) implements it with ``SessionJournal``; a session only ever calls these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .rawring import TimeMark


class SessionRecord(Protocol):
    """One session's record in the journal: each call queues a change and returns at once."""

    def meta(self, meta: dict[str, Any]) -> None: ...

    def output(self, stream: str, text: str) -> None: ...

    def skip(self, nchars: int) -> None: ...

    def raw(self, offset: int, data: bytes, times: list[TimeMark] | None = None) -> None: ...

    def size(self, offset: int, cols: int, rows: int, at: int = 0, by: str | None = None) -> None: ...

    def input(self, record: dict[str, Any], replace_last: bool = False) -> None: ...

    def exit(self, record: dict[str, Any]) -> None: ...
