"""A real browser for tests: Debian's headless Chromium, driven over the DevTools protocol by a small client
of our own (aiohttp's WebSocket client, which the ``web`` extra brings).

:class:`Browser` starts Chromium in a session of its own with a fresh profile and the flags this machine needs
(no sandbox as root, no GPU, no background networking: a closed network refuses those connections), and ends
its whole process group when closed. :class:`Tab` is one page: evaluate script, type keys, read what its
xterm terminal shows, take a screenshot. The terminal draws on a canvas, so its text is read from the xterm
``Terminal`` object itself, found among the page's objects (``Runtime.queryObjects``): the page needs no hook
for tests.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import aiohttp
import pytest

VIEW = (1280, 800)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio", "--remote-debugging-port=0", "--window-size=1280,800"]

# The public xterm Terminal among the page's objects: it has a buffer of lines, and paste().
FIND_JS = """function () {
  return this.find(o => { try { return o && o.buffer && o.buffer.active &&
      typeof o.buffer.active.getLine === 'function' && typeof o.paste === 'function'; } catch (e) { return false; } });
}"""
# Its rows as text.
ROWS_JS = """function () {
  const b = this.buffer.active, rows = [];
  for (let y = 0; y < this.rows; y++) { const l = b.getLine(b.viewportY + y); rows.push(l ? l.translateToString(true) : ''); }
  return rows.join('\\n');
}"""

KEYS = {  # DevTools key events for the named keys a test presses (xterm reads keyCode, as browsers send it)
    "Enter": {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"},
    "Escape": {"key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27},
    "Down": {"key": "ArrowDown", "code": "ArrowDown", "windowsVirtualKeyCode": 40},
    "Up": {"key": "ArrowUp", "code": "ArrowUp", "windowsVirtualKeyCode": 38},
    "ctrl+]": {"key": "]", "code": "BracketRight", "windowsVirtualKeyCode": 221, "modifiers": 2},
}


def need_chromium() -> None:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("no Chromium here (Debian's chromium package, which .ci/run installs)")


class Browser:
    """Headless Chromium and its DevTools connection."""

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="openclaw-chromium-"))
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.proc: subprocess.Popen[str] | None = None

    async def start(self) -> Browser:
        self.proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        url = await asyncio.wait_for(asyncio.to_thread(self._devtools_url), 60)
        self._http = aiohttp.ClientSession()
        self._ws = await self._http.ws_connect(url, max_msg_size=0)
        self._reader = asyncio.ensure_future(self._read())
        return self

    def _devtools_url(self) -> str:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            if found := re.search(r"ws://\S+", line):
                # Chromium goes on writing there: read it away, so it never blocks on a full pipe
                stream = self.proc.stderr
                threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()
                return found.group(0)
        raise RuntimeError("Chromium ended before it offered DevTools")

    async def _read(self) -> None:
        async for message in self._ws:
            reply = json.loads(message.data)
            waiter = self._waiting.pop(reply.get("id", -1), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(reply)

    async def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        waiter = self._waiting[number] = asyncio.get_running_loop().create_future()
        await self._ws.send_json({"id": number, "method": method, "params": params,
                                  **({"sessionId": session} if session else {})})
        reply = await asyncio.wait_for(waiter, 60)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return dict(reply["result"])

    async def open(self, url: str) -> Tab:
        target = (await self.send("Target.createTarget", url="about:blank"))["targetId"]
        session = (await self.send("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        tab = Tab(self, target, session)
        await self.send("Page.enable", session)
        await self.send("Runtime.enable", session)
        await self.send("Emulation.setDeviceMetricsOverride", session, width=VIEW[0], height=VIEW[1],
                        deviceScaleFactor=1, mobile=False)  # a page of one size, screenshots too
        await self.send("Page.navigate", session, url=url)
        return tab

    async def close(self) -> None:
        if hasattr(self, "_ws"):
            self._reader.cancel()
            await self._ws.close()
            await self._http.close()
        if self.proc is not None and self.proc.poll() is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    await asyncio.to_thread(self.proc.wait, 10)
                    break
                except subprocess.TimeoutExpired:
                    continue
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    """One page of the browser."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session
        self._terminal: str | None = None

    async def evaluate(self, expression: str) -> Any:
        reply = await self.browser.send("Runtime.evaluate", self.session, expression=expression, returnByValue=True,
                                        awaitPromise=True)
        return reply["result"].get("value")

    async def loaded(self) -> None:
        await wait_for_async(lambda: self.evaluate("document.readyState === 'complete'"), "the page to load")

    async def screen(self) -> str:
        """What the page's terminal shows now, row by row ('' before it exists)."""
        if self._terminal is None:
            proto = await self.browser.send("Runtime.evaluate", self.session, expression="Object.prototype")
            objects = await self.browser.send("Runtime.queryObjects", self.session, objectGroup="scan",
                                              prototypeObjectId=proto["result"]["objectId"])
            found = await self.browser.send("Runtime.callFunctionOn", self.session, objectGroup="terminal",
                                            objectId=objects["objects"]["objectId"], functionDeclaration=FIND_JS)
            await self.browser.send("Runtime.releaseObjectGroup", self.session, objectGroup="scan")
            self._terminal = found["result"].get("objectId")  # kept: finding it is a walk of the whole heap
            if self._terminal is None:
                return ""
        try:
            reply = await self.browser.send("Runtime.callFunctionOn", self.session, objectId=self._terminal,
                                            functionDeclaration=ROWS_JS, returnByValue=True)
        except RuntimeError:  # the page was loaded again: its terminal is a new one
            self._terminal = None
            return ""
        return str(reply["result"].get("value") or "")

    async def shows(self, text: str, timeout: float = 60) -> str:
        """The screen once it holds ``text``."""
        screen = ""

        async def look() -> bool:
            nonlocal screen
            screen = await self.screen()
            return text in screen

        try:
            await wait_for_async(look, f"the page to show {text!r}", timeout)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; it shows:\n{screen}") from None
        return screen

    async def wait_value(self, expression: str, expected: Any, timeout: float = 60) -> None:
        async def same() -> bool:
            return bool(await self.evaluate(expression) == expected)

        await wait_for_async(same, f"{expression} to be {expected!r}", timeout)

    async def wait_title(self, title: str, timeout: float = 60) -> None:
        await self.wait_value("document.title", title, timeout)

    async def reload(self) -> None:
        self._terminal = None
        await self.browser.send("Page.reload", self.session)
        await self.loaded()

    async def press(self, key: str) -> None:
        """A named key of :data:`KEYS`, or one character."""
        event = KEYS.get(key) or {"key": key, "text": key, "windowsVirtualKeyCode": ord(key.upper())}
        await self.browser.send("Input.dispatchKeyEvent", self.session, type="keyDown", **event)
        await self.browser.send("Input.dispatchKeyEvent", self.session, type="keyUp",
                                **{k: v for k, v in event.items() if k != "text"})

    async def type(self, text: str) -> None:
        for char in text:
            await self.press(char)

    async def screenshot(self, path: Path) -> None:
        shot = await self.browser.send("Page.captureScreenshot", self.session, format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        await self.browser.send("Target.closeTarget", targetId=self.target)


async def wait_for_async(predicate: Any, what: str, timeout: float = 60) -> Any:
    """``waiting.wait_for`` for a coroutine predicate."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if value := await predicate():
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)
