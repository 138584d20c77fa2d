"""Refresh ``screenshots/``: the snapshot tests' captures, and a real first screen of ``openclaw-tui --demo``.

The snapshots are captures of the app with frozen clocks and ids (``tests/ui/test_snapshots.py``);
regenerate them with ``python -m pytest tests/ui/test_snapshots.py --snapshot-update`` and then run
``python tests/ui/make_screenshots.py``, which copies them under the names the README uses
(``test_screenshots.py`` checks the copies are current) and then runs the demo headless, as the operator
first sees it, into ``screenshots/demo.svg``. That one shows live numbers (``top``, runtimes), so no test
compares it.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__" / "test_snapshots"
SCREENSHOTS = ROOT / "screenshots"
DEMO = "demo.svg"
DEMO_SIZE = (120, 36)

NAMES = {
    "test_empty_dashboard.svg": "empty-dashboard.svg",
    "test_list_mixing_running_finished_failed_and_waiting.svg": "session-list.svg",
    "test_pty_session_with_colours.svg": "pty-session.svg",
    "test_send_keys_prompt_reporting_a_bad_token.svg": "send-keys.svg",
    "test_paste_dialog.svg": "paste-dialog.svg",
    "test_kill_confirmation.svg": "kill-confirmation.svg",
    "test_type_through_mode_shows_how_to_leave.svg": "type-through.svg",
}


async def demo_screenshot(path: Path) -> None:
    """The demo's first screen once its sessions have settled: three prompts waiting, the deploy failed."""
    sys.path.insert(0, str(ROOT))
    from openclaw_tui import ToolHost
    from openclaw_tui.ui import make_app
    from openclaw_tui.ui.header import SummaryHeader
    from tests.support.pilots import steady_cursors
    from tests.support.waiting import wait_for

    host = ToolHost(config_path="/dev/null")
    with steady_cursors():
        app = make_app(host, demo=True, socket="/run/user/1000/openclaw-tui/host.sock")  # as a user's would read
        async with app.run_test(size=DEMO_SIZE) as pilot:
            header = app.query_one(SummaryHeader)
            await wait_for(lambda: header.counts["waiting"] == 3 and header.counts["failed"] == 1, 60,
                           "the demo settled", pause=pilot.pause)
            await pilot.pause(2.5)  # top's second frame: its first has no CPU figures yet
            app.save_screenshot(path.name, str(path.parent))
    await host.close()


def main() -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    for snapshot, name in NAMES.items():
        shutil.copyfile(SNAPSHOTS / snapshot, SCREENSHOTS / name)
        print(f"screenshots/{name}")
    asyncio.run(demo_screenshot(SCREENSHOTS / DEMO))
    print(f"screenshots/{DEMO}")


if __name__ == "__main__":
    main()
