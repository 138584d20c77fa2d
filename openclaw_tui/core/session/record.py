"""What a journaled session hands its durable record as it changes: the journal's side, seen from here.

The journal (a layer above) implements it with ``SessionJournal``; a session only ever calls these.
"""

from __future__ import annotations

from typing import Any, Protocol


class SessionRecord(Protocol):
    """One session's record in the journal: each call queues a change and returns at once."""

    def meta(self, meta: dict[str, Any]) -> None: ...

    def output(self, stream: str, text: str) -> None: ...

    def skip(self, nchars: int) -> None: ...

    def raw(self, offset: int, data: bytes) -> None: ...

    def size(self, offset: int, cols: int, rows: int) -> None: ...

    def input(self, record: dict[str, Any], replace_last: bool = False) -> None: ...

    def exit(self, record: dict[str, Any]) -> None: ...
