"""``openclaw-tui web`` at the HTTP level: nobody without the token gets in, a foreign page's WebSocket is
refused, every response carries the policy headers, and the command refuses what would expose the dashboard.

A real host and the real command on a free loopback port; requests by aiohttp's client, as any program would
send them (the browser's view is ``test_web_browser.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from ..support.tmuxpane import console_script
from ..support.webrig import WebRig

ROUTES = ["/", "/ws", "/ws/some-ticket", "/title", "/why/some-ticket", "/static/js/textual.js",
          "/static/css/xterm.css", "/assets/page.js", "/nowhere"]
HANDSHAKE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
             "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


async def test_every_route_refuses_a_request_without_the_token_and_starts_no_app(web: WebRig) -> None:
    async with aiohttp.ClientSession() as http:
        for route in ROUTES:
            for headers in ({}, HANDSHAKE, {"Cookie": f"openclaw-tui-web-{web.port}=wrong" + "x" * 40},
                            {"Authorization": "Bearer nope"}):
                async with http.get(web.base.rstrip("/") + route + "?token=not-it", headers=headers,
                                    allow_redirects=False) as response:
                    assert response.status == 401, (route, headers)
                    assert "printed when it started" in await response.text()
    await web.said(r"refused GET /nowhere from 127\.0\.0\.1: no valid token \(401\)")
    assert web.tabs() == []
    assert not any("tab 1 opened" in line for line in web.lines)
    assert all(web.token not in line for line in web.lines[1:])  # the token only in the first line
    assert web.token in web.lines[0] and len(web.token) >= 43  # 256 bits of URL-safe base64


async def test_the_first_visit_moves_the_token_into_a_cookie_that_later_requests_use(web: WebRig) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # unsafe: an IP's cookies
        async with http.get(web.url + "&fontsize=20", allow_redirects=False) as first:
            assert first.status == 303
            assert first.headers["Location"] == "/?fontsize=20"  # the token leaves the address
            cookie = first.headers["Set-Cookie"]
            assert f"openclaw-tui-web-{web.port}={web.token}" in cookie
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        for route in ("/", "/static/js/textual.js", "/assets/page.js", "/assets/page.css"):
            async with http.get(web.base.rstrip("/") + route) as later:  # the cookie jar sends the cookie
                assert later.status == 200, route
        async with http.get(web.base) as page:
            text = await page.text()
    assert "fonts.googleapis" not in text and "https://" not in text  # nothing from another host
    assert f'data-session-websocket-url="ws://127.0.0.1:{web.port}/ws/' in text  # with its dashboard's ticket
    await web.said(r"tab 1 opened")  # started with the page, so it loads while the page does


async def test_every_response_sends_the_policy_headers(web: WebRig) -> None:
    async with aiohttp.ClientSession() as http:
        for url in (web.base, web.url, web.base + "assets/page.js?token=" + web.token):
            async with http.get(url, allow_redirects=False) as response:
                csp = response.headers["Content-Security-Policy"]
                assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
                assert "http" not in csp  # no third-party source
                assert response.headers["X-Frame-Options"] == "DENY"
                assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_a_websocket_from_another_origin_is_refused_with_the_token(web: WebRig) -> None:
    own = f"http://127.0.0.1:{web.port}"
    async with aiohttp.ClientSession() as http:
        for origin in ("http://evil.example", f"http://localhost:{web.port}", "null", f"https://127.0.0.1:{web.port}"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{web.base}ws?token={web.token}", headers={"Origin": origin})
            assert refused.value.status == 403, origin
        with pytest.raises(aiohttp.WSServerHandshakeError) as none:
            await http.ws_connect(f"{web.base}ws?token={web.token}")  # no Origin at all: no browser's
        assert none.value.status == 403
        await web.said(r"refused GET /ws .*Origin 'http://evil\.example' is not this page's")
        assert web.tabs() == []
        async with http.ws_connect(f"{web.base}ws?token={web.token}&width=100&height=30",
                                   headers={"Origin": own}) as ws:  # the page's own origin gets its dashboard
            await web.said(r"tab 1 opened for 127\.0\.0\.1 \(pid \d+; 1 of 4 open\)")
            assert len(web.tabs()) == 1
            drawn = b""
            while b"openclaw-tui" not in drawn:  # the dashboard's header, drawn in the web driver's stream
                message = await ws.receive(timeout=60)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
        await web.said(r"tab 1 closed \(its dashboard exited with 0; 0 of 4 open\)")
    assert web.tabs() == []


def run_web(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*console_script(), "--config", "/dev/null", "web", *args], capture_output=True,
                          text=True, timeout=60, env=env, check=False)


def test_a_bind_beyond_loopback_needs_tls_or_insecure_and_suggests_ssh(tmp_path: Path) -> None:
    refused = run_web("--bind", "0.0.0.0", "--port", "0")
    assert refused.returncode == 2
    assert "needs --tls-cert and --tls-key" in refused.stderr and "--insecure" in refused.stderr
    assert "ssh -L" in refused.stderr
    half = run_web("--bind", "0.0.0.0", "--tls-cert", str(tmp_path / "c.pem"))
    assert half.returncode == 2 and "go together" in half.stderr
    bad = run_web("--bind", "0.0.0.0", "--tls-cert", str(tmp_path / "c.pem"), "--tls-key", str(tmp_path / "k.pem"))
    assert bad.returncode == 2 and "cannot use --tls-cert" in bad.stderr
    assert run_web("--max-tabs", "0").returncode == 2


def test_a_token_file_keeps_the_token_and_must_be_private(tmp_path: Path) -> None:
    from openclaw_tui.commands.web import kept_token

    kept = tmp_path / "token"
    token, problem = kept_token(kept)
    assert problem is None and token and len(token) >= 43
    assert kept.stat().st_mode & 0o777 == 0o600
    assert kept_token(kept) == (token, None)  # the next start serves the same URL
    kept.chmod(0o644)
    assert "may be read by others" in str(kept_token(kept)[1])
    short = tmp_path / "short"
    short.write_text("abc\n")
    short.chmod(0o600)
    assert "at least 22" in str(kept_token(short)[1])


@pytest.mark.parametrize("command", [["call", '{"tool": "process", "action": "list"}'], ["serve-import"],
                                     ["dashboard-import"]])
def test_the_terminal_dashboard_call_and_serve_never_import_aiohttp(command: list[str], sock_dir: Path) -> None:
    probe = {
        "serve-import": "import openclaw_tui.remote.server, openclaw_tui.toolhost, openclaw_tui.cli",
        "dashboard-import": "import openclaw_tui.ui.app, openclaw_tui.ui, openclaw_tui.remote.nodes, "
                            "openclaw_tui.commands, openclaw_tui.cli; openclaw_tui.cli.build_parser()",
    }.get(command[0], f"from openclaw_tui.cli import main; main({command!r})")
    code = probe + "\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] in "
    code += "('aiohttp', 'textual_serve', 'openclaw_tui.remote.web') or m.startswith('openclaw_tui.remote.web')))"
    env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock_dir / "none.sock")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                          check=False)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_the_import_probe_sees_aiohttp_when_web_is_loaded() -> None:
    code = ("import sys, openclaw_tui.remote.web as w; w.serve_web\n"
            "print('aiohttp' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.stdout.strip() == "True", proc.stderr
