"""Reading a session's output in a real terminal (tmux): scrolling back to line 1 of 300, stepping through a
word's 14 matches, zooming, copying one line selected with a mouse drag, and tiling two sessions, as an
operator does it.

The mouse drag is sent as the SGR reports a terminal writes (``send-keys -H``): the dashboard asked tmux for
them (modes 1003 and 1006), so they reach it exactly as a real drag would.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from ..support.tmuxpane import Dashboard

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

NUMBERED = ("for i in $(seq 1 300); do if [ $((i % 21)) = 0 ]; then printf 'line %d \\033[31merror\\033[0m here\\n' $i; "
            "else echo \"line $i\"; fi; done; sleep 120")


@pytest.fixture
def dashboard(tmp_path) -> Iterator[Dashboard]:
    d = Dashboard(tmp_path, (120, 40))
    try:
        yield d
    finally:
        d.run("kill-server")
        d.end_host()


def lines(screen: str) -> list[str]:
    return [line.rstrip() for line in screen.splitlines()]


def mouse(dashboard: Dashboard, button: int, x: int, y: int, final: str) -> None:
    """One SGR mouse report at 1-based cell ``x``, ``y``."""
    dashboard.run("send-keys", "-t", "dash", "-H", *(f"{b:02x}" for b in f"\x1b[<{button};{x};{y}{final}".encode()))


def test_scroll_search_zoom_and_copy_a_dragged_line(dashboard: Dashboard) -> None:
    dashboard.wait_attached()
    sid = dashboard.call({"tool": "exec", "command": NUMBERED, "pty": True, "background": True,
                          "workdir": "/tmp"})["details"]["sessionId"]
    dashboard.wait(lambda s: "line 300" in lines(s), "line 300 on view")

    for _ in range(30):  # a page back at a time, until the first line shows
        dashboard.keys("PageUp")
        if "line 1" in lines(dashboard.capture()):
            break
    screen = dashboard.wait(lambda s: "line 1" in lines(s), "line 1 on view: the whole history")
    assert "line 2" in lines(screen) and any("end follows" in line for line in lines(screen))
    dashboard.keys("End")
    dashboard.wait(lambda s: "line 300" in lines(s) and "end follows" not in s, "following again",
                   retry=lambda: dashboard.keys("End"))

    dashboard.keys("C-f")
    dashboard.wait(lambda s: "search the output" in s, "the search input")  # as an operator sees it, then types
    dashboard.keys("error", literal=True)
    dashboard.wait(lambda s: " 1/14" in s, "the first of 14 matches")
    dashboard.keys("Enter")
    dashboard.wait(lambda s: " 2/14" in s and "line 273 error here" in lines(s), "enter: the second, on view")
    dashboard.keys("Escape")  # a key right after it would read as alt+key: wait for it to land first
    dashboard.wait(lambda s: "search [text]" not in s and "match 2/14" in s and "line 273 error here" in lines(s),
                   "the input closed, the view on the match")
    for shown in range(3, 15):
        dashboard.keys("n")
        dashboard.wait(lambda s, k=shown: f" {k}/14" in s, f"match {shown}")
    dashboard.wait(lambda s: "line 21 error here" in lines(s), "the oldest match on view")
    dashboard.keys("n")
    dashboard.wait(lambda s: " 1/14" in s, "n wrapped around to the newest")
    dashboard.keys("Escape")
    dashboard.wait(lambda s: "line 300" in lines(s) and "/14" not in s, "the second escape: live")

    list_rows = len(lines(dashboard.capture()))
    dashboard.keys("z")
    zoomed = dashboard.wait(lambda s: "runtime" not in s, "zoomed: no list")  # the list's header is gone
    assert sum(line.startswith("line ") for line in lines(zoomed)) == 29  # all 30 PTY rows: 272-300, the cursor row
    dashboard.keys("z")
    dashboard.wait(lambda s: "runtime" in s, "the list back")
    assert len(lines(dashboard.capture())) == list_rows

    row = lines(dashboard.capture()).index("line 294 error here") + 1
    mouse(dashboard, 0, 1, row, "M")
    for x in (5, 12, 19):
        mouse(dashboard, 32, x, row, "M")
    mouse(dashboard, 0, 19, row, "m")
    dashboard.wait(lambda s: "end follows" in s, "the selection holds the view still")
    dashboard.keys("y")
    copies = dashboard.runtime / "openclaw-tui" / "copies"
    dashboard.wait(lambda s: copies.is_dir() and any(copies.glob(f"{sid}-selection-*.txt")), "the copy saved",
                   retry=lambda: dashboard.keys("y"))
    (copy,) = copies.glob(f"{sid}-selection-*.txt")
    assert copy.read_text() == "line 294 error here"


def test_two_sessions_tiled_each_live_and_tab_moves_the_focused_border(dashboard: Dashboard) -> None:
    dashboard.wait_attached()
    first = dashboard.call({"tool": "exec", "command": "printf 'first tile here\\n'; sleep 120", "pty": True,
                            "background": True, "workdir": "/tmp"})["details"]["sessionId"]
    second = dashboard.call({"tool": "exec", "command": "printf 'second tile here\\n'; sleep 120", "pty": True,
                             "background": True, "workdir": "/tmp"})["details"]["sessionId"]
    dashboard.wait(lambda s: second in s and f"\n {first} · printf" in s and "first tile here" in s,
                   "both listed, the first still selected and on view")
    dashboard.keys("Space")
    dashboard.wait(lambda s: f"{first} marked" in s, "the first marked")
    dashboard.keys("Up")
    dashboard.wait(lambda s: f"\n {second} · printf" in s and "second tile here" in s, "the newer one selected")
    dashboard.keys("Space")
    dashboard.wait(lambda s: sum(line.startswith("●") for line in lines(s)) == 2, "both marked in the list")
    dashboard.keys("v")
    screen = dashboard.wait(lambda s: "runtime" not in s and "first tile here" in s and "second tile here" in s,
                            "two tiles, each live, in place of the list")
    titles = [line for line in lines(screen) if line[:1] in "┏╭" and (first in line or second in line)]
    assert len(titles) == 2 and titles[0].startswith("┏━") and first in titles[0], titles  # marked first, focused
    assert titles[1].startswith("╭─") and second in titles[1], titles
    dashboard.keys("Tab")
    dashboard.wait(lambda s: any(line.startswith("┏━") and second in line for line in lines(s)), "tab: the focus moved")
    dashboard.keys("v")
    dashboard.wait(lambda s: "runtime" in s, "v again: the list back")
