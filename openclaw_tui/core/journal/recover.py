"""Reading a journal directory back at start, and repairing what a crash or a bad disk left behind."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from . import records as rec
from .disk import SUFFIX, Disk, SessionFile, file_name, unlink
from .mutefile import read_mutes
from .replay import RecoveredSession, replay


@dataclass
class Recovered:
    """What a journal directory holds: ``sessions`` by id, every ``issued`` id, the ``approvals`` records
    (requests and decisions, oldest first), and a line for each file that could not be fully read
    (``problems``)."""

    sessions: dict[str, RecoveredSession] = field(default_factory=dict)
    issued: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    approvals: list[dict[str, Any]] = field(default_factory=list)
    mutes: dict[str, Any] = field(default_factory=dict)
    """The operator's mutes (``Mutes.to_json`` of ``core.attention``), as last recorded."""



def load(disk: Disk, skip: set[str]) -> Recovered:
    """Every session file not in ``skip`` (sessions this process already writes), repaired: a torn
    last record is cut off, a damaged tail is cut off and reported, a file that is not a journal is
    renamed ``*.corrupt`` and reported. Sessions are registered for budgets and eviction. The mutes are
    read too."""
    out = Recovered()
    skip_names = {file_name(sid) for sid in skip}
    for name in sorted(os.listdir(disk.dir)):
        path = os.path.join(disk.dir, name)
        if name.endswith(".tmp"):  # a compaction that never finished; the old file is intact
            unlink(path)
        elif name.endswith(SUFFIX) and name not in skip_names:
            _load_session(disk, path, name, out)
    out.issued = _load_ids(disk, out)
    out.approvals = _load_approvals(disk, out)
    out.mutes, problem = read_mutes(disk.root)
    if problem:
        out.problems.append(problem)
    for sid in disk.evict():
        out.sessions.pop(sid, None)
    return out


def _load_session(disk: Disk, path: str, name: str, out: Recovered) -> None:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        out.problems.append(f"journal file {name} unreadable: {e.strerror}; skipped")
        return
    found = rec.scan(data)
    session, good = replay(found.records)
    if session is None:
        if found.torn and not found.records:  # a crash between creating the file and its first record
            unlink(path)
            return
        os.replace(path, path + ".corrupt")
        out.problems.append(f"journal file {name} is not a readable journal; set aside as {name}.corrupt")
        return
    if good < len(data):
        os.truncate(path, good)
        if not found.torn or good < found.good:
            why = found.damage or "a record that does not parse"
            out.problems.append(f"journal file {name}: {why}; the records before it are kept")
    ended = session.ended_at if session.exit else None
    disk.files[session.session_id] = SessionFile(path, good, ended, records=len(found.records))
    out.sessions[session.session_id] = session


def _load_ids(disk: Disk, out: Recovered) -> list[str]:
    try:
        with open(disk.ids_path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        data = b""
    found = rec.scan(data)
    ids = [i for kind, payload, _ in found.records if kind == rec.IDS
           for i in payload.decode("utf-8", "surrogatepass").split("\n") if i]
    if found.good < len(data):
        os.truncate(disk.ids_path, found.good)
        if found.damage:
            out.problems.append(f"journal file issued.jnl: {found.damage}; the ids before it are kept")
    disk.ids_size = found.good
    return list(dict.fromkeys(ids + list(out.sessions)))


def _load_approvals(disk: Disk, out: Recovered) -> list[dict[str, Any]]:
    try:
        with open(disk.approvals_path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return []
    found = rec.scan(data)
    records = []
    for kind, payload, _ in found.records:
        if kind == rec.APPROVAL:
            try:
                records.append(rec.read_json(payload))
            except ValueError:
                continue
    if found.good < len(data):
        os.truncate(disk.approvals_path, found.good)
        if found.damage:
            out.problems.append(f"journal file approvals.jnl: {found.damage}; the records before it are kept")
    disk.approvals_size = found.good
    return [r for r in records if isinstance(r, dict) and r.get("event") != rec.ACT_EVENT]  # acts: the audit's
