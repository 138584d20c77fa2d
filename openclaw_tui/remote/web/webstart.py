"""What ``openclaw-tui web`` settles before its server loads: the token, where it listens, the address it
prints, its log. The socket is taken before aiohttp is even imported, so the address is out (and a browser's
first request waits in the socket's backlog) while the server loads."""

from __future__ import annotations

import secrets
import socket
import sys

TOKEN_BYTES = 32  # 256 bits, printed once as 43 URL-safe characters
MIN_TOKEN_CHARS = 22  # what 128 bits take in URL-safe base64: a kept token file must hold at least this much
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def log(line: str) -> None:
    """One line of the command's log, on stderr (as ``serve.log`` has the host's)."""
    print(f"openclaw-tui web: {line}", file=sys.stderr, flush=True)


def listening_socket(bind: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    return socket.create_server((bind, port), family=family)


def address(bind: str, port: int, secure: bool) -> str:
    """The URL a person opens (the token is added by the caller)."""
    host = socket.gethostname() if bind in ("0.0.0.0", "::") else bind
    return f"{'https' if secure else 'http'}://{f'[{host}]' if ':' in host else host}:{port}/"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_problem(token: str) -> str | None:
    """Why ``token`` (read from a token file) cannot guard the dashboard, or None."""
    if len(token) < MIN_TOKEN_CHARS or not set(token) <= TOKEN_CHARS:
        return (f"a token must be at least {MIN_TOKEN_CHARS} URL-safe characters (A-Z a-z 0-9 - _), "
                "128 bits or more")
    return None
