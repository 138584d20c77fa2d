"""The journal's file format: a magic line, then length-prefixed, checksummed records.

Format 2 (named in each session file's caps record) adds times: ``TIMES`` after raw bytes, and ``SIZE_AT``
in place of ``SIZE``. A reader of format 2 reads format 1 files as they are: their sessions have no times.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MAGIC = b"OCTJNL1\n"
HEADER = struct.Struct("<IIc")
MAX_PAYLOAD = 64 << 20  # larger than any record we write; a bigger length is damage, not a record

CAPS = b"C"  # first record: the session's id and caps
META = b"M"  # the session's metadata (the newest wins)
OUTPUT = b"O"  # output text: counted, fills the head, joins the tail
TAIL = b"T"  # snapshot only: text restored into the tail, already counted by BASE
SKIP = b"K"  # output that went by unrecorded: counted, and the tail restarts after it
BASE = b"B"  # snapshot only: the head and the counts, before its TAIL records
RAW = b"R"  # raw bytes at an absolute offset
RAW_LOST = b"L"  # raw bytes the writer could not keep up with
SIZE = b"Z"  # terminal size from a raw offset on
INPUT = b"I"  # an input record
INPUT_REPLACE = b"J"  # an input record that replaces the previous one (keystrokes joining their line)
EXIT = b"X"  # how the session ended
IDS = b"N"  # issued ids, newline-separated (the ids file)
APPROVAL = b"A"  # an approval request or its decision, as JSON (the approvals file)
MUTES = b"U"  # the operator's mutes, {"sessions": [...], "agents": [...]} (the mutes file)
SIZE_AT = b"Y"  # format 2: terminal size from a raw offset on, with when (ms) and by whom
TIMES = b"W"  # format 2: when raw bytes arrived, as (offset, ms) marks
ACT_EVENT = "act"  # an approvals-file record that is an act of the host's (removed, re-executed), for the audit

FORMAT = 2
TIMES_VERSION = 1  # the first byte of a TIMES payload: a later layout gets a new one, and old readers skip it

_OFFSET = struct.Struct("<Q")
_SIZE = struct.Struct("<QHH")
_SIZE_AT = struct.Struct("<QHHq")
_TIME = struct.Struct("<Qq")
_ZEROS = b"\0" * 4096


def frame(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(len(payload), zlib.crc32(payload, zlib.crc32(kind)), kind) + payload


def json_record(kind: bytes, value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return frame(kind, text.encode("utf-8", "surrogatepass"))


def text_record(kind: bytes, stream: str, text: str) -> bytes:
    name = stream.encode("utf-8", "surrogatepass")[:255]
    return frame(kind, bytes([len(name)]) + name + text.encode("utf-8", "surrogatepass"))


def raw_record(offset: int, data: bytes) -> bytes:
    return frame(RAW, _OFFSET.pack(offset) + data)


def size_record(offset: int, cols: int, rows: int) -> bytes:
    return frame(SIZE, _SIZE.pack(offset, cols, rows))


def size_at_record(offset: int, cols: int, rows: int, at: int, by: str | None) -> bytes:
    return frame(SIZE_AT, _SIZE_AT.pack(offset, cols, rows, at) + (by or "").encode("utf-8", "surrogatepass"))


def times_record(marks: Sequence[tuple[int, int]]) -> bytes:
    return frame(TIMES, bytes([TIMES_VERSION]) + b"".join(_TIME.pack(offset, at) for offset, at in marks))


def read_json(payload: bytes) -> Any:
    return json.loads(payload.decode("utf-8", "surrogatepass"))


def read_text(payload: bytes) -> tuple[str, str]:
    n = payload[0]
    return payload[1 : 1 + n].decode("utf-8", "surrogatepass"), payload[1 + n :].decode("utf-8", "surrogatepass")


def read_raw(payload: bytes) -> tuple[int, bytes]:
    return _OFFSET.unpack_from(payload)[0], payload[_OFFSET.size :]


def read_size(payload: bytes) -> tuple[int, int, int]:
    offset, cols, rows = _SIZE.unpack(payload)
    return offset, cols, rows


def read_size_at(payload: bytes) -> tuple[int, int, int, int, str | None]:
    offset, cols, rows, at = _SIZE_AT.unpack_from(payload)
    by = payload[_SIZE_AT.size :].decode("utf-8", "surrogatepass")
    return offset, cols, rows, at, by or None


def read_times(payload: bytes) -> list[tuple[int, int]]:
    if not payload or payload[0] != TIMES_VERSION:
        return []  # a layout this reader does not know: the bytes stay, without their times
    return [_TIME.unpack_from(payload, pos) for pos in range(1, len(payload) - _TIME.size + 1, _TIME.size)]


@dataclass
class Scan:
    """What a file holds: its valid records (kind, payload, end offset), where the valid prefix ends, and,
    when bytes follow it, whether they look like a torn last record or like damage (``damage``)."""

    records: list[tuple[bytes, bytes, int]]
    good: int
    torn: bool = False
    damage: str | None = None


def scan(data: bytes) -> Scan:
    """Split ``data`` into records, stopping at the first one that is incomplete or fails its checksum."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):  # empty, or the magic itself was torn
            return Scan([], 0, torn=bool(data))
        return Scan([], 0, damage="not a journal file")
    records: list[tuple[bytes, bytes, int]] = []
    pos = len(MAGIC)
    while pos < len(data):
        if len(data) - pos < HEADER.size:
            return Scan(records, pos, torn=True)
        length, crc, kind = HEADER.unpack_from(data, pos)
        end = pos + HEADER.size + length
        if length <= MAX_PAYLOAD and end > len(data):
            return Scan(records, pos, torn=True)
        payload = data[pos + HEADER.size : end]
        if length > MAX_PAYLOAD or zlib.crc32(payload, zlib.crc32(kind)) != crc:
            if _all_zero(data, pos):  # a file system that extended the file but never wrote the data
                return Scan(records, pos, torn=True)
            return Scan(records, pos, damage=f"{len(data) - pos} bytes after offset {pos} are not valid records")
        records.append((kind, payload, end))
        pos = end
    return Scan(records, pos)


def _all_zero(data: bytes, pos: int) -> bool:
    return all(data[i : i + len(_ZEROS)] == _ZEROS[: len(data) - i] for i in range(pos, len(data), len(_ZEROS)))
