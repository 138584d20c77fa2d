"""Secrets out of what everyone sees: the words of a command shown as a session's name."""

from __future__ import annotations

import re

MASK = "***"

_SECRET_PART = re.compile(
    r"key|token|secret|pass(?:w(?:or)?d|phrase)|credential|auth|(?:^|[_.-])(?:pass|pw)(?:$|[_.-])", re.IGNORECASE
)
# Whole name parts that contain a secret word and name something else. Every other part still counts, so
# ``GIT_AUTHOR_TOKEN`` is a secret and ``AUTHORIZATION`` (another part) too.
_NOT_SECRET_PARTS = frozenset({"AUTHOR", "AUTHORS", "KEYBOARD", "KEYBOARDS", "KEYMAP", "KEYMAPS", "TOKENIZER",
                               "TOKENIZERS"})
_PART_SEPARATORS = re.compile(r"[_.-]")
# Each pattern starts only where its kind of word starts (a lookbehind) and never backtracks into a
# run (possessive quantifiers), so a long hostile word costs linear time, not quadratic.
_ASSIGNMENT = re.compile(r"(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]*+)=(\"[^\"]*+\"?|'[^']*+'?|\S++)")
_WHOLE_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*+)=(.+)", re.DOTALL)
_OPTION = re.compile(
    r"(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_-]*+)(=|[ \t]++)(\"[^\"]*+\"?|'[^']*+'?|[^\s\"']++)"
)
_HEADER = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z][A-Za-z0-9-]*+)[ \t]*+:(?!//)")
_HEADER_VALUE = re.compile(r"[^\n'\"]*+")
_HEADER_NAMES = re.compile(r"(?:proxy-)?authorization|(?:set-)?cookie", re.IGNORECASE)
_SCHEME_CREDENTIAL = re.compile(
    r"(?<![A-Za-z0-9])(bearer|basic|digest)[ \t]++(?!\*\*\*)[^\s'\"]++", re.IGNORECASE
)
_URL_USERINFO = re.compile(
    r"(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*+://)([^/@\s:'\"]*+)(?::([^/@\s'\"]*+))?@"
)


def looks_secret(name: str) -> bool:
    """Whether a variable, option or header name looks like it holds a secret."""
    if _SECRET_PART.search(name) is None:
        return False
    parts = [p for p in _PART_SEPARATORS.split(name) if p.upper() not in _NOT_SECRET_PARTS]
    return bool(_SECRET_PART.search("_".join(parts)))


def url_credentials(text: str) -> bool:
    """Whether ``text`` holds a URL that carries a credential, as :func:`redact` masks them: a password in
    ``scheme://user:pass@``, or a lone http(s) user name (often a token)."""
    return "://" in text and any(_url(m) != m.group(0) for m in _URL_USERINFO.finditer(text))


def redact_word(word: str) -> str:
    """One shell word (quotes already removed) with its secrets masked.

    A whole word ``NAME=value`` masks the rest of the word, spaces included (``"TOKEN=a b"`` is one word).
    """
    whole = _WHOLE_ASSIGNMENT.fullmatch(word)
    if whole and looks_secret(whole.group(1)):
        return f"{whole.group(1)}={MASK}"
    return redact(word)


def redact(text: str) -> str:
    """``text`` with every secret this module knows of masked."""
    text = _headers(text)
    text = _SCHEME_CREDENTIAL.sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _URL_USERINFO.sub(_url, text)
    text = _OPTION.sub(_option, text)
    return _ASSIGNMENT.sub(_assignment, text)


def _assignment(m: re.Match[str]) -> str:
    return f"{m.group(1)}={MASK}" if looks_secret(m.group(1)) else m.group(0)


def _headers(text: str) -> str:
    """Mask the value of every secret-looking ``Name: value`` header, up to the end of its line or quote."""
    out, done = [], 0
    for m in _HEADER.finditer(text):
        name = m.group(1)
        if m.start() < done or not (_HEADER_NAMES.fullmatch(name) or looks_secret(name)):
            continue
        value = _HEADER_VALUE.match(text, m.end())
        if value is None or not value.group(0).strip():
            continue
        out.append(f"{text[done : m.start()]}{name}: {MASK}")
        done = value.end()
    return "".join(out) + text[done:] if out else text


def _option(m: re.Match[str]) -> str:
    name = m.group(1).lstrip("-")
    if len(name) < 2 or not looks_secret(name):  # a one-letter option says nothing of its value
        return m.group(0)
    return f"{m.group(1)}{m.group(2)}{MASK}"


def _url(m: re.Match[str]) -> str:
    scheme, user, password = m.group(1), m.group(2), m.group(3)
    if password is not None:
        return f"{scheme}{user}:{MASK}@"
    if scheme.lower() in ("http://", "https://") and user:  # a token passed as the user name
        return f"{scheme}{MASK}@"
    return m.group(0)
