"""The terminal package stands alone (no Textual, no Rich) and its command line prints screens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from openclaw_tui.terminal import TerminalScreen

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "openclaw_tui.terminal",
    "openclaw_tui.terminal.liveview",
    "openclaw_tui.terminal.__main__",
    "openclaw_tui.terminal.ansi",
    "openclaw_tui.terminal.catchup",
]


def run_python(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60, check=True
    )


def test_importing_the_terminal_package_pulls_in_neither_textual_nor_rich() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))\n"
    )
    assert json.loads(run_python("-c", code).stdout) == []


def test_command_line_prints_the_screen_a_stream_produces() -> None:
    stream = b"one\r\n\x1b[31mtwo\x1b[0m   \r\n\x1b[5;3Hfive"
    result = run_python("-m", "openclaw_tui.terminal", "--cols", "20", "--rows", "5", stdin=stream)
    assert result.stdout.decode().split("\n") == ["one", "two", "", "", "  five", ""]


def test_command_line_ansi_output_redraws_the_same_styled_screen() -> None:
    stream = (
        b"\x1b[1;38;5;208mbold orange\x1b[0m \x1b[4;44munder blue\x1b[0m\r\n\x1b[7m\xe4\xb8\xad rev\x1b[0m"
    )
    result = run_python("-m", "openclaw_tui.terminal", "--cols", "30", "--rows", "3", "--ansi", stdin=stream)
    original, redrawn = TerminalScreen(30, 3), TerminalScreen(30, 3)
    original.feed(stream)
    redrawn.feed(result.stdout.rstrip(b"\n").replace(b"\n", b"\r\n"))
    assert [redrawn.row_runs(y, show_cursor=False) for y in range(3)] == [
        original.row_runs(y, show_cursor=False) for y in range(3)]
