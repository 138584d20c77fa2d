"""The tests' own shape: conftests declare fixtures and hooks, what tests share is in ``tests/support``, and
one ``start_background`` starts a session over every surface.

A helper imported from a conftest or from another test module ties tests to where a file sits and to
pytest's way of loading it; ``tests/support`` is a package like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.remote.wire.client import HostClient

from .support.hosts import hosting, serving
from .support.isolation import source_files
from .support.mcpclients import mcp_session, over_mcp
from .support.sessions import start_background

TESTS = Path(__file__).resolve().parent


def _python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "corpus" not in p.relative_to(TESTS).parts)


def _imported(path: Path, source: str) -> list[tuple[int, str]]:
    """(line, module) for every ``from ... import`` in ``source``, relative ones resolved from ``path``."""
    package = list(path.relative_to(TESTS.parent).parent.parts)
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(node.lineno, f"{module}.{a.name}") for a in node.names]
    return found


def conftest_imports(path: Path, source: str) -> list[str]:
    """Where ``source`` imports from a conftest."""
    return [f"{path.name}:{line} {module}" for line, module in _imported(path, source)
            if "conftest" in module.split(".")]


def imports_of_test_modules(path: Path, source: str) -> list[str]:
    """Where ``source`` imports from a test module (a module of tests, not of helpers)."""
    return [f"{path.name}:{line} {module}" for line, module in _imported(path, source)
            if any(part.startswith("test_") for part in module.split(".")[:-1])]


def not_fixtures_or_hooks(source: str) -> list[str]:
    """What a conftest defines at its top level besides fixtures and ``pytest_*`` hooks."""
    extra = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):  # imports, the docstring
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
            if fixture or node.name.startswith("pytest_"):
                continue
        extra.append(f"{type(node).__name__} at line {node.lineno}: {ast.unparse(node).splitlines()[0]}")
    return extra


def test_no_test_module_imports_from_a_conftest() -> None:
    wrong = [w for p in _python_files() for w in conftest_imports(p, p.read_text())]
    assert wrong == []


def test_no_test_module_imports_from_another_test_module() -> None:
    wrong = [w for p in _python_files() for w in imports_of_test_modules(p, p.read_text())]
    assert wrong == []


def test_conftests_declare_only_fixtures_and_hooks() -> None:
    conftests = sorted(TESTS.rglob("conftest.py"))
    assert len(conftests) >= 4
    wrong = {str(p.relative_to(TESTS)): extra for p in conftests if (extra := not_fixtures_or_hooks(p.read_text()))}
    assert wrong == {}


def test_the_checks_see_a_helper_in_a_conftest_and_an_import_of_one() -> None:
    probe = TESTS / "remote" / "test_probe.py"
    source = ("from ..conftest import MARK\nfrom .conftest import serving\nfrom .test_mcp import text\n"
              "from ..support.hosts import hosting\n")
    assert conftest_imports(probe, source) == ["test_probe.py:1 tests.conftest.MARK",
                                               "test_probe.py:2 tests.remote.conftest.serving"]
    assert imports_of_test_modules(probe, source) == ["test_probe.py:3 tests.remote.test_mcp.text"]
    conftest = ('"""doc"""\nimport pytest\nLIMIT = 3\n\n@pytest.fixture\ndef host(): ...\n\n'
                "def helper(): ...\n\nclass Rig: ...\n\ndef pytest_configure(config): ...\n")
    assert [line.split(":")[0] for line in not_fixtures_or_hooks(conftest)] == [
        "Assign at line 3", "FunctionDef at line 8", "ClassDef at line 10"]


def test_the_source_tree_check_sees_a_file_a_test_left_there(tmp_path) -> None:
    (tmp_path / "openclaw_tui" / "__pycache__").mkdir(parents=True)
    (tmp_path / "tests" / "ui" / "__snapshots__").mkdir(parents=True)
    (tmp_path / "openclaw_tui" / "cli.py").write_text("")
    before = source_files(tmp_path)
    (tmp_path / "openclaw_tui" / "_probe_import.py").write_text("")
    (tmp_path / "tests" / "ui" / "left.bin").write_bytes(b"")
    (tmp_path / "openclaw_tui" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"")
    (tmp_path / "tests" / "ui" / "__snapshots__" / "new.svg").write_text("")
    assert sorted(source_files(tmp_path) - before) == [tmp_path / "openclaw_tui" / "_probe_import.py",
                                                       tmp_path / "tests" / "ui" / "left.bin"]
    assert tmp_path / "openclaw_tui" / "cli.py" in before
    assert len(source_files()) > 200  # the real tree is found from where the helpers live


# -- one start_background over every surface -----------------------------------------------------------------
async def test_start_background_starts_a_session_over_a_host_the_socket_and_mcp_and_returns_its_id(sock_dir) -> None:
    sock = sock_dir / "host.sock"
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host, serving(host, sock):
        here = await start_background(host.call, "sleep 60", agent="main")
        async with await HostClient.connect(sock) as client:
            socket = await start_background(client.call, "sleep 61", agent="main", pty=True)
        async with mcp_session(sock, "main") as session:
            mcp = await start_background(over_mcp(session), "sleep 62")
        sessions = {s.id: s for s in host.sessions("main")}
        assert set(sessions) == {here, socket, mcp}
        assert all(s.running for s in sessions.values()) and sessions[socket].pty
        assert [sessions[sid].command for sid in (here, socket, mcp)] == ["sleep 60", "sleep 61", "sleep 62"]


async def test_start_background_fails_naming_the_result_when_the_run_is_not_running(sock_dir) -> None:
    sock = sock_dir / "host.sock"
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host, serving(host, sock):
        with pytest.raises(AssertionError, match="workdir-missing"):
            await start_background(host.call, "sleep 60", workdir="/no/such/folder")
        async with mcp_session(sock, "main") as session:
            with pytest.raises(AssertionError, match="'isError': True"):
                await start_background(over_mcp(session), "sleep 60", workdir="/no/such/folder")
        assert host.sessions() == []
