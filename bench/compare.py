"""Every benchmark, run on an earlier commit and on this checkout one after the other, printed line by line
side by side: the proof a change that should not move any figure (a restructure) did not.

    python bench/compare.py 8f8ff93                 # every bench/*.py, default arguments
    python bench/compare.py 8f8ff93 host spawn      # some of them
    python bench/compare.py 8f8ff93 --args "terminal=--p2-mb 20" --args "load=--seconds 20"

The earlier commit gets a detached worktree and a virtualenv of its own under /tmp (kept between runs, keyed
by the commit). Each benchmark runs before and after in turn, so both meet the same machine; ``-`` lines are
the earlier commit's, ``+`` lines this checkout's.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def earlier_tree(commit: str) -> tuple[Path, Path]:
    """A worktree of ``commit`` and its virtualenv's python, made once per commit."""
    sha = _git("rev-parse", "--verify", f"{commit}^{{commit}}")
    tree = Path(f"/tmp/openclaw-bench-{sha[:12]}")
    python = tree / ".venv" / "bin" / "python"
    if not tree.exists():
        _git("worktree", "add", "--detach", str(tree), sha)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(tree / ".venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", f"{tree}[test]"], check=True)
    return tree, python


def run(tree: Path, python: Path, bench: str, args: list[str]) -> tuple[list[str], float]:
    """One benchmark's printed lines (stderr after stdout) and its wall time, run in ``tree``."""
    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    start = time.monotonic()
    done = subprocess.run([str(python), str(tree / "bench" / f"{bench}.py"), *args], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines() + [f"[stderr] {line}" for line in done.stderr.splitlines()]
    if done.returncode:
        lines.append(f"[exit {done.returncode}]")
    return lines, time.monotonic() - start


def side_by_side(before: list[str], after: list[str]) -> list[str]:
    """Each line of the two outputs, the earlier one's first; a line both print alike shows once."""
    out = []
    for i in range(max(len(before), len(after))):
        old = before[i] if i < len(before) else ""
        new = after[i] if i < len(after) else ""
        out += [f"  {new}"] if old == new else [f"- {old}", f"+ {new}"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commit", help="the earlier commit (e.g. the one before a restructure)")
    parser.add_argument("benches", nargs="*", help="bench names (default: every bench/*.py but this one)")
    parser.add_argument("--args", action="append", default=[], metavar="BENCH=ARGS",
                        help="arguments for one benchmark, given to both runs")
    opts = parser.parse_args()
    extra = {name: shlex.split(value) for name, _, value in (a.partition("=") for a in opts.args)}
    benches = opts.benches or sorted(p.stem for p in HERE.glob("*.py") if p.stem != "compare")
    tree, python = earlier_tree(opts.commit)
    here = Path(sys.executable)
    for bench in benches:
        args = extra.get(bench, [])
        before, t_before = run(tree, python, bench, args)
        after, t_after = run(ROOT, here, bench, args)
        print(f"== {bench} {shlex.join(args)}  ({opts.commit}: {t_before:.0f} s, this checkout: {t_after:.0f} s)")
        print("\n".join(side_by_side(before, after)), flush=True)


if __name__ == "__main__":
    main()
