"""``[notify] webhook``: one HTTP POST per batch, its body JSON (the alert's fields), plain text, or Slack's.

HTTP/1.1 over asyncio streams (TLS for https), one connection per delivery: nothing blocks the loop and no
client library is needed for a POST. ntfy takes the text body as its message; Slack's incoming webhooks (and
Discord's, at the webhook URL with ``/slack`` appended) take the ``slack`` body.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Mapping
from urllib.parse import urlsplit

from ..version import __version__
from .alerts import AlertBatch
from .hooks import HookFailed

PREFIX = "openclaw-tui: "
REPLY_LINE = 8192


def body(batch: AlertBatch, form: str) -> tuple[bytes, str]:
    """The request body for ``form`` (json | text | slack) and its content type."""
    if form == "text":
        return (PREFIX + batch.text).encode(), "text/plain; charset=utf-8"
    value = {"text": PREFIX + batch.text} if form == "slack" else batch.to_json()
    return json.dumps(value, ensure_ascii=False).encode(), "application/json"


class WebhookHook:
    """POSTs each batch to ``url`` with ``headers`` (they win over ours, but for the length)."""

    name = "webhook"

    def __init__(self, url: str, headers: Mapping[str, str], form: str) -> None:
        self.url = url
        self.headers = dict(headers)
        self.form = form
        parts = urlsplit(url)
        self._tls = parts.scheme.lower() == "https"
        self._host = parts.hostname or ""
        self._port = parts.port or (443 if self._tls else 80)
        self._target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._authority = parts.netloc.rpartition("@")[2]
        self._context: ssl.SSLContext | None = None  # made once, off the loop: it reads the CA store

    async def send(self, batch: AlertBatch, timeout_s: float) -> str:
        data, kind = body(batch, self.form)
        head = {"Host": self._authority, "User-Agent": f"openclaw-tui/{__version__}", "Content-Type": kind,
                "Connection": "close", **self.headers, "Content-Length": str(len(data))}
        request = f"POST {self._target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
        if self._tls and self._context is None:
            self._context = await asyncio.to_thread(ssl.create_default_context)
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                self._host, self._port, ssl=self._context if self._tls else None), timeout_s)
        except OSError as exc:
            raise HookFailed(f"cannot connect to {self._authority}: {exc.strerror or exc}") from None
        try:
            writer.write(request.encode("latin-1", "replace") + data)
            await writer.drain()
            status = await reader.readline()
        finally:
            writer.close()
        words = status.decode("latin-1").split(" ", 2)
        if len(words) < 2 or not words[0].startswith("HTTP/") or not words[1].isdigit():
            raise HookFailed(f"{self._authority} did not answer as an HTTP server")
        code, reason = int(words[1]), words[2].strip() if len(words) > 2 else ""
        if not 200 <= code < 300:
            raise HookFailed(f"{self._authority} answered {code} {reason}".rstrip())
        return f"{self._authority} answered {code} {reason}".rstrip()
