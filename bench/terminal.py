"""Benchmarks of the terminal engine: parse speed against stock pyte, and PERF.md's P2 (a live view of a flood).

Parse: the stream mixes coloured ``ls``-like listings (an SGR change per name) and plain log lines, a few
MB, as a flooding session would produce. Both engines get it in 4 KiB pieces, as PTY reads arrive. The
ratio is what counts (PERF.md: machines are noisy; compare side by side, never absolute times).

P2: a real ``ToolHost`` PTY session runs ``cat`` of a large file while a ``LiveView`` is advanced once per
frame, the way the dashboard does (advance, then read the dirty rows as runs). Reported: the seconds from
the producer's exit until the view shows the file's last lines (target <= 0.25), and the frames painted
per second during the flood (target >= 30).

Run: ``python bench/terminal.py [--mb 2] [--p2-mb 100 | --p2-mb 0 to skip]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import pyte

from openclaw_tui.core.config.settings import PTY_SIZE
from openclaw_tui.terminal import LiveView, TerminalScreen

COLS, ROWS = 200, 50
PIECE = 4096
ROUNDS = 3


def generate_stream(megabytes: float, seed: int = 7) -> bytes:
    """Coloured listings and plain log lines, CRLF-terminated as a PTY delivers them."""
    rnd = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "src", "build", "node_modules", "README.md", "setup.py"]
    colours = ["01;34", "01;32", "01;36", "00", "01;31", "35"]
    out: list[bytes] = []
    size = 0
    n = 0
    while size < megabytes * 1_000_000:
        n += 1
        if n % 3 == 0:
            names = [
                f"\x1b[{rnd.choice(colours)}m{rnd.choice(words)}{rnd.randint(0, 999)}\x1b[0m"
                for _ in range(rnd.randint(3, 9))
            ]
            line = "  ".join(names)
        else:
            line = (
                f"2024-05-01 12:{n % 60:02d}:{n % 59:02d} INFO worker[{n % 17}] processed "
                f"{rnd.randint(0, 10**6)} items from {rnd.choice(words)} in {rnd.random():.3f}s"
            )
        data = (line + "\r\n").encode()
        out.append(data)
        size += len(data)
    return b"".join(out)


def parse_seconds(feed, stream: bytes) -> float:
    started = time.perf_counter()
    for i in range(0, len(stream), PIECE):
        feed(stream[i : i + PIECE])
    return time.perf_counter() - started


def stock_pyte_feed():
    screen = pyte.Screen(COLS, ROWS)
    return pyte.ByteStream(screen).feed, screen


def ours_feed():
    screen = TerminalScreen(COLS, ROWS)
    return screen.feed, screen


FRAME_S = 1 / 60  # the frame loop asks for 60 fps; what it achieves under load is the measurement
P2_COLS, P2_ROWS = PTY_SIZE  # the size sessions' PTYs start at


def write_flood_file(path: Path, megabytes: float) -> None:
    """Numbered log lines, some coloured, so every screen of it is distinct."""
    line_no = 0
    with path.open("wb") as out:
        while out.tell() < megabytes * 1_000_000:
            block = []
            for _ in range(10_000):
                line_no += 1
                colour = "\x1b[32m" if line_no % 5 == 0 else ""
                block.append(f"{colour}{line_no:09d} flood line with some text to fill it up\x1b[0m\n")
            out.write("".join(block).encode())


def expected_screen(path: Path) -> list[str]:
    """What the view must show once the flood ends: the file's last lines, as the PTY delivers them (CR LF)."""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - 64 * 1024))
        tail = f.read()
    screen = TerminalScreen(P2_COLS, P2_ROWS)
    screen.feed(tail[tail.index(b"\n") + 1 :].replace(b"\n", b"\r\n"))
    return screen.display()


async def p2_live_view(megabytes: float) -> tuple[float, float, float]:
    """(catch-up seconds after exit, paints per second during the flood, flood seconds)."""
    from openclaw_tui import ToolHost  # the core; only this benchmark needs it

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "flood.txt"
        write_flood_file(path, megabytes)
        expected = expected_screen(path)
        async with ToolHost() as host:
            result = await host.call(
                {"tool": "exec", "command": f"cat {path}", "pty": True, "background": True, "workdir": tmp}
            )
            session = host.session(result["details"]["sessionId"])
            assert session is not None, result
            session.resize(P2_COLS, P2_ROWS)  # as the dashboard's fit would; the view then has the PTY's size
            view = LiveView(session)
            frames = 0
            began = time.perf_counter()
            while not session.done.is_set():
                view.advance()
                for y in view.screen.take_dirty():
                    view.screen.row_runs(y)
                frames += 1
                await asyncio.sleep(FRAME_S)
            exited = time.perf_counter()
            while view.screen.display() != expected and time.perf_counter() - exited < 10:
                view.advance()
                await asyncio.sleep(FRAME_S)
            shown = time.perf_counter()
            view.close()
            if view.screen.display() != expected:
                raise SystemExit("P2: the view never showed the file's last lines")
    return shown - exited, frames / (exited - began), exited - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0, help="parse stream size in megabytes")
    parser.add_argument("--p2-mb", type=float, default=100.0, help="P2 flood size in megabytes (0 skips P2)")
    args = parser.parse_args()
    stream = generate_stream(args.mb)
    # Best of a few interleaved rounds for each engine, so a busy machine skews both alike.
    stock_rate = ours_rate = 0.0
    for _ in range(ROUNDS):
        stock_feed, stock = stock_pyte_feed()
        our_feed, ours = ours_feed()
        stock_rate = max(stock_rate, len(stream) / parse_seconds(stock_feed, stream))
        ours_rate = max(ours_rate, len(stream) / parse_seconds(our_feed, stream))
        if [row.rstrip() for row in stock.display] != [row.rstrip() for row in ours.display()]:
            raise SystemExit("screens differ: the benchmark would compare different work")
    print(f"stream: {len(stream) / 1e6:.1f} MB, screen {COLS}x{ROWS}, best of {ROUNDS} rounds")
    print(f"stock pyte: {stock_rate / 1e6:.2f} MB/s, ours: {ours_rate / 1e6:.2f} MB/s")
    print(f"parse ratio vs stock pyte: {ours_rate / stock_rate:.2f}")
    if args.p2_mb > 0:
        catch_up, paints, flood = asyncio.run(p2_live_view(args.p2_mb))
        print(
            f"P2 flood: {args.p2_mb:.0f} MB in {flood:.2f} s, {paints:.0f} paints/s during it (target >= 30)"
        )
        print(f"P2 catch-up seconds: {catch_up:.3f} (target <= 0.25; 0 means current when the exit was seen)")


if __name__ == "__main__":
    main()
