"""Who typed what into a session: the last ``INPUT_HISTORY`` inputs, each with its sender and action.

A record is a preview of at most ``PREVIEW_CHARS``, and input typed with the terminal's echo off is recorded
as ``•••``.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from .record import SessionRecord

INPUT_HISTORY = 200
HIDDEN_PREVIEW = "•••"  # what an input record shows of input typed with echo off
PREVIEW_CHARS = 120  # of each input kept in its record
TYPED_LINE_GAP_S = 5.0  # keystrokes further apart than this start a new record


@dataclass(frozen=True)
class InputRecord:
    """One piece of input and who sent it (an agent's name, or ``operator``)."""

    at: float
    source: str
    action: str
    preview: str
    nbytes: int

    def to_json(self) -> dict[str, Any]:
        """As ``log`` results and the host protocol give it (``bytes`` for ``nbytes``)."""
        return {"at": self.at, "source": self.source, "action": self.action, "preview": self.preview,
                "bytes": self.nbytes}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> InputRecord:
        return cls(d["at"], d["source"], d["action"], d["preview"], d["bytes"])


class InputLog:
    """The newest ``INPUT_HISTORY`` input records of one session, oldest first."""

    def __init__(self, records: list[InputRecord] | None = None) -> None:
        self._records: deque[InputRecord] = deque(records or (), maxlen=INPUT_HISTORY)
        self._typed_line_open = False  # the last input was a keystroke typed through, mid-line
        self.journal: SessionRecord | None = None  # the session's journal record, once it is journaled

    def __iter__(self) -> Iterator[InputRecord]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> InputRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[InputRecord]: ...

    def __getitem__(self, index: int | slice) -> InputRecord | list[InputRecord]:
        return list(self._records)[index] if isinstance(index, slice) else self._records[index]

    def record(self, data: bytes, source: str, action: str, hidden: bool) -> None:
        """Record ``data`` sent by ``source`` (``hidden``: typed with the terminal's echo off)."""
        preview = HIDDEN_PREVIEW if hidden else data[: PREVIEW_CHARS * 4].decode("utf-8", "replace")
        now = time.time()
        last = self._records[-1] if self._records else None
        if (action == "type" and self._typed_line_open and last is not None
                and (last.source, last.action) == (source, action) and now - last.at < TYPED_LINE_GAP_S
                and len(last.preview) < PREVIEW_CHARS):
            preview = HIDDEN_PREVIEW if HIDDEN_PREVIEW in (preview, last.preview) else last.preview + preview
            self._records[-1] = InputRecord(now, source, action, preview[:PREVIEW_CHARS], last.nbytes + len(data))
            joined = True
        else:
            self._records.append(InputRecord(now, source, action, preview[:PREVIEW_CHARS], len(data)))
            joined = False
        if self.journal is not None:
            self.journal.input(self._records[-1].to_json(), replace_last=joined)
        self._typed_line_open = action == "type" and not data.endswith((b"\r", b"\n"))

    def keep_record(self, journal: SessionRecord) -> None:
        """From now on hand every record to ``journal``, after those held now."""
        for record in self._records:
            journal.input(record.to_json())
        self.journal = journal

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self._records]

    @classmethod
    def from_json(cls, records: list[dict[str, Any]]) -> InputLog:
        return cls([InputRecord.from_json(r) for r in records])
