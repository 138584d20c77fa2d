"""The allowlist, ``exec-approvals.json``: what may run outside the sandbox without asking, in OpenClaw's schema.

``{"version": 1, "defaults": {...}, "agents": {"<agent id>" | "*": {"allowlist": [{"pattern", "argPattern"?,
"source"?, "lastUsedAt"?}], ...}}}``. A ``pattern`` is a glob on the program's real path (the PATH lookup's
result with symlinks resolved; ``*`` stays inside one directory, ``**`` crosses them, ``~`` is the home
directory); a pattern without a slash is a bare name, which matches only a name looked up on PATH, never
``./name``. ``argPattern`` is a regular expression the arguments, joined by spaces, must match whole.
``defaults`` and an agent's table may also set ``security``, ``ask`` and ``askFallback``: they can only
tighten what the config says. Fields this code does not know are kept as they are.

The file is the host's own to rewrite (allow-always adds to it, a match records ``lastUsedAt``), never the
TOML config: each write reads the file again, changes it and replaces it atomically, mode 0600. It is read
again whenever it changed on disk (a stat per check), so a hand edit takes effect at the next run. A file
that cannot be read allows nothing, and is never overwritten until it reads again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .resolve import Resolved

VERSION = 1
EVERY_AGENT = "*"
MAX_ARGS_CHARS = 8192  # longer arguments are not matched by a pattern (a pattern could take long on them)
TOUCH_DELAY_S = 1.0  # lastUsedAt is written at most this often
POLICY_KEYS = ("security", "ask", "askFallback")


class AllowlistError(Exception):
    """The file cannot be changed; the message says why in one line."""


@dataclass(frozen=True)
class AllowlistEntry:
    """One allowlist entry (``agent`` is the key it is listed under)."""

    pattern: str
    arg_pattern: str | None = None
    agent: str = EVERY_AGENT

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pattern": self.pattern}
        if self.arg_pattern is not None:
            out["argPattern"] = self.arg_pattern
        return out

    def matches(self, argv: tuple[str, ...], resolved: Resolved, strict: bool = False) -> bool:
        """Whether this entry allows ``argv`` running the program ``resolved``; ``strict`` (a program that
        runs code its arguments carry) asks for an ``argPattern``."""
        if resolved.found is None or resolved.real is None or (strict and self.arg_pattern is None):
            return False
        if "/" in self.pattern or self.pattern.startswith("~"):
            if not glob_regex(os.path.expanduser(self.pattern)).fullmatch(resolved.real):
                return False
        elif not (resolved.looked_up and glob_regex(self.pattern).fullmatch(argv[0])):
            return False
        if self.arg_pattern is None:
            return True
        args = " ".join(argv[1:])
        compiled = _regex(self.arg_pattern)
        return len(args) <= MAX_ARGS_CHARS and compiled is not None and compiled.fullmatch(args) is not None


_globs: dict[str, re.Pattern[str]] = {}
_regexes: dict[str, re.Pattern[str] | None] = {}


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob as a regular expression: ``**`` any characters, ``*`` and ``?`` within one directory,
    ``[...]`` a class."""
    found = _globs.get(pattern)
    if found is None:
        out, i = [], 0
        while i < len(pattern):
            ch = pattern[i]
            if pattern.startswith("**", i):
                out.append(".*")
                i += 2
                continue
            if ch == "*":
                out.append("[^/]*")
            elif ch == "?":
                out.append("[^/]")
            elif ch == "[" and "]" in pattern[i + 2:]:
                end = pattern.index("]", i + 2)
                body = pattern[i + 1:end].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end
            else:
                out.append(re.escape(ch))
            i += 1
        found = _globs[pattern] = re.compile("".join(out), re.S)
    return found


def _regex(text: str) -> re.Pattern[str] | None:
    if text not in _regexes:
        try:
            _regexes[text] = re.compile(text, re.S)
        except re.error:
            _regexes[text] = None
    return _regexes[text]


def exact(argv: tuple[str, ...], real: str) -> AllowlistEntry:
    """The entry allowing exactly this program with exactly these arguments (what allow-always adds)."""
    return AllowlistEntry(real, "^" + re.escape(" ".join(argv[1:])) + "$")


def widened(argv: tuple[str, ...], real: str, keep: int) -> AllowlistEntry:
    """This program with its first ``keep`` arguments as given and any after (``keep`` 0: any arguments)."""
    if keep >= len(argv) - 1:
        return exact(argv, real)
    if keep <= 0:
        return AllowlistEntry(real)
    return AllowlistEntry(real, "^" + re.escape(" ".join(argv[1:keep + 1])) + "( .*)?$")


class Allowlist:
    """The file at ``path``, read again when it changes; :meth:`fresh` is what the loop calls."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problem: str | None = None  # why the file could not be read (then nothing matches)
        self._data: dict[str, Any] = {}
        self._seen: tuple[int, int, int] | None = None  # (inode, size, mtime) of what _data holds
        self._lock = threading.Lock()
        self._touched: dict[tuple[str, str, str | None], int] = {}
        self._touch_lock = threading.Lock()  # held for microseconds: the loop may take it
        self._touching = False

    # -- reading --------------------------------------------------------------------------------
    def stale(self) -> bool:
        """Whether the file changed since it was read (a stat: microseconds, fine on the loop)."""
        return _signature(self.path) != self._seen

    def load(self) -> None:
        """Read the file again (blocking: off the loop)."""
        with self._lock:
            self._read()

    def _read(self) -> None:
        seen = _signature(self.path)
        data, problem = _parse(self.path)
        self._data, self.problem, self._seen = data, problem, seen

    def entries(self, agent: str | None) -> list[AllowlistEntry]:
        """The entries that apply to ``agent``: its own, then every agent's (``*``)."""
        agents = self._data.get("agents", {})
        out = []
        for key in ([agent] if agent is not None and agent != EVERY_AGENT else []) + [EVERY_AGENT]:
            for item in (agents.get(key) or {}).get("allowlist") or []:
                if isinstance(item, dict) and isinstance(item.get("pattern"), str) and item["pattern"]:
                    arg = item.get("argPattern")
                    out.append(AllowlistEntry(item["pattern"], arg if isinstance(arg, str) else None, key))
        return out

    def match(self, agent: str | None, argv: tuple[str, ...], resolved: Resolved, strict: bool) -> AllowlistEntry | None:
        return next((e for e in self.entries(agent) if e.matches(argv, resolved, strict)), None)

    def policy(self, agent: str | None) -> dict[str, str]:
        """``security``, ``ask`` and ``askFallback`` as the file sets them for ``agent`` (its own table, else
        every agent's, else ``defaults``); only what it sets."""
        agents = self._data.get("agents", {})
        tables = [agents.get(agent) if agent else None, agents.get(EVERY_AGENT), self._data.get("defaults")]
        out: dict[str, str] = {}
        for key in POLICY_KEYS:
            for table in tables:
                if isinstance(table, dict) and isinstance(table.get(key), str):
                    out[key] = table[key]
                    break
        return out

    # -- writing --------------------------------------------------------------------------------
    def add(self, entries: list[AllowlistEntry], source: str = "allow-always") -> None:
        """Add ``entries`` (each under its ``agent``) unless already listed (blocking; raises AllowlistError)."""
        def change(data: dict[str, Any]) -> None:
            for entry in entries:
                listed = data.setdefault("agents", {}).setdefault(entry.agent, {}).setdefault("allowlist", [])
                if not any(isinstance(i, dict) and (i.get("pattern"), i.get("argPattern")) ==
                           (entry.pattern, entry.arg_pattern) for i in listed):
                    listed.append({**entry.to_json(), "source": source})
        self._rewrite(change)

    def touch(self, entry: AllowlistEntry) -> bool:
        """Record that ``entry`` allowed a run now; True when the caller should have :meth:`write_touches`
        run soon (off the loop: it writes the file), False when that is under way already."""
        with self._touch_lock:
            self._touched[(entry.agent, entry.pattern, entry.arg_pattern)] = int(time.time() * 1000)
            first, self._touching = not self._touching, True
        return first

    def write_touches(self) -> None:
        """Write the ``lastUsedAt`` of the entries touched since the last time (blocking)."""
        with self._touch_lock:
            touched, self._touched, self._touching = self._touched, {}, False

        def change(data: dict[str, Any]) -> None:
            for (agent, pattern, arg), at in touched.items():
                for item in ((data.get("agents") or {}).get(agent) or {}).get("allowlist") or []:
                    if isinstance(item, dict) and (item.get("pattern"), item.get("argPattern")) == (pattern, arg):
                        item["lastUsedAt"] = at
        try:
            self._rewrite(change)
        except AllowlistError:
            pass  # lastUsedAt is a convenience: a file that cannot be written keeps its old one

    def _rewrite(self, change: Callable[[dict[str, Any]], None]) -> None:
        with self._lock:
            data, problem = _parse(self.path)
            if problem is not None:
                raise AllowlistError(f"{self.path} cannot be changed: {problem}; fix or remove it first")
            data.setdefault("version", VERSION)
            change(data)
            try:
                _write(self.path, data)
            except OSError as exc:
                raise AllowlistError(f"cannot write {self.path}: {exc.strerror or exc}") from None
            self._read()


def _signature(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _parse(path: str) -> tuple[dict[str, Any], str | None]:
    """The file's JSON object ({} when there is no file), or why it cannot be used."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return {}, f"it does not read as JSON ({exc})"
    if not isinstance(data, dict):
        return {}, "it is not a JSON object"
    if data.get("version", VERSION) != VERSION:
        return {}, f"its version {data.get('version')!r} is not {VERSION}"
    if not isinstance(data.get("agents", {}), dict):
        return {}, "its agents is not an object"
    return data, None


def _write(path: str, data: dict[str, Any]) -> None:
    """Replace the file atomically with ``data`` (mode 0600, in a private directory), on stable storage."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".exec-approvals.", suffix=".tmp", dir=folder)  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)

