"""The shell grammar's reading of a command: which forms are plain (may match) and which always ask, and the
command line that runs instead, checked by running it in a real shell."""

from __future__ import annotations

import subprocess

import pytest

from openclaw_tui.core.approvals import parse
from openclaw_tui.core.approvals.analysis import Analysis, Checked
from openclaw_tui.core.approvals.resolve import Resolved

MUST_ASK = {
    "a && $(b)": "command substitution",
    "a `b`": "command substitution",
    "a; b > f": "a redirect other than to /dev/null",
    "a >> log.txt": "a redirect other than to /dev/null",
    "a 2>/tmp/err": "a redirect other than to /dev/null",
    "a < input": "a redirect other than to /dev/null",
    "a >&2": "a redirect other than to /dev/null",
    "FOO=1 a": "leading VAR=value",
    "a & b": "& (a command in the background)",
    "a &": "& (a command in the background)",
    "a\nb": "commands on separate lines",
    "ls *.py": "unquoted glob",
    "ls x?y": "unquoted glob",
    "ls [ab]": "unquoted glob",
    "echo {a,b}": "braces",
    "cat ~/.ssh/id_rsa": "home directory",
    "echo $HOME": "a variable",
    "echo ${HOME}": "a variable",
    'echo "x$y"': "a variable",
    'echo "$(id)"': "command substitution",
    "rm$IFS-rf$IFS/": "a variable",
    "(a)": "a subshell",
    "{ a; }": "a command group",
    "f() { a; }": "a function definition",
    "cat <<EOF\nx\nEOF": "a here-document",
    "cat <<< x": "a here-string",
    "! a": "a negated command",
    "[[ -f x ]]": "a test",
    "time a": "the shell keyword 'time'",
    "if a; then b; fi": "if_statement",
    "a # hidden": "a comment",
    "a | b > f": "a redirect other than to /dev/null",
    "a |& b": "the operator '|&'",
    "diff <(a) <(b)": "process substitution",
    "echo $((1+2))": "arithmetic",
    "echo $'\\x41'": "ANSI-C string",
    "a && ": "does not read",
    "": "no command",
}


@pytest.mark.parametrize("command", sorted(MUST_ASK))
def test_a_form_that_is_not_plain_always_asks_and_says_why(command: str) -> None:
    found = parse(command)
    assert not found.plain
    assert any(MUST_ASK[command] in why for why in found.unusual), found.unusual


@pytest.mark.parametrize(("command", "argvs", "joins"), [
    ("git status", [["git", "status"]], []),
    ("git commit -m 'a b' && git push", [["git", "commit", "-m", "a b"], ["git", "push"]], ["&&"]),
    ("make || echo failed; ls -la | wc -l", [["make"], ["echo", "failed"], ["ls", "-la"], ["wc", "-l"]],
     ["||", ";", "|"]),
    ('echo "a\\"b" \'c d\' e\\ f "*.py" x"y"z', [["echo", 'a"b', "c d", "e f", "*.py", "xyz"]], []),
    ("echo \\$HOME 'it'\\''s'", [["echo", "$HOME", "it's"]], []),
    ("a 2>&1 >/dev/null", [["a"]], []),
    ("ls\n", [["ls"]], []),
    ("a &&\nb", [["a"], ["b"]], ["&&"]),
    ("make -j4 ARG=1", [["make", "-j4", "ARG=1"]], []),
])
def test_plain_word_commands_are_read_into_their_argv(command: str, argvs: list[list[str]], joins: list[str]) -> None:
    found = parse(command)
    assert found.plain, found.unusual
    assert [list(s.argv or ()) for s in found.segments] == argvs and list(found.joins) == joins


def test_redirects_to_dev_null_are_kept_for_the_segment_they_belong_to() -> None:
    found = parse("a >/dev/null && b 2>/dev/null | c &>/dev/null 2>&1 </dev/null")
    assert found.plain, found.unusual
    assert [s.redirects for s in found.segments] == [(">/dev/null",), ("2>/dev/null",),
                                                     (">/dev/null 2>&1", "2>&1", "</dev/null")]


def test_a_long_command_or_many_segments_is_never_matched() -> None:
    assert "too long" in " ".join(parse("echo " + "x" * 20_000).unusual)
    assert "too many" in " ".join(parse(" && ".join(["true"] * 100)).unusual)
    assert parse(" && ".join(["true"] * 3000)).unusual  # deep nesting is read without recursion


def _script(command: str) -> str:
    parsed = parse(command)
    checked = [Checked(s, Resolved(None, None, True)) for s in parsed.segments]
    script = Analysis(command, parsed, tuple(checked), "/usr/bin:/bin", "/", False).script()
    assert script is not None
    return script


@pytest.mark.parametrize("shell", ["bash", "sh", "dash", "zsh"])
def test_the_rebuilt_command_line_runs_exactly_the_argv_that_was_read(shell: str, tmp_path) -> None:
    exe = subprocess.run(["sh", "-c", f"command -v {shell}"], capture_output=True, text=True).stdout.strip()
    if not exe:
        pytest.skip(f"{shell} is not installed")
    command = "printf '[%s]' 'a b' \"c;d\" 'it'\\''s' e\\ f '$(id)' \"*\" && printf '|%s' x 2>/dev/null"
    script = _script(command)
    assert script.startswith("'printf' '[%s]' 'a b' 'c;d'")
    ran = subprocess.run([exe, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=30)
    assert ran.stdout == "[a b][c;d][it's][e f][$(id)][*]|x"
