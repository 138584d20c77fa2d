"""A shell command read by a real shell grammar (tree-sitter-bash) into the plain commands it runs.

Only a command made of plain word commands joined by ``&&``, ``||``, ``;`` and ``|``, with redirects to
``/dev/null`` and ``2>&1``, is *plain*: each of its segments is then an argv known before anything runs,
which an allowlist can judge. Everything else makes the command unusual, and the reason is kept, in the
words an operator reads: substitutions, variables, other redirects, ``&``, subshells, heredocs, leading
``VAR=…``, functions, keywords, unquoted globs and braces, comments, and commands on separate lines.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

MAX_CHARS = 16_384  # longer commands are never matched: nobody reviews them by pattern
MAX_SEGMENTS = 64
JOINS = ("&&", "||", ";", "|")
DEV_NULL = "/dev/null"
KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
                      "do", "done", "in", "function", "time", "coproc", "{", "}", "!", "[[", "]]"})

_EXPANDS = {
    "command_substitution": "a command substitution $(…) or `…`",
    "process_substitution": "a process substitution <(…)",
    "simple_expansion": "a variable ($VAR)",
    "expansion": "a variable (${…})",
    "arithmetic_expansion": "an arithmetic expansion $((…))",
    "ansi_c_string": "an ANSI-C string $'…'",
    "translated_string": "a translated string $\"…\"",
    "brace_expression": "a brace expansion {…}",
}
_STATEMENTS = {
    "subshell": "a subshell ( … )",
    "compound_statement": "a command group { … }",
    "function_definition": "a function definition",
    "negated_command": "a negated command (!)",
    "test_command": "a test [[ … ]]",
    "variable_assignment": "a variable assignment",
    "variable_assignments": "a variable assignment",
    "declaration_command": "a declaration (export, local, …)",
    "unset_command": "an unset",
    "heredoc_redirect": "a here-document (<<)",
    "herestring_redirect": "a here-string (<<<)",
}
_UNQUOTED = {"*": "an unquoted glob (*, ?, [ … ])", "?": "an unquoted glob (*, ?, [ … ])",
             "[": "an unquoted glob (*, ?, [ … ])", "]": "an unquoted glob (*, ?, [ … ])",
             "{": "unquoted braces { }", "}": "unquoted braces { }", "$": "a variable or expansion ($)",
             "`": "a command substitution (`…`)"}
_PUNCTUATION = set("()<>|&;'\" \t\n")


@dataclass(frozen=True)
class Segment:
    """One command of the line: its ``argv`` and redirects when it is plain, else ``why`` it is not."""

    text: str
    argv: tuple[str, ...] | None = None
    redirects: tuple[str, ...] = ()
    why: str | None = None


@dataclass(frozen=True)
class Parsed:
    """A command line: its segments, the join after each but the last, and why it is not plain (empty
    when it is)."""

    segments: tuple[Segment, ...]
    joins: tuple[str, ...]
    unusual: tuple[str, ...]

    @property
    def plain(self) -> bool:
        return not self.unusual and bool(self.segments)


_local = threading.local()


def _parser() -> Parser:
    """One parser per thread (a tree-sitter parser is not to be shared between threads)."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(Language(tree_sitter_bash.language()))
    return parser


def parse(command: str) -> Parsed:
    """``command`` as the shell reads it (see the module's docstring)."""
    if len(command) > MAX_CHARS:
        return Parsed((), (), (f"longer than {MAX_CHARS} characters, too long to review by pattern",))
    source = command.encode("utf-8", "surrogatepass")
    tree = _parser().parse(source)
    reader = _Reader(source)
    reader.program(tree.root_node)
    if tree.root_node.has_error:
        reader.problem("something the shell grammar does not read")
    if not reader.segments:
        reader.problem("no command")
    if len(reader.segments) > MAX_SEGMENTS:
        reader.problem(f"more than {MAX_SEGMENTS} commands, too many to review one by one")
    return Parsed(tuple(reader.segments), tuple(reader.joins), tuple(dict.fromkeys(reader.unusual)))


class _Reader:
    """Walks a parse tree once, collecting the segments, their joins and what is unusual."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.segments: list[Segment] = []
        self.joins: list[str] = []
        self.unusual: list[str] = []
        self._join = ""  # the operator read since the last segment

    def problem(self, why: str) -> None:
        self.unusual.append(why)

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")

    def add(self, segment: Segment) -> None:
        if self.segments:
            self.joins.append(self._join or ";")
        self._join = ""
        self.segments.append(segment)
        if segment.why:
            self.problem(segment.why)

    # -- statements -------------------------------------------------------------------------------
    def program(self, node: Node) -> None:
        separated = True  # nothing before the first statement
        for child in node.children:
            if child.type == ";":
                separated, self._join = True, ";"
            elif child.type == "&":
                self.problem("& (a command in the background)")
                separated, self._join = True, ";"
            elif child.type == "comment":
                self.problem("a comment (#)")
            elif child.is_named:
                if not separated:
                    self.problem("commands on separate lines (join them with ; or && on one line)")
                self.statement(child)
                separated = False
            else:
                self.problem(f"the operator {self.text(child)!r}")

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind == "command":
            self.command(node)
        elif kind == "redirected_statement":
            self.redirected(node)
        elif kind in ("pipeline", "list"):
            for child in _rest_after_deep_lists(node):
                if child.is_named:
                    self.statement(child)
                elif child.type in JOINS:
                    self._join = child.type
                else:
                    self.problem(f"the operator {child.type!r}")
        else:
            self.add(Segment(self.text(node), why=_STATEMENTS.get(kind, f"a shell construct ({kind})")))

    def redirected(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        redirects = [self.redirect(r) for r in node.children_by_field_name("redirect")]
        if body is not None and body.type == "command":
            self.command(body, redirects, self.text(node))
        elif body is not None and body.type in ("list", "pipeline"):
            # the grammar hangs trailing redirects on the whole list; the shell gives them to its last command
            self.statement(body)
            last = self.segments[-1]
            why = last.why or next((problem for _, problem in redirects if problem), None)
            kept = (*last.redirects, *(r for r, _ in redirects if r)) if why is None else ()
            self.segments[-1] = replace(last, text=last.text + self.text(node)[body.end_byte - node.start_byte:],
                                        redirects=kept, argv=last.argv if why is None else None, why=why)
            if why and not last.why:
                self.problem(why)
        else:
            kind = body.type if body is not None else ""
            self.add(Segment(self.text(node), why=_STATEMENTS.get(kind, "a redirect of a whole construct")))

    def command(self, node: Node, outer: list[tuple[str | None, str | None]] | None = None,
                text: str | None = None) -> None:
        argv: list[str] = []
        redirects: list[tuple[str | None, str | None]] = []
        why: str | None = None
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            if child.type == "variable_assignment":
                why = why or "a leading VAR=value assignment"
            elif field == "name":
                word, problem = self.word(child.children[0]) if child.children else (None, "an empty command")
                if word is not None and word in KEYWORDS:
                    problem = f"the shell keyword {word!r}"
                argv.append(word or "")
                why = why or problem
            elif field == "argument":
                word, problem = self.word(child)
                argv.append(word or "")
                why = why or problem
            elif field == "redirect":
                redirects.append(self.redirect(child))
            elif child.is_named:
                why = why or _STATEMENTS.get(child.type, f"a shell construct ({child.type})")
        redirects += outer or []
        why = why or next((problem for _, problem in redirects if problem), None)
        if not argv and why is None:
            why = "no command name"
        plain = why is None
        self.add(Segment(text or self.text(node), tuple(argv) if plain else None,
                         tuple(r for r, _ in redirects if r) if plain else (), why))

    # -- words and redirects ----------------------------------------------------------------------
    def word(self, node: Node) -> tuple[str | None, str | None]:
        """The literal value of one word, or why it has none until the shell runs."""
        kind = node.type
        if kind in ("word", "number"):
            return _unquoted(self.text(node))
        if kind == "raw_string":
            return self.text(node)[1:-1], None
        if kind == "string":
            if any(c.is_named and c.type != "string_content" for c in node.children):
                bad = next(c.type for c in node.children if c.is_named and c.type != "string_content")
                return None, _EXPANDS.get(bad, "an expansion inside double quotes")
            return _double_quoted(self.text(node)[1:-1])
        if kind == "concatenation":
            parts = [self.word(c) for c in node.children]
            problem = next((p for _, p in parts if p), None)
            return (None, problem) if problem else ("".join(v or "" for v, _ in parts), None)
        return None, _EXPANDS.get(kind, f"a shell construct ({kind})")

    def redirect(self, node: Node) -> tuple[str | None, str | None]:
        """A redirect as it will be written again (``>/dev/null``, ``2>&1``), or why it may not be kept."""
        if node.type != "file_redirect":
            return None, _STATEMENTS.get(node.type, f"a redirect ({node.type})")
        fd_node = node.child_by_field_name("descriptor")
        fd = self.text(fd_node) if fd_node is not None else ""
        op = next((c.type for c in node.children if not c.is_named), "")
        target = node.child_by_field_name("destination")
        dest, _ = self.word(target) if target is not None else (None, None)
        shown = self.text(node)
        if op == ">&" and fd == "2" and dest == "1":
            return "2>&1", None
        if dest == DEV_NULL and op in (">", ">>") and fd in ("", "1", "2"):
            return f"{'' if fd == '1' else fd}{op}{DEV_NULL}", None
        if dest == DEV_NULL and op in ("&>", "&>>"):  # bash's, written as every POSIX shell reads it
            return f"{op[1:]}{DEV_NULL} 2>&1", None
        if dest == DEV_NULL and op == "<" and fd in ("", "0"):
            return f"<{DEV_NULL}", None
        return None, f"a redirect other than to /dev/null or 2>&1 ({shown})"


def _rest_after_deep_lists(node: Node) -> Iterator[Any]:
    """The children of a ``list`` or ``pipeline`` in source order, nested lists opened without recursion
    (``a && b && c`` nests to the left as deep as it is long)."""
    stack = [iter(node.children)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif child.type == node.type:
            stack.append(iter(child.children))
        else:
            yield child


def _unquoted(text: str) -> tuple[str | None, str | None]:
    """An unquoted word's value: backslashes taken away; anything the shell would expand is a problem."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 < len(text) and text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        if ch in _UNQUOTED:
            return None, _UNQUOTED[ch]
        if ch == "~" and i == 0:
            return None, "a ~ (home directory) expansion"
        if ch in _PUNCTUATION:
            return None, f"the shell character {ch!r}"
        out.append(ch)
        i += 1
    return "".join(out), None


def _double_quoted(content: str) -> tuple[str | None, str | None]:
    """A double-quoted string's value: only ``\\$ \\` \\" \\\\`` and a backslash-newline are escapes there."""
    out: list[str] = []
    i = 0
    while i < len(content):
        ch = content[i]
        nxt = content[i + 1] if i + 1 < len(content) else ""
        if ch == "\\" and nxt in ("$", "`", '"', "\\", "\n"):
            out.append("" if nxt == "\n" else nxt)
            i += 2
            continue
        if ch in ("$", "`"):
            return None, "an expansion inside double quotes"
        out.append(ch)
        i += 1
    return "".join(out), None
