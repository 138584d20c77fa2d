"""``openclaw-tui web`` for tests: a real host on a private socket, and the real command serving it on a free
loopback port (``--port 0``), with its stderr log read line by line.

The first line says where it serves, with the token; :meth:`WebRig.said` waits for a later line (a tab
opened, a refusal). Agents' sessions are started with the real ``openclaw-tui call``. Closing ends the web
command with SIGTERM (it closes its tabs, whose dashboards detach) and then the host.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import psutil

from .tmuxpane import console_script, serve_host
from .waiting import wait_for


class WebRig:
    """A host and ``openclaw-tui web`` in front of it."""

    def __init__(self, sock_dir: Path, *web_args: str, idle_ms: int = 1000) -> None:
        self.env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(sock_dir / "host.sock"),
                    "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS": str(idle_ms)}
        self.env.pop("TMUX", None)
        self.web_args = web_args
        self.lines: list[str] = []
        self._host = contextlib.ExitStack()
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> WebRig:
        self._host.enter_context(serve_host(self.env, "/dev/null"))
        self.proc = subprocess.Popen([*console_script(), "--config", "/dev/null", "web", "--port", "0",
                                      *self.web_args], env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        first = self.proc.stderr.readline()
        self.lines.append(first)
        found = re.search(r"(http://[\d.]+:(\d+)/)\?token=(\S+)", first)
        assert found, first
        self.base, self.port, self.token = found.group(1), int(found.group(2)), found.group(3)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        return f"{self.base}?token={self.token}"

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    async def said(self, pattern: str, timeout: float = 60) -> str:
        """The first log line matching ``pattern`` (a regular expression), once it came."""
        return str(await wait_for(lambda: next((ln for ln in self.lines if re.search(pattern, ln)), None), timeout,
                                  f"openclaw-tui web to log {pattern!r}; it logged {self.lines}"))

    def tabs(self) -> list[psutil.Process]:
        """The web command's app processes (one per open tab)."""
        assert self.proc is not None
        return [p for p in psutil.Process(self.proc.pid).children() if p.is_running()]

    def call(self, request: dict[str, Any], agent: str = "agent") -> dict[str, Any]:
        proc = subprocess.run([sys.executable, "-m", "openclaw_tui", "call", json.dumps(request), "--agent", agent],
                              env=self.env, capture_output=True, text=True, timeout=60, check=False)
        return dict(json.loads(proc.stdout))

    def stop_web(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    def close(self) -> None:
        try:
            self.stop_web()
        finally:
            self._host.close()
