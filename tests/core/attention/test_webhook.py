"""The webhook hook against a real HTTP server on loopback (the standard library's, in a thread)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from ...support.notifying import PROMPT, notifying
from ...support.sessions import start_background
from ...support.waiting import wait_for


class Receiver(ThreadingHTTPServer):
    """Keeps every POST it gets (path, headers, body) and answers ``status``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.got: list[dict[str, Any]] = []
        self.status = 200

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks/openclaw?topic=ops"


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.got.append({"path": self.path, "headers": dict(self.headers), "body": body})
        self.send_response(self.server.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(10)


async def test_a_read_prompt_that_blocks_reaches_the_webhook_as_json(receiver: Receiver) -> None:
    async with notifying(webhook=receiver.url, headers={"Title": "openclaw", "Authorization": "Bearer t0k"}) as (
            host, heard):
        sid = await start_background(host.call, PROMPT, pty=True, agent="main")
        await wait_for(lambda: receiver.got, 30, "the webhook's POST")
        post = receiver.got[0]
        assert post["path"] == "/hooks/openclaw?topic=ops"
        assert post["headers"]["Content-Type"] == "application/json"
        assert post["headers"]["Title"] == "openclaw" and post["headers"]["Authorization"] == "Bearer t0k"
        body = json.loads(post["body"])
        assert {k: body[k] for k in ("event", "sessionId", "agent", "node", "name", "status", "exitCode", "prompt")} == {
            "event": "waiting", "sessionId": sid, "agent": "main", "node": None, "name": "read",
            "status": "running", "exitCode": None, "prompt": "Overwrite existing config? [y/N]"}
        assert body["at"].endswith("Z") and body["count"] == 1
        await wait_for(lambda: host.attention.recent, 30, "the delivery's outcome")  # once the answer is read
        assert host.attention.recent[-1].ok and host.attention.recent[-1].detail.endswith("answered 200 OK")


@pytest.mark.parametrize("form", ["text", "slack"])
async def test_text_and_slack_bodies_carry_one_line(receiver: Receiver, form: str) -> None:
    async with notifying(webhook=receiver.url, format=form) as (host, heard):
        sid = await start_background(host.call, "exit 4", agent="main")
        await wait_for(lambda: receiver.got, 30, "the webhook's POST")
        line = f"openclaw-tui: {sid} ({host.session(sid).name}, main) failed (exit code 4)"
        post = receiver.got[0]
        if form == "text":
            assert post["headers"]["Content-Type"].startswith("text/plain")
            assert post["body"].decode() == line
        else:
            assert json.loads(post["body"]) == {"text": line}


async def test_an_error_answer_and_a_refused_connection_fail_after_one_retry(receiver: Receiver) -> None:
    receiver.status = 500
    async with notifying(webhook=receiver.url) as (host, heard):
        await start_background(host.call, "exit 5", agent="main")
        await wait_for(lambda: host.attention.recent, 30, "the outcome")
        outcome = host.attention.recent[-1]
        assert (outcome.ok, outcome.attempts) == (False, 2) and "answered 500" in outcome.detail
        assert len(receiver.got) == 2
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with notifying(webhook=f"http://127.0.0.1:{port}/x") as (host, heard):
        await start_background(host.call, "exit 5", agent="main")
        await wait_for(lambda: host.attention.recent, 30, "the outcome")
        outcome = host.attention.recent[-1]
        assert (outcome.ok, outcome.attempts) == (False, 2) and outcome.detail.startswith("cannot connect to 127.0.0.1")
