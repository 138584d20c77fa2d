"""Who may reach the served dashboard: the token (in the first URL, then a cookie), the WebSocket's Origin, and
the headers every response carries.

A refusal is answered before any handler runs, so a request without the token never starts an app process,
and each one is logged as one line (the token never is: only the path, never the query).
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from html import escape

from aiohttp import web

# No third-party source anywhere: the client, its stylesheet and its fonts are served from here. Textual's
# client injects <style> elements as it starts (xterm's own CSS), which needs 'unsafe-inline' for styles;
# scripts are only files of this origin, and 'self' covers the page's own ws:/wss: origin.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "font-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; "
                           "form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def refusal_page(status: int, title: str, why: str) -> web.Response:
    body = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)}</title></head>"
            f"<body><h1>{escape(title)}</h1><p>{escape(why)}</p></body></html>")
    return web.Response(status=status, text=body, content_type="text/html")


class WebGate:
    """The token and Origin checks, as aiohttp middleware, with the cookie that spares later URLs the token.

    Args:
        token: the secret every request must show (query ``token``, the cookie, or ``Authorization: Bearer``).
        port: the served port, in the cookie's name: cookies are per host, not per port, so two servers on one
            machine must not overwrite each other's.
        secure: served over TLS (the cookie is then ``Secure``, and the page's origin ``https``).
        log: where each refusal is written, one line.
    """

    def __init__(self, token: str, port: int, secure: bool, log: Callable[[str], None]) -> None:
        self._token = token.encode()
        self.cookie = f"openclaw-tui-web-{port}"
        self.secure = secure
        self.log = log

    def shows_token(self, request: web.Request) -> bool:
        bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
        for given in (request.query.get("token"), request.cookies.get(self.cookie), bearer):
            if given and hmac.compare_digest(given.encode(), self._token):
                return True
        return False

    def origin_problem(self, request: web.Request) -> str | None:
        """Why a WebSocket's ``Origin`` is not the page's own (None when it is). A browser always sends one;
        a page elsewhere that opens this socket sends its own."""
        origin = request.headers.get("Origin")
        own = f"{'https' if self.secure else 'http'}://{request.host}"
        if origin is None:
            return "no Origin"
        if origin.lower() != own.lower():
            return f"Origin {origin!r} is not this page's ({own})"
        return None

    def refuse(self, request: web.Request, status: int, why: str) -> None:
        self.log(f"refused {request.method} {request.path} from {request.remote}: {why} ({status})")

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.shows_token(request):
            self.refuse(request, 401, "no valid token")
            return refusal_page(401, "openclaw-tui: the token is missing", "Open the address that "
                                "`openclaw-tui web` printed when it started (it ends in ?token=...).")
        if request.path.startswith("/ws") and (problem := self.origin_problem(request)):
            self.refuse(request, 403, problem)
            return refusal_page(403, "openclaw-tui: another site's page", problem)
        if "token" in request.query and request.method == "GET" and request.path == "/":
            # the first visit: keep the token in a cookie, and out of the address bar and the history
            query = {k: v for k, v in request.query.items() if k != "token"}
            response = web.Response(status=303, headers={"Location": str(request.rel_url.with_query(query))})
            response.set_cookie(self.cookie, self._token.decode(), httponly=True, samesite="Strict",
                                secure=self.secure, path="/")
            return response
        return await handler(request)


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, refusals and the WebSocket's handshake included (an ``on_response_prepare`` hook)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
