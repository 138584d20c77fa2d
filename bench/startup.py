"""Startup of the dashboard (issue 13): the time from starting ``openclaw-tui`` to the first list drawn.

The real console script runs in a tmux pane of its own at 120x40, on a private socket and state directory.
The clock starts just before tmux starts the pane and stops when a capture of the pane shows the session
list holding the session that the host has (polled every 10 ms, so a figure is at most that late). Also
printed: when the first frame showed (the header drawn, the host possibly not yet answering).

- attached: a host already serves (``openclaw-tui serve``, one agent session running).
- autostart: nothing serves; the dashboard starts ``openclaw-tui serve`` in the background, which restores
  from its journal a finished session of an earlier host, and the list shows it. The host is ended after
  each run, so each run starts one.

- web: a host already serves, as for attached, and a browser (headless Chromium) is open; the clock starts
  just before ``openclaw-tui web`` starts and stops when the page it printed shows the session in its list
  (the terminal's text read from the page's xterm, polled as fast as DevTools answers). Its first frame is
  the first dashboard text on the page. Skipped where Chromium is missing.

Target: <= 1 s to the first list in a terminal, in both cases; <= 1.5 s in the browser (PERF P20). Run:
``python bench/startup.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from tests.support.browser import CHROMIUM, Browser  # noqa: E402
from tests.support.tmuxpane import end_host  # the host a dashboard started outlives it: ended by its pid

POLL_S = 0.01
TARGET_S = 1.0
WEB_TARGET_S = 1.5


class Rig:
    """A private socket, state directory and tmux server for one benchmark."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-startup-"))
        (self.folder / "sock").mkdir(mode=0o700)  # a folder of its own: sandboxed runs may not work beside it
        self.sock = self.folder / "sock" / "host.sock"
        self.env = {**os.environ, "OPENCLAW_TUI_SOCKET": str(self.sock), "XDG_STATE_HOME": str(self.folder / "state"),
                    "TERM": "xterm-256color"}
        self.env.pop("TMUX", None)
        self.tmux: list[str] = []
        self.script = shutil.which("openclaw-tui") or f"{sys.executable} -m openclaw_tui.cli"

    def call(self, request: dict[str, object]) -> dict[str, object]:
        return json.loads(subprocess.run([sys.executable, "-m", "openclaw_tui", "call", json.dumps(request)],
                                         env=self.env, capture_output=True, text=True, timeout=60,
                                         check=False).stdout)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "s"], capture_output=True, text=True,
                              check=False).stdout

    def dashboard(self, shows: str) -> tuple[float, float]:
        """Start the dashboard; seconds to its first frame and to a list showing ``shows``. Closes it after."""
        self.tmux = ["tmux", "-L", f"bench-startup-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]  # a server a run
        began = time.monotonic()
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
                        f"exec {self.script} --config /dev/null"], env=self.env, check=True)
        first = None
        try:
            while True:
                screen, now = self.screen(), time.monotonic() - began
                if first is None and "openclaw-tui" in screen:
                    first = now
                if shows in screen:
                    return first or now, now
                if now > 60:
                    raise TimeoutError(f"the list never showed {shows}:\n{screen}")
                time.sleep(POLL_S)
        finally:
            subprocess.run([*self.tmux, "kill-server"], check=False)  # the terminal goes: the dashboard detaches

    def end_host(self) -> None:
        end_host(self.sock)

    def close(self) -> None:
        self.end_host()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_serve(rig: Rig) -> subprocess.Popen[str]:
    serve = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "--config", "/dev/null", "serve"], env=rig.env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert serve.stdout is not None and "serving" in serve.stdout.readline()
    return serve


def attached(runs: int) -> list[tuple[float, float]]:
    rig = Rig()
    serve = start_serve(rig)
    try:
        sid = str(rig.call({"tool": "exec", "command": "sleep 600", "background": True, "workdir": "/tmp"})
                  ["details"]["sessionId"])  # type: ignore[index]
        return [rig.dashboard(sid) for _ in range(runs)]
    finally:
        serve.terminate()
        serve.wait(30)
        rig.close()


def autostart(runs: int) -> list[tuple[float, float]]:
    rig = Rig()
    try:
        serve = start_serve(rig)  # an earlier host, whose finished session the next ones restore
        sid = str(rig.call({"tool": "exec", "command": "echo from-an-earlier-host", "background": True,
                            "workdir": "/tmp"})["details"]["sessionId"])  # type: ignore[index]
        time.sleep(0.5)
        serve.terminate()
        serve.wait(30)
        times = []
        for _ in range(runs):
            times.append(rig.dashboard(sid))
            rig.end_host()
        return times
    finally:
        rig.close()


async def web_once(rig: Rig, browser: Browser, shows: str) -> tuple[float, float]:
    """Start ``openclaw-tui web``, open its page; seconds to its first frame and to a list showing ``shows``."""
    began = time.monotonic()
    web = subprocess.Popen([*rig.script.split(), "--config", "/dev/null", "web", "--port", "0"], env=rig.env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert web.stderr is not None
        url = (await asyncio.to_thread(web.stderr.readline)).split(" on ", 1)[1].split()[0]
        tab = await browser.open(url)
        first = None
        while True:
            screen, now = await tab.screen(), time.monotonic() - began
            if first is None and "openclaw-tui" in screen:
                first = now
            if shows in screen:
                await tab.close()
                return first or now, now
            if now > 60:
                raise TimeoutError(f"the page never showed {shows}:\n{screen}")
    finally:
        web.terminate()
        web.wait(30)


def web(runs: int) -> list[tuple[float, float]]:
    rig = Rig()
    serve = start_serve(rig)

    async def measure() -> list[tuple[float, float]]:
        browser = await Browser().start()
        try:
            return [await web_once(rig, browser, sid) for _ in range(runs)]
        finally:
            await browser.close()

    try:
        sid = str(rig.call({"tool": "exec", "command": "sleep 600", "background": True, "workdir": "/tmp"})
                  ["details"]["sessionId"])  # type: ignore[index]
        return asyncio.run(measure())
    finally:
        serve.terminate()
        serve.wait(30)
        rig.close()


def report(name: str, times: list[tuple[float, float]], target: float = TARGET_S) -> None:
    lists = [t for _, t in times]
    print(f"{name:>10}: first list {' '.join(f'{t:.2f}' for t in lists)} s; median {statistics.median(lists):.2f}, "
          f"max {max(lists):.2f} (target <= {target:g} s); first frame median "
          f"{statistics.median(f for f, _ in times):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    report("attached", attached(args.runs))
    report("autostart", autostart(args.runs))
    if os.access(CHROMIUM, os.X_OK):
        report("web", web(args.runs), WEB_TARGET_S)
    else:
        print("       web: skipped, no Chromium here")


if __name__ == "__main__":
    main()
