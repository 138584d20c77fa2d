"""The dependency direction: the core and the terminal engine never import Textual or Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import openclaw_tui.core
import openclaw_tui.terminal

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    [f"openclaw_tui.core.{m.name}" for m in pkgutil.iter_modules(openclaw_tui.core.__path__)]
    + [f"openclaw_tui.terminal.{m.name}" for m in pkgutil.iter_modules(openclaw_tui.terminal.__path__) if m.name != "__main__"]
    + ["openclaw_tui"]
)


def test_core_and_terminal_import_without_textual_or_rich() -> None:
    # One fresh interpreter importing every module: if any pulled in Textual or Rich, it would show.
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert len(MODULES) > 15


def test_the_ui_does_import_textual() -> None:
    # The check above must be able to fail: the same probe sees Textual when the UI is imported.
    code = "import sys, openclaw_tui.ui.app\nassert 'textual' in sys.modules\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_import_contracts_in_pyproject_hold() -> None:
    # import-linter checks the whole import graph (indirect chains too) against pyproject's contracts:
    # core and terminal never reach Textual or Rich; ui > remote > terminal > core, never upwards
    code = "import sys\nfrom importlinter.cli import lint_imports\nsys.exit(lint_imports())\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout
