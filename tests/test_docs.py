"""The README and docs/ hold together: every link resolves, every path and module they name exists, every
page is reachable from the index, and every config example is one the host reads without a warning.

Links are checked as GitHub renders them: a relative link names a file or folder of the repository, a
``#anchor`` names a heading of its target (GitHub's rule: lowercase, spaces to ``-``, punctuation other
than ``-`` and ``_`` dropped, a repeated heading numbered ``-1``, ``-2``...), an image names a file, and an
http(s) link is only checked to be well formed (the suite has no network). Text in code blocks and code
spans is not a link.
"""

from __future__ import annotations

import importlib
import re
import tomllib
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from openclaw_tui.core.config import ConfigWarning, load_settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]]+\]:\s*(\S+)", re.M)
HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.M)
LINE_ANCHOR = re.compile(r"L\d+(-L\d+)?")  # GitHub's line anchors on a file that is not Markdown
HOST = re.compile(r"[\w-]+(\.[\w-]+)*(:\d+)?")


def _blank(match: re.Match[str]) -> str:
    """The match with every character but newlines made a space: positions (and so line numbers) stay."""
    return re.sub(r"[^\n]", " ", match.group(0))


def prose(text: str) -> str:
    """``text`` without its code blocks and code spans, at the same positions."""
    return CODE_SPAN.sub(_blank, FENCE.sub(_blank, text))


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as rendered, lowercased, spaces to ``-``, punctuation other
    than ``-`` and ``_`` dropped."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)", r"\1", text)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a Markdown page, a repeated heading's numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for match in HEADING.finditer(FENCE.sub(_blank, text)):
        slug = anchor(match.group(2))
        found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return found


def links(text: str) -> list[tuple[int, bool, str]]:
    """``(line, is_image, target)`` for every inline link, image and link definition outside code."""
    plain = prose(text)
    found = [(m.start(), m.group(1) == "!", m.group(3).strip("<>")) for m in LINK.finditer(plain)]
    found += [(m.start(), False, m.group(1)) for m in DEFINITION.finditer(plain)]
    return sorted((plain.count("\n", 0, at) + 1, image, target) for at, image, target in found)


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with each link of ``page`` that does not resolve, as ``page:line: target: why``."""
    problems = []
    for line, image, target in links(page.read_text()):
        why = _why_broken(page, root, image, target)
        if why:
            problems.append(f"{page.relative_to(root)}:{line}: {target or '(empty)'}: {why}")
    return problems


def _why_broken(page: Path, root: Path, image: bool, target: str) -> str | None:
    parts = urlsplit(target)
    if parts.scheme in ("http", "https"):
        if not HOST.fullmatch(parts.netloc) or any(c.isspace() for c in target):
            return "not a well-formed URL"
        return None
    if parts.scheme == "mailto":
        return None if "@" in parts.path else "not an e-mail address"
    if parts.scheme or target.startswith("//"):
        return "only repository files and http(s) links resolve for every reader"
    if not target:
        return "empty link"
    path, _, fragment = target.partition("#")
    if path.startswith("/"):
        return "an absolute path; on GitHub it names the site's root, not the repository's"
    file = (page.parent / unquote(path)).resolve() if path else page.resolve()
    if not file.is_relative_to(root.resolve()):
        return "points outside the repository"
    if not file.exists():
        return "no such file or folder"
    if image and not file.is_file():
        return "an image must be a file"
    if not fragment:
        return None
    if file.suffix != ".md":
        return None if LINE_ANCHOR.fullmatch(fragment) else f"no anchors in {file.name}, only line numbers"
    if fragment not in anchors(file.read_text()):
        return f"no heading with anchor #{fragment} in {file.relative_to(root.resolve())}"
    return None


def test_every_link_in_the_readme_and_docs_resolves() -> None:
    assert len(PAGES) > 5, PAGES
    assert [problem for page in PAGES for problem in broken_links(page)] == []


def test_the_link_check_reports_each_kind_of_broken_link(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "pic.svg").write_text("<svg/>")
    (tmp_path / "tool.py").write_text("pass\n")
    other = "# Nodes: other machines over SSH\n\n## Set up\n\n## Set up\n"
    (tmp_path / "docs" / "other.md").write_text(other)
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n## `openclaw-tui call`\n\n"
        "[ok](other.md#nodes-other-machines-over-ssh) [ok](other.md#set-up-1) [ok](#openclaw-tui-call)\n"
        "![ok](../pic.svg) [ok](../docs/) [ok](https://example.com/a?b#c) [ok](../tool.py#L1-L2)\n"
        "`[not a link](nowhere.md)`\n```\n[not a link](nowhere.md)\n```\n"
        "[gone](missing.md)\n"
        "[no anchor](other.md#set-up-2)\n"
        "[no anchor here](#page-1)\n"
        "![no image](../missing.svg)\n"
        "![a folder](../docs)\n"
        "[bad url](https:/example.com)\n"
        "[outside](../../elsewhere.md)\n"
        "[absolute](/docs/other.md)\n"
        "[scheme](file:///etc/passwd)\n"
        "[empty]()\n"
        "[line anchor on markdown](other.md#L3)\n"
        "[ref]: missing-too.md\n"
    )
    assert broken_links(page, tmp_path) == [
        "docs/page.md:11: missing.md: no such file or folder",
        "docs/page.md:12: other.md#set-up-2: no heading with anchor #set-up-2 in docs/other.md",
        "docs/page.md:13: #page-1: no heading with anchor #page-1 in docs/page.md",
        "docs/page.md:14: ../missing.svg: no such file or folder",
        "docs/page.md:15: ../docs: an image must be a file",
        "docs/page.md:16: https:/example.com: not a well-formed URL",
        "docs/page.md:17: ../../elsewhere.md: points outside the repository",
        "docs/page.md:18: /docs/other.md: an absolute path; on GitHub it names the site's root, not the "
        "repository's",
        "docs/page.md:19: file:///etc/passwd: only repository files and http(s) links resolve for every "
        "reader",
        "docs/page.md:20: (empty): empty link",
        "docs/page.md:21: other.md#L3: no heading with anchor #L3 in docs/other.md",
        "docs/page.md:22: missing-too.md: no such file or folder",
    ]


@pytest.mark.parametrize(("heading", "expected"), [
    ("Nodes: other machines over SSH", "nodes-other-machines-over-ssh"),
    ("Upgrading, and restarting (safely)", "upgrading-and-restarting-safely"),
    ("`openclaw-tui call`", "openclaw-tui-call"),
    ("Where commands run: sandbox, host, elevated", "where-commands-run-sandbox-host-elevated"),
    ("A package's face", "a-packages-face"),
    ("exec_tool and [the docs](x.md)", "exec_tool-and-the-docs"),
    ("The tools, the Python API — and more", "the-tools-the-python-api--and-more"),
])
def test_anchors_follow_githubs_rule(heading: str, expected: str) -> None:
    assert anchor(heading) == expected


# -- what the pages name exists ----------------------------------------------------------------------------
PACKAGE = ROOT / "openclaw_tui"
ROOTED = ("openclaw_tui/", "tests/", "bench/", "screenshots/", "docs/")  # named from the repository's root
IN_PACKAGE = ("core/", "remote/", "terminal/", "ui/", "commands/")  # named inside openclaw_tui/, as docs do
PATH = re.compile(r"(?<![\w$~./-])((?:[\w-]+/)+[\w.-]*|[\w-]+\.(?:py|tcss))(?![\w/-])")
MODULE = re.compile(r"(?<![\w./-])openclaw_tui(?:\.\w+)+")


def named_paths(text: str) -> list[str]:
    """Paths of the repository named in code spans: ``bench/host.py``, ``core/procs/``, ``toolhost.py``."""
    spans = [m.group(2) for m in CODE_SPAN.finditer(FENCE.sub(_blank, text))]
    return [p for span in spans for p in PATH.findall(span)
            if p.startswith(ROOTED + IN_PACKAGE) or "/" not in p]


def missing_paths(text: str, root: Path = ROOT) -> list[str]:
    package = root / "openclaw_tui"
    missing = []
    for path in named_paths(text):
        if "/" not in path:
            found = any(p.is_file() for top in ("openclaw_tui", "tests", "bench")
                        for p in (root / top).rglob(path))
        else:
            found = (root / path if path.startswith(ROOTED) else package / path).exists()
        if not found:
            missing.append(path)
    return missing


def missing_modules(text: str) -> list[str]:
    """Dotted names of the product in code spans (``openclaw_tui.terminal``, ``openclaw_tui.ToolHost``) that
    neither import nor are an attribute of a module that does."""
    spans = [m.group(2) for m in CODE_SPAN.finditer(FENCE.sub(_blank, text))]
    return [name for span in spans for name in MODULE.findall(span) if not _resolves(name)]


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_path_and_module_the_pages_name_exists() -> None:
    named = {page.name: named_paths(page.read_text()) for page in PAGES}
    assert sum(map(len, named.values())) > 20, named  # the check sees the paths the pages name
    missing = {page.name: missing_paths(text) + missing_modules(text)
               for page in PAGES for text in [page.read_text()]}
    assert {name: found for name, found in missing.items() if found} == {}


def test_the_path_check_sees_the_old_module_names() -> None:
    text = ("`core/toolcall.py` and `remote/views.py`, `openclaw_tui/remote/protocol.py`, `placement.py`; "
            "fine: `core/calls/`, `bench/host.py`, `python tests/ui/make_screenshots.py`, `toolhost.py`, "
            "`$XDG_RUNTIME_DIR/openclaw-tui/copies/`, `~/.ssh`, `/tmp/x`, `a/b`\n"
            "```\ncore/toolcall.py\n```\n"
            "`openclaw_tui.core.toolcall`, `python -m openclaw_tui.terminal`, "
            "`openclaw_tui.ToolHost.nothing`")
    assert missing_paths(text) == ["core/toolcall.py", "remote/views.py", "openclaw_tui/remote/protocol.py",
                                   "placement.py"]
    assert missing_modules(text) == ["openclaw_tui.core.toolcall", "openclaw_tui.ToolHost.nothing"]


# -- the pages as a whole ----------------------------------------------------------------------------------
def test_every_doc_is_listed_in_the_index_and_on_the_front_page() -> None:
    index = {target.partition("#")[0] for _, _, target in links((DOCS / "README.md").read_text())}
    front = {target.partition("#")[0] for _, _, target in links((ROOT / "README.md").read_text())}
    pages = {page.name for page in DOCS.glob("*.md")} - {"README.md"}
    assert pages - index == set(), "docs/README.md does not list these"
    assert {f"docs/{p}" for p in pages} - front == set(), "README.md does not link these"


def test_the_readme_stays_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 250, f"README.md has {lines} lines: move reference text to docs/ (see docs/README.md)"


def config_examples(text: str) -> list[str]:
    return [m.group(3) for m in FENCE.finditer(text) if m.group(2).strip() == "toml"]


def config_warnings(example: str, tmp_path: Path) -> list[str]:
    """What the host's loader says about ``example`` as a config file (nothing, for a good one)."""
    path = tmp_path / "config.toml"
    path.write_text(example)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_settings(path, env={"HOME": str(tmp_path)})
    return [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]


def test_every_config_example_in_docs_is_read_without_a_warning(tmp_path: Path) -> None:
    examples = [(page.name, example) for page in sorted(DOCS.glob("*.md"))
                for example in config_examples(page.read_text())]
    assert len(examples) >= 5, examples
    for name, example in examples:
        tomllib.loads(example)
        assert config_warnings(example, tmp_path) == [], (name, example)


def test_the_config_check_sees_a_misspelt_setting(tmp_path: Path) -> None:
    assert config_warnings("[tools.exec]\ntimeoutSecs = 600\n", tmp_path) == [
        "unknown setting tools.exec.timeoutSecs ignored"]
