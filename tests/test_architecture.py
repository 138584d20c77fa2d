"""The dependency direction: the core and the terminal engine never import Textual or Rich."""

from __future__ import annotations

import ast
import os
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


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``TYPE_CHECKING`` imports and imports inside functions
    included: a circle is a circle for a reader even where the interpreter is spared it). ``from P import
    m`` where ``m`` is a module is an import of ``P.m``."""
    package = ROOT / "openclaw_tui"
    files = {".".join(("openclaw_tui", *p.relative_to(package).with_suffix("").parts)).removesuffix(".__init__"): p
             for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in files]
                found.update(subs if len(subs) == len(node.names) else [base, *subs])
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or through others (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_module_imports_itself_through_others() -> None:
    # each layer reads one way: a tool never imports the host that runs it, a setting never its loader
    assert _circles(_import_graph()) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = _import_graph()
    graph["openclaw_tui.core.session"].add("openclaw_tui.core.host")  # the host imports the session
    assert any("openclaw_tui.core.host" in c and "openclaw_tui.core.session" in c for c in _circles(graph))


def _mypy(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull, *targets], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_the_dashboard_type_checks_against_the_frontend_protocols() -> None:
    # the UI is written against HostView/SessionView alone: it hands make_app this process's ToolHost and
    # the socket mirror RemoteHost, and the type checker proves both fit, with no cast anywhere
    proc = _mypy("openclaw_tui/ui", "openclaw_tui/remote/views.py", "openclaw_tui/remote/mirror.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_type_check_rejects_a_frontend_host_that_does_not_fit(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from openclaw_tui.ui import make_app\n\n\n"
        "class Half:\n"
        "    def start(self) -> None: ...\n\n\n"
        "make_app(Half())\n"
    )
    proc = _mypy(str(probe))
    assert proc.returncode == 1 and "HostView" in proc.stdout, proc.stdout + proc.stderr
