"""A dashboard in a real terminal: the real console script in a tmux pane of a tmux server of its own.

Tests read only what the pane shows, what tmux holds and what is on disk. The dashboard starts a host in
the background when none serves, and that host outlives it by design: :func:`end_host` ends it (tests call
it once they are done). :class:`Dashboard` also gives the dashboard a private host socket (in a folder
of its own: sandboxed runs are refused a workdir beside it), a private temporary folder (``TMPDIR``, where
the demo writes its scripts) and a private runtime folder (where copies are saved, and the notice shows
their path), the socket and the runtime folder in a short folder under ``/tmp``; it reaches its host as an
agent would. Both run the ``openclaw-tui`` beside the interpreter running the tests.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

from openclaw_tui.remote.wire import protocol as p

from .hosts import socket_folder


class Tmux:
    def __init__(self) -> None:
        self.socket = f"openclaw-e2e-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> str:
        return self.proc(*args).stdout

    def proc(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              check=False, capture_output=True, text=True, timeout=20)

    def wait_closed(self, timeout: float = 30.0) -> None:
        """Wait until the pane's program exited (tmux then ends the session and the server)."""
        deadline = time.monotonic() + timeout
        while self.proc("has-session", "-t", "dash").returncode == 0:
            if time.monotonic() > deadline:
                raise AssertionError(f"the dashboard did not exit; the pane shows:\n{self.capture()}")
            time.sleep(0.1)

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", "dash")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "dash", *(["-l"] if literal else []), *keys)

    def wait(self, predicate: Callable[[str], bool], what: str, timeout: float = 60.0,
             retry: Callable[[], None] | None = None) -> str:
        """Poll the pane until ``predicate``; ``retry`` is called every few seconds (a key the app was
        still too busy starting up to take)."""
        deadline = time.monotonic() + timeout
        next_retry = time.monotonic() + 3
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture()
            if predicate(screen):
                return screen
            if retry is not None and time.monotonic() > next_retry:
                retry()
                next_retry = time.monotonic() + 3
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the pane shows:\n{screen}")



@contextmanager
def serve_host(env: dict[str, str], config: Path | str) -> Iterator[None]:
    """A real ``openclaw-tui serve`` with ``env`` (its socket) and ``config``, ended when the block ends."""
    serve = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "--config", str(config), "serve"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert serve.stdout is not None and "serving" in serve.stdout.readline()
        yield
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(30)
        if serve.stdout is not None:
            serve.stdout.close()


def console_script() -> list[str]:
    """The ``openclaw-tui`` console script beside the interpreter running the tests, else that interpreter
    running the CLI: never another install found on ``PATH`` (an older release, another checkout's venv),
    and never a test that passes only in an activated venv."""
    script = shutil.which("openclaw-tui", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "openclaw_tui.cli"]


def dashboard_command() -> str:
    return f"env OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS=1000 {shlex.join(console_script())} --config /dev/null"



def host_pid(sock: Path) -> int | None:
    """The pid of the host serving ``sock``, as it says in its hello; None when none serves. Blocking, with no
    event loop of its own, so it serves sync tests and benchmarks run from a loop alike."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(30)
        try:
            conn.connect(str(sock))
        except (FileNotFoundError, ConnectionRefusedError):
            return None
        conn.sendall(p.request(1, "hello", {"client": "a test ending its host"}))
        with conn.makefile("rb") as answers:
            for line in answers:
                answer = json.loads(line)
                if answer.get("id") == 1:
                    return int(answer["result"]["pid"])
    return None


def end_host(sock: Path, timeout: float = 30.0) -> None:
    """End the host serving ``sock`` (SIGTERM, then wait until it is gone), if one serves."""
    pid = host_pid(sock)
    if pid is None:
        return
    host = psutil.Process(pid)
    host.terminate()
    host.wait(timeout)


class Dashboard(Tmux):
    """A dashboard in its own tmux server; ``call`` reaches its host as an agent would; ``open`` runs it again
    once it exited; :meth:`end_host` ends the host it started."""

    def __init__(self, tmp_path: Path, size: tuple[int, int], demo: bool = False) -> None:
        super().__init__()
        short = socket_folder()  # the socket, and copies whose path the notice line shows whole
        self.sock = short / "sock" / "host.sock"  # a folder of its own: sandboxed runs cannot see it
        self.tmp = tmp_path / "tmp"
        self.runtime = short / "run"
        for folder in (self.sock.parent, self.tmp, self.runtime):
            folder.mkdir(mode=0o700)
        self.env = {**os.environ, "TERM": "xterm-256color", "OPENCLAW_TUI_SOCKET": str(self.sock),
                    "TMPDIR": str(self.tmp), "XDG_RUNTIME_DIR": str(self.runtime)}
        self.env.pop("TMUX", None)
        self.size, self.demo = size, demo
        self.open()

    def open(self) -> None:
        command = "exec " + dashboard_command() + (" --demo" if self.demo else "")
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "dash",
                        "-x", str(self.size[0]), "-y", str(self.size[1]), command], check=True, env=self.env,
                       timeout=20)
        self.pid = int(self.run("list-panes", "-t", "dash", "-F", "#{pane_pid}").strip())

    def end_host(self) -> None:
        """End the host the dashboard started, and remove the folder of its socket and copies."""
        end_host(self.sock)
        shutil.rmtree(self.sock.parent.parent, ignore_errors=True)

    def wait_attached(self, timeout: float = 60.0) -> str:
        """Wait until the dashboard is up, its host answers, and the header no longer says it is connecting."""
        return self.wait(lambda s: "openclaw-tui" in s and "connecting" not in s.splitlines()[0]
                         and host_pid(self.sock) is not None, "the dashboard attached to its host", timeout)

    def call(self, tool_call: dict[str, object], agent: str = "agent") -> dict[str, object]:
        proc = subprocess.run([*console_script(), "call", json.dumps(tool_call), "--agent", agent],
                              env=self.env, capture_output=True, text=True, timeout=30, check=False)
        return json.loads(proc.stdout)

