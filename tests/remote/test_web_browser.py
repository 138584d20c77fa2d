"""``openclaw-tui web`` in a real browser: headless Chromium, driven over the DevTools protocol.

A real host with an agent's PTY session waiting at a ``read`` prompt, the real ``openclaw-tui web`` on a free
loopback port, and Chromium opening the address it printed. What the page's terminal shows is read from its
xterm terminal; keys are the browser's own key events.
"""

from __future__ import annotations

import secrets
import struct
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from openclaw_tui.remote.web import WebOptions
from openclaw_tui.remote.web.webserve import SHUTDOWN_S, WebServer
from openclaw_tui.remote.web.webstart import listening_socket

from ..support.browser import VIEW, Browser, Tab, need_chromium
from ..support.tmuxpane import host_pid
from ..support.waiting import wait_for
from ..support.webrig import WebRig

PROMPT = "read -p 'Your name? ' n; echo \"hello $n\""
LONG = "sleep 300"  # on pipes: its stdin is closed, so it never waits for input


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    need_chromium()
    started = await Browser().start()
    try:
        yield started
    finally:
        await started.close()


async def opened(browser: Browser, web: WebRig) -> Tab:
    tab = await browser.open(web.url)
    await tab.loaded()
    return tab


async def test_type_through_in_the_browser_answers_the_prompt_and_closing_the_tab_detaches(
        browser: Browser, web: WebRig, tmp_path: Path) -> None:
    long = web.call({"tool": "exec", "command": LONG, "background": True})["details"]["sessionId"]
    sid = web.call({"tool": "exec", "command": PROMPT, "pty": True, "background": True})["details"]["sessionId"]
    host = host_pid(Path(web.env["OPENCLAW_TUI_SOCKET"]))
    tab = await opened(browser, web)
    screen = await tab.shows("Your name?")
    assert sid in screen and "waiting" in screen  # the list shows the session waiting, as in a terminal
    assert await tab.evaluate("location.search") == ""  # the token went into a cookie
    assert await tab.evaluate("document.cookie") == ""  # which the page's scripts cannot read
    await tab.wait_title("◆ 1 waiting · openclaw-tui")
    await tab.shows("t Type-through")  # the dashboard has the keyboard
    await tab.press("t")
    await tab.shows("TYPE-THROUGH")
    await tab.type("Ada")
    await tab.press("Enter")
    await tab.shows("hello Ada")
    polled = web.call({"tool": "process", "action": "poll", "sessionId": sid, "timeout": 20000})
    assert "hello Ada" in polled["text"]  # the agent's own poll has the answer
    await tab.press("ctrl+]")
    await tab.shows("t Type-through")
    await tab.wait_title("openclaw-tui")
    shot = tmp_path / "web.png"
    await tab.screenshot(shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", shot.read_bytes()[16:24]) == VIEW
    assert len(web.tabs()) == 1
    await tab.close()
    await web.said(r"tab 1 closed \(its dashboard exited with 0")
    assert web.tabs() == []
    listed = web.call({"tool": "process", "action": "list"})["details"]["sessions"]
    assert {s["sessionId"]: s["status"] for s in listed}[long] == "running"  # the sessions go on
    assert host_pid(Path(web.env["OPENCLAW_TUI_SOCKET"])) == host  # the same host: no second one, none ended
    web.call({"tool": "process", "action": "kill", "sessionId": long})


async def test_a_page_without_the_token_gets_401_and_another_sites_websocket_is_refused(
        browser: Browser, web: WebRig, tmp_path: Path) -> None:
    bare = await browser.open(web.base)
    await bare.loaded()
    assert await bare.evaluate("performance.getEntriesByType('navigation')[0].responseStatus") == 401
    assert "printed when it started" in await bare.evaluate("document.body.innerText")
    tab = await opened(browser, web)  # now the browser holds the cookie, as the operator's would
    await tab.shows("openclaw-tui")
    # another site's page, on another loopback port (same site for cookies: they ignore ports), tries the socket
    (tmp_path / "evil.html").write_text(
        "<script>const ws = new WebSocket('ws://127.0.0.1:%d/ws'); window.result = 'pending';"
        "ws.onopen = () => { window.result = 'opened'; }; ws.onclose = () => { if (window.result === 'pending') "
        "window.result = 'refused'; };</script>" % web.port)
    other = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert other.stdout is not None
        port = int(other.stdout.readline().split("port ")[1].split()[0])
        evil = await browser.open(f"http://127.0.0.1:{port}/evil.html")
        await evil.wait_value("window.result", "refused")
        await web.said(rf"refused GET /ws .*Origin 'http://127\.0\.0\.1:{port}' is not this page's .*\(403\)")
    finally:
        other.terminate()
        other.wait(30)
    assert len(web.tabs()) == 1  # the operator's tab alone


async def test_a_fifth_tab_is_refused_with_a_page_that_says_why(browser: Browser, web: WebRig) -> None:
    tabs = [await opened(browser, web) for _ in range(4)]
    for tab in tabs:
        await tab.shows("openclaw-tui")
    await web.said(r"4 of 4 open")
    fifth = await opened(browser, web)
    assert await fifth.evaluate("performance.getEntriesByType('navigation')[0].responseStatus") == 503
    said = await fifth.evaluate("document.body.innerText")
    assert "4 tabs already show the dashboard" in said and "--max-tabs 4" in said and "close one" in said
    await web.said(r"refused GET / from 127\.0\.0\.1: 4 tabs already open \(503\)")
    assert len(web.tabs()) == 4
    await tabs[0].close()
    await web.said(r"closed .*3 of 4 open")
    await fifth.reload()
    await fifth.shows("openclaw-tui")
    assert len(web.tabs()) == 4


MESSAGE = "document.querySelector('.closed-dialog .message').textContent"
BROKEN = "import sys; print('starting', file=sys.stderr); raise SystemExit('the dashboard broke: no terminal')"


async def test_a_tab_whose_dashboard_fails_says_why_in_the_page(browser: Browser) -> None:
    """The tab's own process fails (here a stand-in for the dashboard that writes to stderr and exits 1): the
    page names the status and the last words, in place of the plain "closed"."""
    said: list[str] = []
    token = secrets.token_urlsafe(16)
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = WebServer(WebOptions(token=token, tab_argv=[sys.executable, "-c", BROKEN]), port, said.append)
    server.serving.set()  # no host: the tab's process is no dashboard
    runner = web.AppRunner(server.app, access_log=None, shutdown_timeout=SHUTDOWN_S)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    try:
        tab = await browser.open(f"http://127.0.0.1:{port}/?token={token}")
        await tab.loaded()
        await tab.wait_value(MESSAGE, "The dashboard exited with status 1: starting the dashboard broke: no terminal")
        assert await tab.evaluate("document.body.classList.contains('-closed')")
        try:
            await wait_for(lambda: any("tab 1 closed (its dashboard exited with 1" in line for line in said), 30,
                           "the log to say so")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; it said {said}") from None
    finally:
        await server.close()
        await runner.cleanup()
