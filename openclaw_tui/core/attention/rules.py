"""``Attention``: from the host's events to the operator's notifications, by the rules of ``[notify]``.

It listens on the host's bus: which events count, once per waiting spell, muted sessions left out, events of a
kind merged (at once, then at most one notification per kind in ``MERGE_S``); then each batch goes to every
hook in a task of its own and out on the bus (``host-attention``, which rings an attached dashboard's bell).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..config import NotifySettings
from ..session import (
    HOST_DIED as DIED,
    Event,
    EventKind,
    NodeDown,
    Notified,
    Snapshot,
    Status,
    iso,
    masked,
    now_ms,
)
from .alerts import APPROVAL, EXITED, FAILED, HOST_DIED, NODE_UNREACHABLE, TEST, WAITING, Alert, AlertBatch
from .desktop import DesktopHook
from .hooks import CommandHook, Hook, Outcome, deliver
from .webhook import WebhookHook

MERGE_S = 0.5  # after a notification, events of its kind wait this long and go out together (two a second at most)
APPROVAL_PENDING = "approval-pending"
APPROVAL_REQUESTED = "approval-requested"  # exec approvals' event, joined by its name (its kind is theirs)
NOT_NEWS = ("approval-denied",)  # failures the operator caused: no need to tell them
RECENT = 20
log = logging.getLogger(__name__)

Muted = Callable[[str | None, str | None], bool]


def make_hooks(settings: NotifySettings) -> list[Hook]:
    """The hooks ``[notify]`` configures."""
    hooks: list[Hook] = []
    if settings.command:
        hooks.append(CommandHook(settings.command))
    if settings.webhook:
        hooks.append(WebhookHook(settings.webhook, settings.headers, settings.format))
    if settings.desktop:
        hooks.append(DesktopHook())
    return hooks


class Attention:
    """A bus listener that notifies the operator.

    Args:
        settings: ``[notify]``.
        publish: where the batches go out as ``host-attention`` events (the host's bus).
        muted: whether a session (id, agent) is muted now.
        hooks: the hooks (default: those ``settings`` configures).
    """

    def __init__(self, settings: NotifySettings, publish: Callable[[Event], None], muted: Muted,
                 hooks: Sequence[Hook] | None = None) -> None:
        self.settings = settings
        self.hooks = list(make_hooks(settings) if hooks is None else hooks)
        self._publish = publish
        self._muted = muted
        self._waiting: dict[str, object] = {}  # sessions announced waiting -> their last output then
        self._asking: set[str] = set()  # sessions whose approval request was announced
        self._pending: dict[str, list[Alert]] = {}
        self._timers: dict[str, asyncio.Handle] = {}  # per kind: the next flush (now, or the cool-down's end)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.recent: deque[Outcome] = deque(maxlen=RECENT)
        """The last deliveries' outcomes, newest last."""

    # -- the rules ------------------------------------------------------------------------------
    def __call__(self, event: Event) -> None:
        alert = self._judge(event)
        if alert is None or alert.event not in self.settings.events:
            return
        if alert.session_id is not None and self._muted(alert.session_id, alert.agent):
            return
        self._queue(alert)

    def _judge(self, event: Event) -> Alert | None:
        """The alert ``event`` makes, if it is news; keeps track of spells either way."""
        payload, sid = event.payload, event.session_id
        if isinstance(payload, Snapshot):  # what waits already was announced (or not) before we listened
            self._waiting.update({s["sessionId"]: s.get("lastOutputAt") for s in payload.sessions
                                  if s.get("waitingForInput")})
            return None
        if isinstance(payload, NodeDown):
            return Alert(NODE_UNREACHABLE, None, None, payload.node, "", None, None, iso(now_ms()) or "",
                         masked(payload.why) or None)
        if sid is None:
            return None
        d = payload.to_json()  # a session's details, or (an approval's request) what the request says
        if event.kind == EventKind.REMOVED:
            self._waiting.pop(sid, None)
            self._asking.discard(sid)
            return None
        if event.kind == APPROVAL_REQUESTED or d.get("status") == APPROVAL_PENDING:
            if sid in self._asking:
                return None
            self._asking.add(sid)
            return _alert(APPROVAL, sid, d, masked(str(d.get("command") or d.get("prompt") or "")) or None)
        if event.kind == EventKind.WAITING:
            # a spell ends with output (the answer's echo, the program going on), not with a check that once
            # saw no evidence: the same prompt, still unanswered, is no news
            if not d.get("waitingForInput") or self._waiting.get(sid, ()) == d.get("lastOutputAt"):
                return None
            self._waiting[sid] = d.get("lastOutputAt")
            return _alert(WAITING, sid, d, d.get("prompt"))
        if event.kind == EventKind.EXITED:
            self._waiting.pop(sid, None)
            self._asking.discard(sid)
            kind = _end_kind(d)
            return _alert(kind, sid, d) if kind else None
        return None

    # -- merging and delivery ---------------------------------------------------------------------
    def _queue(self, alert: Alert) -> None:
        """Queue ``alert``: it goes out on this turn of the loop, with whatever else of its kind comes on it
        (sessions found waiting by one check), unless a notification of its kind went out less than
        ``MERGE_S`` ago: then it waits for the end of that window, with the rest that comes meanwhile."""
        batch = self._pending.setdefault(alert.event, [])
        batch[:] = [a for a in batch if (a.session_id, a.node) != (alert.session_id, alert.node)] + [alert]
        if alert.event not in self._timers:
            self._timers[alert.event] = asyncio.get_running_loop().call_soon(self._flush, alert.event)

    def _flush(self, kind: str) -> None:
        alerts = self._pending.pop(kind, [])
        if not alerts:  # a window ended with nothing in it: the next alert goes out at once
            self._timers.pop(kind, None)
            return
        self._timers[kind] = asyncio.get_running_loop().call_later(MERGE_S, self._flush, kind)
        batch = AlertBatch(tuple(alerts))
        self._publish(Event(EventKind.ATTENTION, None, Notified(batch.to_json(), self.settings.bell)))
        for hook in self.hooks:
            self._spawn(self._deliver(hook, batch))

    async def _deliver(self, hook: Hook, batch: AlertBatch) -> Outcome:
        outcome = await deliver(hook, batch, self.settings.timeout_ms / 1000)
        self.recent.append(outcome)
        if not outcome.ok:  # serve's stderr is serve.log
            log.warning("openclaw-tui: notify: %s (%s)", outcome.line(), batch.text)
        return outcome

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def test(self) -> list[Outcome]:
        """Send a test notification through every hook now (``openclaw-tui notify --test``) and say how each
        went; failures are logged as a real event's are."""
        alert = Alert(TEST, None, None, None, "notify --test", None, None, iso(now_ms()) or "",
                      "a test notification from openclaw-tui")
        batch = AlertBatch((alert,))
        return list(await asyncio.gather(*(self._deliver(hook, batch) for hook in self.hooks)))

    async def close(self) -> None:
        """Stop: what waits in a merge window is dropped, deliveries under way are ended."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _alert(kind: str, sid: str, d: dict[str, Any], prompt: str | None = None) -> Alert:
    return Alert(kind, sid, d.get("agent"), d.get("node"), str(d.get("name") or ""), d.get("status"),
                 d.get("exitCode"), iso(now_ms()) or "", prompt)


def _end_kind(d: dict[str, Any]) -> str | None:
    """What a listed session's end is to the operator: a failure, its host's death, a plain exit; None for
    a kill (whoever killed it knows) and a foreground run (its caller got the answer)."""
    if not d.get("backgrounded", True) or d.get("failureKind") in NOT_NEWS:
        return None
    if d.get("failureKind") == DIED:
        return HOST_DIED
    if d.get("killedBy") not in (None, "timeout"):
        return None
    return FAILED if d.get("status") == Status.FAILED or d.get("exitCode") not in (None, 0) else EXITED
