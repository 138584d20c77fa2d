"""Example sessions for ``openclaw-tui --demo``: something real to watch and rescue at once.

Each is a real command started through the ``exec`` tool under the agent name ``demo``, from scripts written
to ``$TMPDIR/openclaw-tui-demo-<uid>``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from openclaw_tui.remote.mirror import HostView
from openclaw_tui.remote.wire import ensure_private_dir

AGENT = "demo"

SCRIPTS = {
    "build.sh": """\
for i in $(seq 1 120); do
  printf '\\033[32m[%3d%%]\\033[0m \\033[1mCC\\033[0m src/module_%03d.c\\n' $((i * 100 / 120)) "$i"
  if [ $((i % 17)) -eq 0 ]; then echo "src/module_$i.c:42: warning: unused variable 'tmp'" >&2; fi
  sleep 0.5
done
echo 'Build finished: 120 objects'
""",
    "deploy.sh": """\
echo 'deploying build 1.4.2 to staging...'
sleep 3
echo 'checking credentials' >&2
deploy-tool --push
""",
    "configure.sh": """\
read -r -p 'Overwrite existing config? [y/N] ' answer
echo "answer: ${answer:-N}"
""",
    "login.py": """\
import getpass
secret = getpass.getpass("Password for deploy@prod: ")
print("thanks, got", len(secret), "characters")
""",
    "clock.py": """\
import curses, time

def main(win):
    curses.curs_set(0)
    win.timeout(1000)
    while True:
        win.erase()
        win.box()
        win.addstr(1, 2, "full-screen demo: press q (in type-through mode) to quit")
        win.addstr(3, 2, time.strftime("%H:%M:%S"), curses.A_BOLD)
        win.refresh()
        if win.getch() == ord("q"):
            break

curses.wrapper(main)
""",
}


def demo_calls(folder: str) -> list[dict[str, object]]:
    """The ``exec`` calls the demo makes, oldest first (the list shows the full-screen one on top)."""
    python = sys.executable
    fullscreen = "top -d 2" if shutil.which("top") else f"{python} clock.py"
    return [
        {"command": "bash build.sh", "pty": False},
        {"command": "bash deploy.sh", "pty": False},
        {"command": "bash configure.sh", "pty": True},
        {"command": f"{python} login.py", "pty": True},
        {"command": f"{python} -q", "pty": True},
        {"command": fullscreen, "pty": True},
    ]


def demo_folder() -> Path:
    """Where the demo's scripts live: a folder of this user's in the temporary directory."""
    return Path(tempfile.gettempdir()) / f"openclaw-tui-demo-{os.getuid()}"


def write_scripts(folder: Path | None = None) -> str:
    """Write the scripts (again) to ``folder`` (default :func:`demo_folder`) and return its path."""
    folder = folder or demo_folder()
    ensure_private_dir(folder / "build.sh")  # made 0700, or refused when someone else's or open to others
    for name, text in SCRIPTS.items():
        # a new file put in place, never one rewritten: bash reads a running script as it goes
        fresh = folder / f".{name}.{os.getpid()}.new"  # two dashboards may write at once
        fresh.write_text(text, encoding="utf-8")
        os.replace(fresh, folder / name)
    return str(folder)


async def start_demo(host: HostView, folder: str, on_started: Callable[[list[str]], None] | None = None,
                     on_refused: Callable[[str], None] | None = None) -> list[str]:
    """Start the demo sessions in ``folder`` (see :func:`write_scripts`); returns their ids.

    ``on_started`` hears of each id as soon as its session runs (the dashboard expects their prompts);
    ``on_refused`` of each run the host refused, with the host's reason.
    """
    ids = []
    for call in demo_calls(folder):
        res = await host.call({"tool": "exec", "background": True, "workdir": folder, **call}, agent=AGENT)
        if res["details"].get("sessionId"):
            ids.append(res["details"]["sessionId"])
            if on_started is not None:
                on_started(ids[-1:])
        elif on_refused is not None:
            on_refused(f"{call['command']}: {res['text']}")
    return ids
