"""``openclaw-tui web``: the dashboard in a browser, each tab an ``openclaw-tui attach`` of the serving host.

This module checks what was asked (where to listen, TLS, the token file) before anything is served; the
server is ``remote.web``, imported only here.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl

INSTALL = "pip install 'openclaw-tui[web]'"


def loopback(bind: str) -> bool:
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def kept_token(path: Path) -> tuple[str | None, str | None]:
    """``(token, problem)`` from ``--token-file``: the token it holds, or a new one written to it (mode 600)."""
    from openclaw_tui.remote.web import new_token, token_problem

    try:
        if path.exists():
            if path.stat().st_mode & 0o077:
                return None, f"the token file {path} may be read by others: chmod 600 it"
            token = path.read_text().strip()
            problem = token_problem(token)
            return (None, f"the token file {path}: {problem}") if problem else (token, None)
        token = new_token()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(token + "\n")
        return token, None
    except OSError as exc:
        return None, f"the token file {path}: {exc.strerror or exc}"


def tls_context(cert: str, key: str) -> tuple[ssl.SSLContext | None, str | None]:
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        return None, f"cannot use --tls-cert {cert} / --tls-key {key}: {exc}"
    return context, None


def run_web(config_path: str | None, bind: str, port: int, max_tabs: int, token_file: str | None,
            tls_cert: str | None, tls_key: str | None, insecure: bool) -> int:
    """Serve the dashboard until a signal; 2, with one line on stderr, when it cannot be served as asked."""
    from openclaw_tui.remote.web import address, listening_socket, log as _say, new_token

    if find_spec("textual_serve") is None:
        _say(f"needs textual-serve, which is not installed: {INSTALL}")
        return 2
    if not 1 <= max_tabs <= 64:
        _say(f"--max-tabs must be 1 to 64, not {max_tabs}")
        return 2
    if not 0 <= port <= 65535:
        _say(f"--port must be 0 (any free port) to 65535, not {port}")
        return 2
    if bool(tls_cert) != bool(tls_key):
        _say("--tls-cert and --tls-key go together")
        return 2
    ssh = f"ssh -L {port or 8765}:127.0.0.1:{port or 8765} THIS-HOST, then open the address on 127.0.0.1"
    if not loopback(bind):
        if not tls_cert and not insecure:
            _say(f"--bind {bind} is reachable from other machines: it needs --tls-cert and --tls-key (or "
                 f"--insecure, for a network you trust). Simpler and safer: keep the default 127.0.0.1 and use {ssh}")
            return 2
        _say(f"warning: --bind {bind} serves the dashboard to other machines"
             f"{'' if tls_cert else ', without TLS: the token crosses the network in the clear'}; "
             f"consider 127.0.0.1 and {ssh}")
    tls = None
    if tls_cert and tls_key:
        tls, problem = tls_context(tls_cert, tls_key)
        if problem:
            _say(problem)
            return 2
    token, problem = kept_token(Path(token_file)) if token_file else (new_token(), None)
    if problem or token is None:
        _say(str(problem))
        return 2
    try:
        sock = listening_socket(bind, port)
    except OSError as exc:
        _say(f"cannot listen on {bind} port {port}: {exc.strerror or exc}")
        return 2
    _say(f"serving the dashboard on {address(bind, sock.getsockname()[1], tls is not None)}?token={token} "
         f"(at most {max_tabs} tabs; Ctrl-C ends it, the sessions go on)")
    import asyncio

    from openclaw_tui.remote.web import WebOptions, serve_web  # aiohttp, from here on

    argv = [sys.executable, "-m", "openclaw_tui", *(["--config", config_path] if config_path else []), "attach"]
    options = WebOptions(token=token, bind=bind, port=port, max_tabs=max_tabs, tls=tls, config_path=config_path,
                         tab_argv=argv)
    return asyncio.run(serve_web(options, sock))
