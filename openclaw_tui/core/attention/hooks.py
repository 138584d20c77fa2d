"""Delivering a batch to one hook with a deadline and one retry, and the command hook (``sh -c``).

A hook runs as the operator, outside the sandbox, with the alert's fields and never a session's environment;
nothing here waits on the event loop's behalf: a slow hook only holds its own task.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from .alerts import AlertBatch

RETRY_S = 0.5  # before the one retry of a failed delivery
OUTPUT_CHARS = 400  # of a command's output, kept to say why it failed


class HookFailed(Exception):
    """A delivery did not go through; the message says why in one line."""


class Hook(Protocol):
    """A way to the operator: a command, a webhook, the desktop."""

    name: str

    async def send(self, batch: AlertBatch, timeout_s: float) -> str:
        """Deliver ``batch`` within ``timeout_s``; returns a few words on how it went, raises HookFailed."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How a delivery to one hook went: ``ok``, in how many attempts, and what it said (or why it failed)."""

    hook: str
    ok: bool
    attempts: int
    detail: str

    def line(self) -> str:
        tries = "" if self.attempts == 1 else f" (after {self.attempts} attempts)"
        return f"{self.hook}: {'delivered' if self.ok else 'failed'}{tries}: {self.detail}"


async def deliver(hook: Hook, batch: AlertBatch, timeout_s: float) -> Outcome:
    """Send ``batch`` through ``hook``: a failure or a timeout is retried once."""
    detail = ""
    for attempt in (1, 2):
        try:
            said = await asyncio.wait_for(hook.send(batch, timeout_s), timeout_s + 1)
            return Outcome(hook.name, True, attempt, said)
        except HookFailed as exc:
            detail = str(exc)
        except TimeoutError:
            detail = f"no answer within {timeout_s:g} s"
        except OSError as exc:
            detail = exc.strerror or str(exc)
        if attempt == 1:
            await asyncio.sleep(RETRY_S)
    return Outcome(hook.name, False, 2, detail)


def fill(template: str, fields: Mapping[str, str]) -> str:
    """``template`` with each ``{field}`` replaced by its value quoted for where it stands: bare, inside
    '…' or inside "…", so ``notify-send 'openclaw: {agent}/{name}' '{prompt}'`` is safe whatever a
    prompt holds. An unknown ``{word}`` stays as it is."""
    out: list[str] = []
    quote = ""  # the quote the template is inside of at this point: "", "'" or '"'
    i = 0
    while i < len(template):
        c = template[i]
        end = template.find("}", i)
        key = template[i + 1:end] if c == "{" and end > i else None
        if key is not None and key in fields:
            out.append(_quoted(fields[key], quote))
            i = end + 1
            continue
        if c == "\\" and quote != "'" and i + 1 < len(template):
            out.append(template[i:i + 2])
            i += 2
            continue
        if c in "'\"" and quote in ("", c):
            quote = "" if quote == c else c
        out.append(c)
        i += 1
    return "".join(out)


def _quoted(value: str, quote: str) -> str:
    if quote == "'":
        return value.replace("'", "'\\''")
    if quote == '"':
        return "".join("\\" + c if c in '\\"$`' else c for c in value)
    return "'" + value.replace("'", "'\\''") + "'"


def environment(fields: Mapping[str, str]) -> dict[str, str]:
    """The operator's environment with the fields as ``OPENCLAW_EVENT``, ``OPENCLAW_SESSION``, …"""
    names = {"sessionId": "SESSION", "exitCode": "EXIT_CODE"}
    return {**os.environ, **{"OPENCLAW_" + names.get(k, k.upper()): v for k, v in fields.items()}}


class CommandHook:
    """``[notify] command``: run by ``sh -c`` with the fields filled in and in its environment."""

    name = "command"

    def __init__(self, template: str) -> None:
        self.template = template

    async def send(self, batch: AlertBatch, timeout_s: float) -> str:
        fields = batch.fields()
        proc = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", fill(self.template, fields), env=environment(fields), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        assert proc.stdout is not None
        said = asyncio.ensure_future(proc.stdout.read(1 << 16))
        try:
            await asyncio.wait_for(proc.wait(), timeout_s)
        except TimeoutError:
            raise HookFailed(f"still running after {timeout_s:g} s: ended") from None
        finally:  # what it left running in its group (all of it, on a timeout) ends with it
            _end_group(proc.pid)
            if proc.returncode is None:
                await proc.wait()
            output = await _drained(said)
        lines = output.strip()[-OUTPUT_CHARS:].splitlines()
        last = lines[-1] if lines else ""
        if proc.returncode != 0:
            raise HookFailed(f"exit status {proc.returncode}" + (f": {last}" if last else ""))
        return "exit status 0" + (f": {last}" if last else "")


async def _drained(reading: asyncio.Future[bytes]) -> str:
    """What the command printed: its group has ended, so the pipe closes (unless something that left the
    group still holds it: then what came so far is not worth waiting for)."""
    try:
        return (await asyncio.wait_for(asyncio.shield(reading), 1)).decode("utf-8", "replace")
    except TimeoutError:
        reading.cancel()
        return ""


def _end_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
