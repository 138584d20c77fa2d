"""Record golden byte streams from real programs run in an 80x24 PTY, for the fidelity test.

Each recording runs one program with ``TERM=xterm-256color`` and a UTF-8 locale in a scratch directory,
drives its input with timed writes (this is a script, not a test: sleeping is fine here), answers its
terminal queries with our own screen so programs that ask (vim) do not stall, and writes every byte the
program printed to ``<name>.bin`` next to this file. Full-screen programs also get ``<name>_open.bin``:
the bytes up to the moment before they were told to quit, which is the more interesting screen (after
quitting they restore the shell's screen). ``dialog`` comes from the Debian package ``dialog``
(``apt-get install dialog``); vim, less, git, top (procps) and python3 are expected on the machine.

Run: ``python tests/terminal/corpus/record.py [name ...]`` from the repository root.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import ptyprocess

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from openclaw_tui.terminal import TerminalScreen

HERE = Path(__file__).resolve().parent
COLS, ROWS = 80, 24
ENV = {
    "TERM": "xterm-256color",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "HOME": "/tmp",
    "PATH": os.environ["PATH"],
    "LESSHISTFILE": "-",
    "PYTHONSTARTUP": "",
    "GIT_PAGER": "cat",
}

# A step is (seconds to wait first, bytes to type); OPEN instead of bytes saves the ``_open`` recording.
OPEN = None
Steps = list[tuple[float, "bytes | None"]]


def record(name: str, argv: list[str], cwd: Path, steps: Steps | None = None, timeout: float = 15.0) -> None:
    child = ptyprocess.PtyProcess.spawn(argv, cwd=str(cwd), env=ENV, dimensions=(ROWS, COLS))
    screen = TerminalScreen(COLS, ROWS, on_reply=lambda data: os.write(child.fd, data))
    out = bytearray()
    deadline = time.monotonic() + timeout

    def pump(seconds: float) -> bool:
        """Read output for ``seconds``; False once the child closed the PTY."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            ready, _, _ = select.select([child.fd], [], [], max(0.0, until - time.monotonic()))
            if not ready:
                continue
            try:
                data = os.read(child.fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            out.extend(data)
            screen.feed(data)
        return True

    alive = True
    for wait, keys in steps or []:
        alive = pump(wait)
        if keys is OPEN:
            (HERE / f"{name}_open.bin").write_bytes(bytes(out))
        elif alive:
            os.write(child.fd, keys)
    while alive and time.monotonic() < deadline:
        alive = pump(0.2)
    if child.isalive():
        child.terminate(force=True)
    (HERE / f"{name}.bin").write_bytes(bytes(out))
    print(f"{name}: {len(out)} bytes")


def make_listing_dir(root: Path) -> Path:
    d = root / "listing"
    d.mkdir()
    for sub in ("src", "docs", "build"):
        (d / sub).mkdir()
    for f in ("README.md", "setup.py", "notes.txt", "archive.tar.gz", "photo.png", "data.json"):
        (d / f).write_text("x\n")
    (d / "run.sh").write_text("#!/bin/sh\n")
    (d / "run.sh").chmod(0o755)
    os.symlink("README.md", d / "link-to-readme")
    os.symlink("missing-target", d / "broken-link")
    return d


def make_repo(root: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    env = dict(
        ENV,
        GIT_AUTHOR_NAME="A",
        GIT_AUTHOR_EMAIL="a@x",
        GIT_COMMITTER_NAME="A",
        GIT_COMMITTER_EMAIL="a@x",
        GIT_AUTHOR_DATE="2024-01-01T00:00:00",
        GIT_COMMITTER_DATE="2024-01-01T00:00:00",
    )

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    for i in range(3):
        (repo / f"f{i}.txt").write_text(f"{i}\n")
        git("add", ".")
        git("commit", "-q", "-m", f"main commit {i}")
    git("checkout", "-q", "-b", "feature")
    for i in range(2):
        (repo / f"feature{i}.txt").write_text(f"{i}\n")
        git("add", ".")
        git("commit", "-q", "-m", f"feature work {i}")
    git("checkout", "-q", "main")
    (repo / "hotfix.txt").write_text("fix\n")
    git("add", ".")
    git("commit", "-q", "-m", "hotfix on main")
    git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
    git("tag", "v1.0")
    return repo


def make_text_file(root: Path) -> Path:
    path = root / "sample.txt"
    path.write_text(
        "".join(
            f"line {i:3d}: the quick brown fox jumps over the lazy dog {'*' * (i % 20)}\n"
            for i in range(1, 121)
        )
    )
    return path


def make_unicode_file(root: Path) -> Path:
    path = root / "wide.txt"
    words = [
        "\u4e2d\u6587\u5b57",
        "caf\u00e9",
        "e\u0301t\u00e9",
        "\U0001f600 smile",
        "\u2764\ufe0f love",
        "plain",
    ]
    path.write_text(
        "".join(f"{i:3d} {words[i % len(words)]} " + "text " * (i % 9) + "\n" for i in range(1, 81))
    )
    return path


UNICODE_PRINTF = (
    r"printf '\033[1mWide and joined text\033[0m\n"
    r"CJK: \344\270\255\346\226\207\345\255\227 | emoji: \360\237\230\200 \360\237\232\200 |\n"
    r"heart VS16: \342\235\244\357\270\217 after | family ZWJ: "
    r"\360\237\221\250\342\200\215\360\237\221\251\342\200\215\360\237\221\247 after\n"
    r"zero width space: x\342\200\213y | combining: e\314\201 n\314\203 a\314\212\314\201 |\n"
    r"\033[31mred \033[42mon green\033[0m \033[38;5;208morange\033[0m \033[38;2;10;200;90mtruecolour\033[0m\n"
    r"%s\344\270\255 wide char at column 79 wraps\n"
    r"\033[7mreverse\033[27m \033[4munder\033[24m \033[9mstrike\033[29m \033[2mdim\033[22m\n'"
) % ("." * 79)


def write_edge_cases() -> None:
    """Synthetic streams (not recorded): one short case per rule where terminals are known to differ.

    Written straight to ``edges.bin`` / ``edges_alt.bin``; each case draws on its own rows so a mismatch
    in the fidelity test points at the rule.
    """
    csi = "\x1b["
    cases = [
        "A" * 80 + "\nB",  # line feed while waiting to wrap
        "\r\n" + "C" * 80 + csi + "AD",  # cursor up from the wrap point
        csi + "5;1H" + "E" * 80 + "\bF",  # backspace from the wrap point
        csi + "6;1H" + "G" * 80 + "\rH",
        csi + "7;1H" + "I" * 80 + csi + "CJ",
        csi + "8;1Habcdefghij" + csi + "8;3H" + csi + "2@XY" + csi + "8;8H" + csi + "3P",  # ICH, DCH
        csi + "9;1Hhello world" + csi + "9;7H" + csi + "4hBIG " + csi + "4l",  # insert mode
        csi + "10;1H0123456789" + csi + "10;3H" + csi + "2X" + csi + "10;8H" + csi + "1K",  # ECH, EL 1
        csi + "11;1Ha\tb\tc" + csi + "11;30H\x1bH" + csi + "11;1H\t\t\t\t|" + csi + "3g",  # tab stops
        csi + "12;1Hr12" + csi + "13;1Hr13" + csi + "14;1Hr14" + csi + "15;1Hr15",
        csi + "12;15r" + csi + "15;1H\nnew" + csi + "r",  # scroll region
        csi
        + "16;1Hl16"
        + csi
        + "17;1Hl17"
        + csi
        + "18;1Hl18"
        + csi
        + "16;1H"
        + csi
        + "L"
        + csi
        + "18;1H"
        + csi
        + "M",
        csi + "1;1H\x1bM\x1bMtop",  # reverse index at the top
        csi + "19;22r" + csi + "?6h" + csi + "2;2Horg" + csi + "?6l" + csi + "r",  # origin mode
        csi + "23;79H\u4e2dx",  # a wide character that does not fit
        csi + "22;1H\u4e2d\u6587\u5b57" + csi + "22;4Hz",  # overwriting half of a wide character
        csi + "21;1Hq" + csi + "5b" + csi + "21;40H" + csi + "Zw",  # REP, CBT
        csi + "20;5H\x1b7" + csi + "1;1H\x1b8saved",  # DECSC/DECRC
        csi + "?7l" + csi + "24;75Hnowrapping!" + csi + "?7h",  # no autowrap
        csi + "S" + csi + "T",  # scroll up, scroll down
        csi + "3Ecnl" + csi + "2Fcpl" + csi + "10`" + csi + "4dhv",  # CNL, CPL, HPA, VPA
        csi + "24;1H\u0301after",  # a combining mark with nothing before it
        csi + "44m" + csi + "3;50H" + csi + "K" + csi + "0m",  # erase in a background colour
        "\x1b)0" + csi + "13;40H\x0elqqk\x0f" + csi + "14;40H\x0ex  x\x0f",  # line drawing through G1
        csi + "20;60H" + "\U0001f468\u200d\U0001f469\u200d\U0001f467|\u2764\ufe0f|x\u200by",
        csi + "1;70H" + csi + "1;31;4mstyled" + csi + "0m" + csi + "38;5;100;48;2;1;2;3m rgb" + csi + "m",
    ]
    (HERE / "edges.bin").write_bytes("".join(cases).encode())
    alt = [
        "main screen line 1\r\nmain screen line 2\r\nprompt$ ",
        csi
        + "?1049h"
        + csi
        + "H"
        + csi
        + "2Jalternate 1049"
        + csi
        + "5;5H"
        + csi
        + "?1049l",  # restores cursor
        "after1049" + csi + "?47h" + csi + "3;3Halt47" + csi + "?47l" + "after47",
        csi + "?1047h" + csi + "10;10Halt1047" + csi + "?1047l" + "after1047",
        csi + "s" + csi + "20;1Hsaved with CSI s" + csi + "u" + "<-restored",
        csi + "!p" + csi + "?25l" + csi + "22;1Hsoft reset then hidden cursor",
    ]
    (HERE / "edges_alt.bin").write_bytes("".join(alt).encode())
    print("edges: written")


RECORDINGS: dict[str, Callable[[Path], None]] = {
    "ls": lambda tmp: record(
        "ls",
        ["sh", "-c", "ls --color=always -C; ls --color=always -l --time-style=+%Y"],
        make_listing_dir(tmp),
    ),
    "git_log": lambda tmp: record(
        "git_log",
        ["git", "--no-pager", "log", "--graph", "--color=always", "--decorate", "--oneline", "--all"],
        make_repo(tmp),
    ),
    "python_repl": lambda tmp: record(
        "python_repl",
        [sys.executable, "-q", "-I"],
        tmp,
        [
            (1.0, b"x = [i * i for i in range(12)]\r"),
            (0.4, b"x\r"),
            (0.4, "print('h\u00e9llo \u4e16\u754c')\r".encode()),
            (0.4, b"for i in range(3):\r"),
            (0.3, b"    print(i)\r"),
            (0.3, b"\r"),
            (0.4, b"exit()\r"),
        ],
    ),
    "vim": lambda tmp: record(
        "vim",
        ["vim", "-u", "NONE", "-N", "-i", "NONE", make_text_file(tmp).name],
        tmp,
        [(1.5, b"10Gw"), (0.5, b"ihello \x1b"), (0.5, OPEN), (0.1, b":q!\r")],
    ),
    "vim_scroll": lambda tmp: record(
        "vim_scroll",
        ["vim", "-u", "NONE", "-N", "-i", "NONE", make_unicode_file(tmp).name],
        tmp,
        [
            (1.5, b"\x04"),
            (0.4, b"\x05\x05\x05"),
            (0.4, b"\x19"),
            (0.4, b":vsplit\r"),
            (0.5, b"\x04"),
            (0.5, OPEN),
            (0.1, b":qa!\r"),
        ],
    ),
    "less": lambda tmp: record(
        "less", ["less", make_text_file(tmp).name], tmp, [(1.0, b" "), (0.5, OPEN), (0.1, b"q")]
    ),
    "top": lambda tmp: record("top", ["top", "-b", "-n1", "-w", "80"], tmp),
    "top_interactive": lambda tmp: record("top_interactive", ["top", "-n", "2", "-d", "0.5"], tmp),
    "dialog": lambda tmp: record(
        "dialog",
        ["dialog", "--title", "Confirm", "--yesno", "Proceed with the deployment?", "8", "44"],
        tmp,
        [(1.0, OPEN), (0.1, b"\r")],
    ),
    "unicode": lambda tmp: record("unicode", ["bash", "-c", UNICODE_PRINTF], tmp),
    "edges": lambda tmp: write_edge_cases(),
    "scroll": lambda tmp: record(
        "scroll", ["sh", "-c", "seq 1 300; printf 'progress 10%%\\rprogress 99%%\\n'"], tmp
    ),
}


def main(names: list[str]) -> None:
    for name in names or RECORDINGS:
        if name == "dialog" and shutil.which("dialog") is None:
            print("dialog: not installed (apt-get install dialog); skipped")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            RECORDINGS[name](Path(tmp))


if __name__ == "__main__":
    main(sys.argv[1:])
