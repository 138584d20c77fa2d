"""Copy the dashboard's snapshot SVGs to ``screenshots/`` under the names the README uses.

The snapshots are real captures of the app (``tests/ui/test_snapshots.py``); regenerate them with
``python -m pytest tests/ui/test_snapshots.py --snapshot-update`` and then run
``python tests/ui/make_screenshots.py``. ``test_screenshots.py`` checks the copies are current.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__" / "test_snapshots"
SCREENSHOTS = ROOT / "screenshots"

NAMES = {
    "test_empty_dashboard.svg": "empty-dashboard.svg",
    "test_list_mixing_running_finished_failed_and_waiting.svg": "session-list.svg",
    "test_pty_session_with_colours.svg": "pty-session.svg",
    "test_send_keys_prompt_reporting_a_bad_token.svg": "send-keys.svg",
    "test_paste_dialog.svg": "paste-dialog.svg",
    "test_kill_confirmation.svg": "kill-confirmation.svg",
    "test_type_through_mode_shows_how_to_leave.svg": "type-through.svg",
}


def main() -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    for snapshot, name in NAMES.items():
        shutil.copyfile(SNAPSHOTS / snapshot, SCREENSHOTS / name)
        print(f"screenshots/{name}")


if __name__ == "__main__":
    main()
