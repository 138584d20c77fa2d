"""Print the screen a byte stream produces: ``python -m openclaw_tui.terminal --cols 80 --rows 24 < out.bin``.

For looking at recorded streams and checking the engine by hand: rows plainly, or with ``--ansi`` in their
colours.
"""

from __future__ import annotations

import argparse
import sys

from .ansi import runs_to_ansi
from .emulator import TerminalScreen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m openclaw_tui.terminal", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--cols", type=int, default=80, help="screen width in cells (default 80)")
    parser.add_argument("--rows", type=int, default=24, help="screen height in cells (default 24)")
    parser.add_argument("--ansi", action="store_true", help="re-emit colours and attributes")
    args = parser.parse_args(argv)
    if args.cols < 1 or args.rows < 1:
        parser.error("--cols and --rows must be at least 1")
    screen = TerminalScreen(args.cols, args.rows)
    read = sys.stdin.buffer.read
    while chunk := read(65536):
        screen.feed(chunk)
    if args.ansi:
        lines = [runs_to_ansi(screen.row_runs(y, show_cursor=False)) for y in range(args.rows)]
    else:
        lines = [row.rstrip() for row in screen.display()]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
