"""The README's screenshots are the snapshot tests' captures, copied by ``make_screenshots.py``."""

from __future__ import annotations

from .make_screenshots import NAMES, SCREENSHOTS, SNAPSHOTS


def test_screenshots_are_the_current_snapshots():
    stale = [name for snap, name in NAMES.items()
             if (SCREENSHOTS / name).read_bytes() != (SNAPSHOTS / snap).read_bytes()]
    assert not stale, f"run python tests/ui/make_screenshots.py to refresh: {stale}"
