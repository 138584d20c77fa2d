"""Which host changes become notices, and in how many words.

A session that starts waiting or ends is news; what the operator already knows is not, and a burst of news of
one kind is one line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from openclaw_tui.core.session import Status, end_words
from openclaw_tui.remote.mirror import SessionView

from .notices import Notice

WAITING, EXIT = "waiting", "exit"
LISTED = 4  # ids named in a merged notice; the rest are counted


class Announcer:
    """Feeds :class:`~.notices.NoticeLine` through ``post``; ``showing(kind)`` says if a kind still shows."""

    def __init__(self, post: Callable[[Notice], None], showing: Callable[[str], bool]) -> None:
        self._post = post
        self._showing = showing
        self._seen_first = False
        self._waiting: dict[str, tuple[int, float]] = {}  # announced waiting sessions -> their input mark then
        self._answered: set[str] = set()  # announced, then seen working again after input
        self._expected: set[str] = set()  # their first wait is no news (the demo's sessions)
        self._batches: dict[str, list[tuple[str, str, bool]]] = {WAITING: [], EXIT: []}  # (id, words, failed)

    def expect_wait(self, session_ids: Iterable[str]) -> None:
        """The first wait of these sessions is expected: count it in the header, announce nothing."""
        self._expected.update(session_ids)

    def sessions_seen(self, sessions: Iterable[SessionView], typing_into: SessionView | None) -> None:
        """Announce the sessions that started waiting since the last look."""
        sessions = list(sessions)
        waiting = {s.id: s for s in sessions if s.waiting_for_input}
        if not self._seen_first:  # what waits at the first look is not news (the header counts it)
            self._seen_first = True
            self._waiting = {sid: input_mark(s) for sid, s in waiting.items()}
            return
        for s in sessions:  # working again after input: its next wait is a new question
            if s.id in self._waiting and s.id not in waiting and input_mark(s) != self._waiting[s.id]:
                self._answered.add(s.id)
        news = []
        for sid, s in waiting.items():
            if sid in self._waiting and sid not in self._answered:
                continue
            self._answered.discard(sid)
            self._waiting[sid] = input_mark(s)
            if typing_into is s or sid in self._expected:
                self._expected.discard(sid)
                continue  # the operator is typing into it, or asked for it: no news
            why = " (a password prompt)" if s.waiting_reason == "password-prompt" else ""
            news.append((sid, f"{sid} ({s.name}){why}", False))
        if news:
            self._merge(WAITING, news, "warning")

    def session_exited(self, details: dict[str, Any]) -> None:
        """Announce a listed session's end, from the state its exit event carries (it may be gone by now)."""
        sid = details["sessionId"]
        self._waiting.pop(sid, None)
        self._answered.discard(sid)
        self._expected.discard(sid)
        how = end_words(bool(details.get("timedOut")), details.get("exitSignal"), details.get("exitCode"))
        failed = details["status"] == Status.FAILED or bool(details.get("exitCode"))
        self._merge(EXIT, [(sid, f"{sid} ({details['name']}) {details['status']}, {how}", failed)],
                    "error" if failed else "information")

    def _merge(self, kind: str, news: list[tuple[str, str, bool]], severity: str) -> None:
        batch = self._batches[kind] if self._showing(kind) else []
        batch = [item for item in batch if item[0] not in {n[0] for n in news}] + news
        self._batches[kind] = batch
        if any(failed for _, _, failed in batch):
            severity = "error"
        self._post(Notice(_words(kind, batch), severity=severity, kind=kind))


def _words(kind: str, batch: list[tuple[str, str, bool]]) -> str:
    if len(batch) == 1:
        return batch[0][1] + (" is waiting for input." if kind == WAITING else "")
    ids = ", ".join(sid for sid, _, _ in batch[:LISTED]) + (f" and {len(batch) - LISTED} more" if len(batch) > LISTED else "")
    if kind == WAITING:
        return f"{len(batch)} sessions wait for input: {ids}."
    failed = sum(f for _, _, f in batch)
    return f"{len(batch)} sessions ended" + (f" ({failed} failed)" if failed else "") + f": {ids}."


def input_mark(session: SessionView) -> tuple[int, float]:
    """Changes whenever ``session`` gets input: keystrokes typed through join their line's record, so the
    count alone would miss them."""
    return len(session.inputs), session.inputs[-1].at if session.inputs else 0.0
