"""Events on the socket: each kind's payload becomes the JSON frontends have always read, and comes back whole.

The expected lines are the ``event`` notifications as the host wrote them when ``Event.data`` was a dict
(key order included), so the oracle is the wire format itself, not the code that now writes it.
"""

from __future__ import annotations

import json

import pytest

from openclaw_tui.core.containment import ContainmentKind, Placement
from openclaw_tui.core.session import (
    NEW_OUTPUT,
    ApprovalState,
    Event,
    EventKind,
    ExitNotice,
    JournalState,
    LinkGone,
    LinkState,
    NodeDown,
    Notified,
    Resources,
    SessionState,
    Snapshot,
    Status,
)
from openclaw_tui.remote.wire import protocol as p

DETAILS = {"sessionId": "brisk-atlas", "status": Status.RUNNING, "host": Placement.SANDBOX,
           "containment": ContainmentKind.SANDBOX, "exitCode": None}
DETAILS_JSON = '{"sessionId":"brisk-atlas","status":"running","host":"sandbox","containment":"sandbox","exitCode":null}'
NOTICE = ExitNotice(session_id="brisk-atlas", name="make", agent="main", status=Status.FAILED, exit_code=None,
                    exit_signal=None, timed_out=False, snippet="", text="[exit] brisk-atlas (make) failed",
                    failure_kind="host-died")
NOTICE_JSON = ('{"sessionId":"brisk-atlas","name":"make","agent":"main","status":"failed","exitCode":null,'
               '"exitSignal":null,"timedOut":false,"failureKind":"host-died","snippet":"",'
               '"text":"[exit] brisk-atlas (make) failed"}')
REQUEST = {"approvalId": "ap-1", "sessionId": "brisk-atlas", "agent": "main", "command": "make"}
REQUEST_JSON = '{"approvalId":"ap-1","sessionId":"brisk-atlas","agent":"main","command":"make"}'

ON_THE_WIRE = [
    (Event(EventKind.SNAPSHOT, None, Snapshot((DETAILS,), JournalState(True))),
     '{"kind":"snapshot","sessionId":null,"data":{"sessions":[' + DETAILS_JSON
     + '],"journal":{"saving":true,"problem":null}}}'),
    (Event(EventKind.SNAPSHOT, None, Snapshot((DETAILS,), JournalState(True), approvals=(REQUEST,))),
     '{"kind":"snapshot","sessionId":null,"data":{"sessions":[' + DETAILS_JSON
     + '],"journal":{"saving":true,"problem":null},"approvals":[' + REQUEST_JSON + ']}}'),
    *((Event(kind, "brisk-atlas", ApprovalState(REQUEST)),
       f'{{"kind":"{kind.value}","sessionId":"brisk-atlas","data":{REQUEST_JSON}}}')
      for kind in (EventKind.APPROVAL_REQUESTED, EventKind.APPROVAL_DECIDED)),
    (Event(EventKind.SNAPSHOT, None, Snapshot(link=LinkState("live", "", "/run/h.sock"))),
     '{"kind":"snapshot","sessionId":null,"data":{"sessions":[],"link":"live","why":"","where":"/run/h.sock"}}'),
    *((Event(kind, "brisk-atlas", SessionState(DETAILS)),
       f'{{"kind":"{kind.value}","sessionId":"brisk-atlas","data":{DETAILS_JSON}}}')
      for kind in (EventKind.ADDED, EventKind.STARTED, EventKind.BACKGROUNDED, EventKind.WAITING, EventKind.INPUT,
                   EventKind.EXITED, EventKind.REMOVED, EventKind.MUTED)),
    (Event(EventKind.ATTENTION, "brisk-atlas", Notified({"event": "waiting", "text": "make waits", "count": 1})),
     '{"kind":"host-attention","sessionId":"brisk-atlas","data":{"event":"waiting","text":"make waits",'
     '"count":1,"bell":true}}'),
    (Event(EventKind.NODE_UNREACHABLE, None, NodeDown("gpu", "ssh exited 255")),
     '{"kind":"node-unreachable","sessionId":null,"data":{"node":"gpu","why":"ssh exited 255"}}'),
    (Event(EventKind.OUTPUT, "brisk-atlas", NEW_OUTPUT), '{"kind":"session-output","sessionId":"brisk-atlas","data":{}}'),
    (Event(EventKind.NOTIFICATION, "brisk-atlas", NOTICE),
     '{"kind":"exit-notification","sessionId":"brisk-atlas","data":' + NOTICE_JSON + '}'),
    (Event(EventKind.NOTIFICATION, "gpu/brisk-atlas", ExitNotice(
        "gpu/brisk-atlas", "make", None, Status.COMPLETED, 0, None, False, "ok", "[exit] ok", node="gpu")),
     '{"kind":"exit-notification","sessionId":"gpu/brisk-atlas","data":{"sessionId":"gpu/brisk-atlas",'
     '"name":"make","agent":null,"status":"completed","exitCode":0,"exitSignal":null,"timedOut":false,'
     '"snippet":"ok","text":"[exit] ok","node":"gpu"}}'),
    (Event(EventKind.JOURNAL, None, JournalState(False, "disk full")),
     '{"kind":"host-journal","sessionId":null,"data":{"saving":false,"problem":"disk full"}}'),
    (Event(EventKind.HOST_LINK, None, LinkState("reconnecting", "connection lost", "/run/h.sock")),
     '{"kind":"host-link","sessionId":null,"data":{"link":"reconnecting","why":"connection lost",'
     '"where":"/run/h.sock"}}'),
    (Event(EventKind.HOST_GONE, None, LinkGone("its socket is gone")),
     '{"kind":"host-gone","sessionId":null,"data":{"why":"its socket is gone"}}'),
    (Event(EventKind.RESOURCES, None, Resources({"brisk-atlas": {"cpuPercent": 12.5, "processes": 2}})),
     '{"kind":"session-resources","sessionId":null,"data":{"figures":{"brisk-atlas":{"cpuPercent":12.5,'
     '"processes":2}}}}'),
]


@pytest.mark.parametrize(("event", "line"), ON_THE_WIRE, ids=[event.kind.value for event, _ in ON_THE_WIRE])
def test_each_kind_goes_on_the_wire_as_it_always_did_and_comes_back_as_it_was(event: Event, line: str) -> None:
    assert p.notification("event", event.to_json()) == b'{"jsonrpc":"2.0","method":"event","params":' + line.encode() + b"}\n"
    back = Event.from_json(json.loads(line))
    assert back == event and type(back.payload) is type(event.payload)


def test_every_kind_has_a_case_above() -> None:
    assert {event.kind for event, _ in ON_THE_WIRE} == set(EventKind)


def test_a_notice_read_back_has_a_typed_status_and_the_json_agents_get() -> None:
    back = ExitNotice.from_json(json.loads(NOTICE_JSON))
    assert back.status is Status.FAILED and json.dumps(back.to_json(), separators=(",", ":")) == NOTICE_JSON


@pytest.mark.parametrize("params", [
    {"kind": "session-teleported", "sessionId": "x", "data": {}},  # a kind a newer host might add
    {"kind": "exit-notification", "sessionId": "x", "data": {"sessionId": "x"}},  # a notice missing its fields
    {"kind": "exit-notification", "sessionId": "x", "data": {**json.loads(NOTICE_JSON), "status": "vanished"}},
    {"kind": "host-link", "data": {"why": "no link state"}},
    {"kind": "session-added", "data": ["not", "an", "object"]},
    {"sessionId": "x"},
])
def test_an_event_this_version_cannot_read_is_none_not_an_exception(params: dict) -> None:
    assert Event.from_json(params) is None


def test_a_publisher_that_gives_a_kind_the_wrong_payload_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="session-exited event carries a SessionState, not a NewOutput"):
        Event(EventKind.EXITED, "brisk-atlas", NEW_OUTPUT)
