"""Make ``screenshots/web.png``: the dashboard as headless Chromium shows ``openclaw-tui web``'s page.

A host of its own with a few agents' sessions (a build that failed, one still running, a question waiting
for its answer), the real ``openclaw-tui web`` on a free loopback port, and Chromium at 1280x800 opening
the address it printed. Run: ``python tests/remote/make_web_screenshot.py``.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.browser import Browser  # noqa: E402
from tests.support.webrig import WebRig  # noqa: E402

SESSIONS = [
    ("deployer", "echo 'deploying to staging'; sleep 1; echo 'error: health check failed' >&2; exit 3", False),
    ("builder", "for i in $(seq 1 400); do echo \"compiling module $i\"; sleep 2; done", False),
    ("installer", "printf 'Overwrite existing config? [y/N] '; read answer; echo \"answer: $answer\"", True),
]


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="oc-", dir="/tmp"))
    web = WebRig(folder).start()
    browser = await Browser().start()
    try:
        for agent, command, pty in SESSIONS:
            web.call({"tool": "exec", "command": command, "pty": pty, "background": True, "workdir": "/tmp"},
                     agent=agent)
        tab = await browser.open(web.url)
        await tab.loaded()
        await tab.shows("Overwrite existing config?")
        await tab.wait_title("◆ 1 waiting · openclaw-tui")
        await tab.shows("t Type-through")
        await tab.screenshot(ROOT / "screenshots" / "web.png")
    finally:  # the host ends its sessions as it goes
        await browser.close()
        web.close()
        shutil.rmtree(folder, ignore_errors=True)
    print(ROOT / "screenshots" / "web.png")


if __name__ == "__main__":
    asyncio.run(main())
