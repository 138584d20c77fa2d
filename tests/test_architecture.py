"""The dependency direction: the core and the terminal engine never import Textual or Rich."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import openclaw_tui.core
import openclaw_tui.terminal

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    [m.name for m in pkgutil.walk_packages(openclaw_tui.core.__path__, "openclaw_tui.core.")]
    + [m.name for m in pkgutil.walk_packages(openclaw_tui.terminal.__path__, "openclaw_tui.terminal.")
       if not m.name.endswith("__main__")]
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
    assert "5 kept, 0 broken" in proc.stdout


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
    graph["openclaw_tui.core.session.session"].add("openclaw_tui.core.host.sessionhost")  # the host imports the session
    assert any("openclaw_tui.core.host.sessionhost" in c and "openclaw_tui.core.session.session" in c for c in _circles(graph))


def _mypy(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull, *targets], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_the_dashboard_type_checks_against_the_frontend_protocols() -> None:
    # the UI is written against HostView/SessionView alone: it hands make_app this process's ToolHost and
    # the socket mirror RemoteHost, and the type checker proves both fit, with no cast anywhere
    proc = _mypy("openclaw_tui/ui", "openclaw_tui/remote/mirror")
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


# -- the tree: packages say what they offer, and names say what they hold ------------------------------------
PRODUCT = ROOT / "openclaw_tui"
CONTAINERS = {"openclaw_tui", "openclaw_tui.core", "openclaw_tui.remote"}  # hold packages, offer nothing


def _modules() -> dict[str, Path]:
    return {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
            for p in PRODUCT.rglob("*.py")}


def _packages() -> set[str]:
    return {name for name, path in _modules().items() if path.name == "__init__.py"}


def _package_of(module: str) -> str:
    return module if module in _packages() else module.rpartition(".")[0]


def _ui(module: str) -> bool:
    return module == "openclaw_tui.ui" or module.startswith("openclaw_tui.ui.")


def _imports(module: str, path: Path) -> list[tuple[int, str, str]]:
    """(line, imported module, name) for every ``from M import name`` of the product in ``module``."""
    here = _package_of(module)
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = node.module or ""
            if node.level:
                parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            if base.startswith("openclaw_tui"):
                found += [(node.lineno, base, a.name) for a in node.names]
    return found


def _face_violations(extra: dict[str, Path] | None = None) -> list[str]:
    """What imports past a face; ``extra`` adds modules (name: file) kept outside the source tree."""
    modules, packages = {**_modules(), **(extra or {})}, _packages()
    wrong = []
    for module, path in sorted(modules.items()):
        home = _package_of(module)
        for line, target, name in _imports(module, path):
            if f"{target}.{name}" in modules and f"{target}.{name}" not in packages and (
                    target not in packages or name not in getattr(importlib.import_module(target), "__all__", ())):
                target, name = f"{target}.{name}", ""  # `from P import module` that P does not offer
            owner = _package_of(target)
            if owner in CONTAINERS or owner == home or (_ui(module) and _ui(owner)):
                continue
            if target not in packages:
                wrong.append(f"{module}:{line} imports {target} past its package's face")
            elif name and name not in importlib.import_module(target).__all__:
                wrong.append(f"{module}:{line} imports {name!r}, which {target} does not offer")
    return wrong


def test_other_packages_import_only_what_a_package_offers() -> None:
    # a package's __all__ is its face: what other packages may use; the rest is its own business
    assert _face_violations() == []


def test_the_face_check_sees_an_import_past_a_face(tmp_path) -> None:
    # The probe is read as a module of remote.wire but lives in tmp_path: a test killed mid-way leaves
    # nothing in the source tree (a probe written there once outlived its run).
    modules = _modules()
    probe = tmp_path / "_probe_import.py"
    probe.write_text("from openclaw_tui.core.session.rawring import RawRing\nfrom openclaw_tui.core.session import nothing\n")
    wrong = _face_violations({"openclaw_tui.remote.wire._probe_import": probe})
    assert any("_probe_import:1 imports openclaw_tui.core.session.rawring" in w for w in wrong), wrong
    assert any("_probe_import:2 imports 'nothing'" in w for w in wrong), wrong
    assert len(modules) > 100


def test_every_package_says_what_it_is_for_and_offers_names_that_exist() -> None:
    for package in sorted(_packages() - CONTAINERS):
        loaded = importlib.import_module(package)
        assert loaded.__doc__ and "TODO" not in loaded.__doc__, package
        if package.startswith("openclaw_tui.ui"):
            continue  # the dashboard's packages are Textual's; their faces are plain imports
        tree = ast.parse(_modules()[package].read_text())
        typed = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.If)
                 for stmt in node.body if isinstance(stmt, ast.ImportFrom) for a in stmt.names}
        assert typed == set(loaded.__all__), (package, typed ^ set(loaded.__all__))  # type checkers see the face
        for name in loaded.__all__:
            assert getattr(loaded, name) is not None, (package, name)


def test_no_two_modules_share_a_name_and_no_class_is_defined_twice() -> None:
    leaves = [p.stem for p in PRODUCT.rglob("*.py") if p.stem not in ("__init__", "__main__")]
    assert sorted(n for n in set(leaves) if leaves.count(n) > 1) == []
    classes = [node.name for p in PRODUCT.rglob("*.py") for node in ast.parse(p.read_text()).body
               if isinstance(node, ast.ClassDef)]
    assert sorted(n for n in set(classes) if classes.count(n) > 1) == []


def test_no_package_holds_more_than_about_twelve_modules() -> None:
    for package in _packages():
        folder = _modules()[package].parent
        assert len([p for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")]) <= 14, package


def test_a_face_is_read_from_the_type_checking_block_of_its_package() -> None:
    from openclaw_tui.core.exports import face

    source = (
        '"""doc"""\n\nTYPE_CHECKING = False\nif TYPE_CHECKING:  # the face\n'
        "    from . import events as events\n"
        "    from .buffers import STDERR as STDERR, Output as Output\n"
        "    from .exitrecord import (\n        COMPLETED as COMPLETED,\n        ExitRecord as ExitRecord,\n    )\n"
        "    from openclaw_tui.terminal.emulator import Style as Style\n"
        "\n__all__, __getattr__ = lazy_exports(__name__, __file__)\n"
        "if TYPE_CHECKING:\n    from .later import Hidden as Hidden\n"
    )
    assert face(source) == {"events": ".events", "STDERR": ".buffers", "Output": ".buffers",
                            "COMPLETED": ".exitrecord", "ExitRecord": ".exitrecord",
                            "Style": "openclaw_tui.terminal.emulator"}
