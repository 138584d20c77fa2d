"""Session names: a command summarised as "verb + target", so a list of sessions reads like a list of jobs."""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from .ids import new_session_id  # noqa: F401  (ids lived here once; the old import path still works)
from .redact import looks_secret, redact_word

NAME_TARGET_MAX = 48
SCAN_CHARS = 4096  # how much of a command a name is read from
SCAN_WORDS = 64
OPERATORS = frozenset(";&|()<>\n")

# Well-known options that take a separate value, for programs whose option values would read as targets.
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    verb: frozenset(opts.split())
    for verb, opts in {
        "top": "-d -n -p -u -U -o -O -s -w -E -e",
        "htop": "-d -p -u -s -F",
        "watch": "-n -d --interval",
        "read": "-a -d -i -n -N -p -t -u",
        "head": "-n -c",
        "tail": "-n -c -s --pid",
        "grep": "-e -f -m -A -B -C",
        "ssh": "-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w",
        "scp": "-c -F -i -J -l -o -P -S",
        "curl": "-A -b -c -d -e -F -H -o -T -u -w -X -x --data --header --output --request --user "
        "--user-agent",
        "wget": "-O -o -U --header --user --output-document",
        "git": "-C -c",
        "sudo": "-u -g -C -D -h -p -r -t -U",
        "timeout": "-s -k --signal --kill-after",
        "nice": "-n",
        "docker": "-H -c --context --config",
        "kubectl": "-n -o -l -c --namespace --context --selector",
        "psql": "-U -h -p -d -c",
        "mysql": "-u -h -P -D -e",
        "journalctl": "-u -n -p",
        "ps": "-o -p -u -C",
    }.items()
}
# Builtins whose arguments are variable names, not a target worth showing.
WITHOUT_TARGET = frozenset({"read", "mapfile", "readarray"})

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?[A-Za-z%]{0,2}")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class Word(NamedTuple):
    text: str
    quoted: bool  # any part of it was quoted


def derive_name(command: str) -> str:
    """Command verb plus its first target, secrets masked; the target is cut in the middle to 48 chars."""
    words = first_command_words(command)
    assignments = 0
    while assignments < len(words) and _ASSIGNMENT.match(words[assignments].text):
        assignments += 1  # FOO=1 make: the verb is the program
    if assignments == len(words):
        shown = " ".join(redact_word(w.text) for w in words)
        return _cut_middle(shown, NAME_TARGET_MAX) or "(empty)"
    verb_word, args = words[assignments].text, words[assignments + 1 :]
    verb = _cut_middle(redact_word(os.path.basename(verb_word.rstrip("/")) or verb_word), NAME_TARGET_MAX)
    target = None if verb in WITHOUT_TARGET else _target(verb, args)
    if target is None:
        return verb
    return f"{verb} {_cut_middle(redact_word(target), NAME_TARGET_MAX)}"


def _target(verb: str, args: list[Word]) -> str | None:
    i = 0
    while i < len(args):
        word = args[i].text
        if word == "--":
            return args[i + 1].text if i + 1 < len(args) else None
        if len(word) > 1 and word.startswith("-"):
            following = args[i + 1] if i + 1 < len(args) else None
            i += 2 if following is not None and _takes_value(verb, word, following) else 1
            continue
        if word:
            return word
        i += 1
    return None


def _takes_value(verb: str, option: str, following: Word) -> bool:
    """Whether ``following`` is ``option``'s value rather than the next argument."""
    if "=" in option or following.text.startswith("-") and not _NUMBER.fullmatch(following.text):
        return False
    if option in VALUE_OPTIONS.get(verb, ()):
        return True
    long = option.startswith("--")
    if long and looks_secret(option[2:]):
        return True
    if _NUMBER.fullmatch(following.text):
        return long or (len(option) == 2 and option[1].isalpha())
    return len(option) == 2 and option[1].isalpha() and following.quoted and _is_prompt(following.text)


def _is_prompt(text: str) -> bool:
    """A quoted word that reads as a prompt or message, not a file: it ends in a space, ``?`` or ``:``."""
    return text != text.rstrip() or text.rstrip().endswith(("?", ":", ">"))


def first_command_words(command: str) -> list[Word]:
    """Words of the first simple command (up to ``;``, ``&&``, ``|``, a newline…), quotes removed.

    One linear pass over at most ``SCAN_CHARS`` characters and ``SCAN_WORDS`` words; a quote left open
    (or cut off by the limit) runs to the end. ``$(…)`` and backquotes stay inside their word.
    """
    text = command[:SCAN_CHARS]
    words: list[Word] = []
    parts: list[str] = []
    quoted = in_word = False
    i, n = 0, len(text)
    while i < n and len(words) < SCAN_WORDS:
        ch = text[i]
        if ch in " \t\r" or ch in OPERATORS or (ch == "#" and not in_word):
            if in_word:
                words.append(Word("".join(parts), quoted))
                parts, quoted, in_word = [], False, False
            if ch in OPERATORS or ch == "#":
                break
            i += 1
            continue
        in_word = True
        if ch == "'":
            end = _find(text, "'", i + 1)
            parts.append(text[i + 1 : end])
            quoted, i = True, end + 1
        elif ch == '"':
            end = _closing_double_quote(text, i + 1)
            parts.append(re.sub(r'\\([\\"$`\n])', r"\1", text[i + 1 : end]))
            quoted, i = True, end + 1
        elif ch == "\\":
            parts.append(text[i + 1 : i + 2].replace("\n", ""))
            i += 2
        elif ch == "$" and text.startswith("$(", i) or ch == "`":
            end = _substitution_end(text, i)
            parts.append(text[i:end])
            i = end
        else:
            parts.append(ch)
            i += 1
    if in_word:
        words.append(Word("".join(parts), quoted))
    return words


def _find(text: str, char: str, start: int) -> int:
    found = text.find(char, start)
    return len(text) if found < 0 else found


def _closing_double_quote(text: str, start: int) -> int:
    i = start
    while True:
        i = _find(text, '"', i)
        before = i
        while before > start and text[before - 1] == "\\":
            before -= 1
        if i >= len(text) or (i - before) % 2 == 0:
            return i
        i += 1


def _substitution_end(text: str, start: int) -> int:
    """The index after a ``$(…)`` (nesting counted) or a backquoted command starting at ``start``."""
    if text[start] == "`":
        return _find(text, "`", start + 1) + 1
    depth, i = 0, start + 1
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _cut_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    keep = limit - 1
    left = (keep + 1) // 2
    return text[:left] + "…" + text[len(text) - (keep - left) :]
