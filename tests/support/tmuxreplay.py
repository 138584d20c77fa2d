"""Test helper: replay a byte stream with resizes into a real tmux pane, the reference terminal.

A pane runs a small replayer (``python -c REPLAYER``) that writes the stream piece by piece on its
terminal. After each piece it asks tmux for a device status report (``ESC[5n``) and waits for the answer,
so tmux has parsed every byte before the piece ends; only then does the test resize the window
(``resize-window``, which tmux applies to the pane's screen at once). A resize that falls inside an
escape sequence or a UTF-8 character is moved to that sequence's start: nothing in a sequence acts before
its last byte, so the screen is the same. The pane is read back with ``capture-pane`` and ``display``.

The server is private (``-S`` socket in a short folder of its own under ``/tmp``, its own config: no status
line, so the window is the pane; ``xterm-256color``; no escape delay) and runs in a UTF-8 locale.

``capture-pane`` only reports the cells a program wrote, not the blanks an erase, insert or scroll left in
a background colour. For those, ``drawn=True`` also attaches a client to the pane from a second tmux whose
terminal type lacks background colour erase, so the first tmux draws such blanks as coloured spaces, and
captures that second pane: what tmux shows a person.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from .hosts import socket_folder

TMUX_CONF = "set -g status off\nset -g default-terminal xterm-256color\nset -g escape-time 0\n"
VIEWER_CONF = "set -g status off\nset -g default-terminal tmux-256color\nset -g escape-time 0\n"  # no bce

REPLAYER = r"""
import os, struct, sys, tty
tty.setraw(0)
ctl = open(sys.argv[1], "rb", buffering=0)
ack = open(sys.argv[2], "wb", buffering=0)
def exact(n):
    out = b""
    while len(out) < n:
        got = ctl.read(n - len(out))
        if not got:
            sys.exit(0)
        out += got
    return out
while True:
    data = exact(struct.unpack(">I", exact(4))[0])
    os.write(1, data + b"\x1b[5n")
    seen = b""
    while not seen.endswith(b"\x1b[0n"):
        seen = (seen + os.read(0, 4096))[-64:]
        if b"\x1b[0n" in seen:
            break
    ack.write(b"k")
"""

# The end of a piece that is an unfinished escape sequence or UTF-8 character.
_UNFINISHED = re.compile(
    rb"(\x1b(\[[\x30-\x3f]*[\x20-\x2f]*|\][^\x07\x1b]*|[PX^_][^\x1b]*|[\x20-\x2f]*)?"
    rb"|[\xc0-\xf7][\x80-\xbf]{0,2})\Z"
)


def safe_cut(data: bytes, at: int) -> int:
    """``at`` moved back to the start of an escape sequence or character it would cut."""
    m = _UNFINISHED.search(data, max(0, at - 4096), at)
    return m.start() if m else at


@dataclass
class Pane:
    """What tmux shows: rows of text (trailing blanks cut), the cursor, the size and the screen in use."""

    rows: list[str]
    styled: list[str]
    history: list[str]
    cursor: tuple[int, int]
    size: tuple[int, int]
    alternate: bool
    drawn: list[str] | None = None
    styled_history: list[str] | None = None  # the history's rows with their SGRs (``capture-pane -e -S -``)


class TmuxReplay:
    """Private tmux servers: :meth:`replay` plays one history into a pane of a server of its own."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.conf = home / "tmux.conf"
        self.conf.write_text(TMUX_CONF)
        self.socket = home / "socket"  # replaced by one of its own for each replay
        self.env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("TMUX", None)

    def __call__(self, *args: str, timeout: float = 10.0, check: bool = True) -> str:
        result = subprocess.run(["tmux", "-S", str(self.socket), "-f", str(self.conf), *args], env=self.env,
                                capture_output=True, timeout=timeout, check=False)
        if check and result.returncode:
            raise AssertionError(f"tmux {args[0]} failed: {result.stderr.decode(errors='replace').strip()}")
        return result.stdout.decode("utf-8", "replace")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", str(self.socket), "kill-server"], env=self.env, capture_output=True,
                       check=False)

    def replay(self, data: bytes, size: tuple[int, int], marks: list[tuple[int, int, int]] = (),  # type: ignore[assignment]
               drawn: bool = False) -> Pane:
        """The pane after ``data`` drawn from ``size`` (cols, rows), resized at each ``(offset, cols, rows)``."""
        name = "r" + uuid.uuid4().hex[:8]
        self.socket = socket_folder() / f"{name}.sock"
        ctl, ack = self.home / f"{name}.ctl", self.home / f"{name}.ack"
        os.mkfifo(ctl)
        os.mkfifo(ack)
        command = " ".join(shlex.quote(a) for a in (sys.executable, "-c", REPLAYER, str(ctl), str(ack)))
        self("new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]), command)
        try:
            with open(ctl, "wb", buffering=0) as out, open(ack, "rb", buffering=0) as back:
                done = 0
                for offset, cols, rows, *_ in sorted(marks, key=lambda m: m[0]) + [(len(data), 0, 0)]:
                    cut = safe_cut(data, offset) if offset < len(data) else offset
                    cut = max(cut, done)
                    piece = data[done:cut]
                    out.write(struct.pack(">I", len(piece)) + piece)
                    if back.read(1) != b"k":
                        raise AssertionError("the replayer in tmux stopped")
                    done = cut
                    if cols:
                        self("resize-window", "-t", name, "-x", str(cols), "-y", str(rows))
                pane = self._read(name)  # before the replayer sees its input end and exits
                if drawn:
                    pane.drawn = self._drawn(name, pane.size)
                return pane
        finally:
            self.close()  # a server per replay: nothing one replay leaves can change the next
            shutil.rmtree(self.socket.parent, ignore_errors=True)
            ctl.unlink()
            ack.unlink()

    def _drawn(self, name: str, size: tuple[int, int]) -> list[str]:
        """``capture-pane -e`` of a second tmux's pane showing a client attached to pane ``name``."""
        conf = self.home / "viewer.conf"
        conf.write_text(VIEWER_CONF)
        socket = self.socket.with_name(f"{name}.viewer.sock")
        attach = " ".join(shlex.quote(a) for a in ("tmux", "-S", str(self.socket), "attach", "-t", name))
        viewer = ["tmux", "-S", str(socket), "-f", str(conf)]

        def run(*args: str) -> str:
            done = subprocess.run([*viewer, *args], env=self.env, capture_output=True, timeout=10, check=True)
            return done.stdout.decode("utf-8", "replace")

        run("new-session", "-d", "-s", "v", "-x", str(size[0]), "-y", str(size[1]), "env -u TMUX " + attach)
        try:
            deadline = time.monotonic() + 10
            captures: list[str] = []
            while len(captures) < 3 or len(set(captures[-3:])) > 1 or not captures[-1].strip():
                assert time.monotonic() < deadline, "the viewing tmux never settled"
                time.sleep(0.05)
                captures.append(run("capture-pane", "-p", "-e", "-N", "-t", "v"))
        finally:
            subprocess.run([*viewer, "kill-server"], env=self.env, capture_output=True, check=False)
        rows = captures[-1].split("\n")[: size[1]]
        return rows + [""] * (size[1] - len(rows))

    def _read(self, name: str) -> Pane:
        deadline = time.monotonic() + 10
        while True:  # the last piece is parsed already; a few polls make sure nothing redraws after it
            fmt = "#{cursor_x},#{cursor_y},#{pane_width},#{pane_height},#{alternate_on}"
            info = self("display", "-p", "-t", name, fmt).strip()
            plain = self("capture-pane", "-p", "-N", "-t", name)
            styled = self("capture-pane", "-p", "-e", "-N", "-t", name)
            history = self("capture-pane", "-p", "-N", "-S", "-", "-E", "-1", "-t", name)
            styled_history = self("capture-pane", "-p", "-e", "-N", "-S", "-", "-E", "-1", "-t", name)
            if info == self("display", "-p", "-t", name, fmt).strip() or time.monotonic() > deadline:
                break
        x, y, cols, rows, alt = (int(v) for v in info.split(","))
        lines = plain.split("\n")[:rows]
        lines += [""] * (rows - len(lines))
        styled_lines = styled.split("\n")[:rows]
        styled_lines += [""] * (rows - len(styled_lines))
        history_lines = [line.rstrip() for line in history.split("\n")[:-1]]
        return Pane([line.rstrip() for line in lines], styled_lines, history_lines, (x, y), (cols, rows), bool(alt),
                    styled_history=styled_history.split("\n")[:-1])


PLAYER = r"""
import os, subprocess, sys, tty
tty.setraw(0)
ack = open(sys.argv[1], "wb", buffering=0)
ctl = open(sys.argv[2], "rb", buffering=0)
for part in sys.argv[3:]:
    subprocess.run([sys.executable, "-m", "asciinema", "cat", part], check=True)
    os.write(1, b"\x1b[5n")
    seen = b""
    while b"\x1b[0n" not in seen:
        seen = (seen + os.read(0, 4096))[-64:]
    ack.write(b"k")
    if not ctl.read(1):
        sys.exit(0)
"""


def play_casts(tmux: TmuxReplay, parts: list[tuple[Path, tuple[int, int] | None]], size: tuple[int, int]) -> Pane:
    """The pane after ``asciinema cat`` of each part in turn, from ``size`` (cols, rows); after a part, the
    window is resized to the size given with it (its recording's next ``r`` event), as a player does."""
    name = "c" + uuid.uuid4().hex[:8]
    tmux.socket = socket_folder() / f"{name}.sock"
    ack, ctl = tmux.home / f"{name}.ack", tmux.home / f"{name}.ctl"
    os.mkfifo(ack)
    os.mkfifo(ctl)
    argv = [sys.executable, "-c", PLAYER, str(ack), str(ctl), *(str(p) for p, _ in parts)]
    tmux("new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
         " ".join(shlex.quote(a) for a in argv))
    try:
        with open(ack, "rb", buffering=0) as back, open(ctl, "wb", buffering=0) as go:
            for i, (_, resize) in enumerate(parts):
                if back.read(1) != b"k":
                    raise AssertionError(f"asciinema cat of part {i + 1} did not finish in tmux")
                if resize is not None:
                    tmux("resize-window", "-t", name, "-x", str(resize[0]), "-y", str(resize[1]))
                if i + 1 < len(parts):
                    go.write(b"g")
            pane = tmux._read(name)
            go.close()
            return pane
    finally:
        tmux.close()
        shutil.rmtree(tmux.socket.parent, ignore_errors=True)
        ack.unlink()
        ctl.unlink()
