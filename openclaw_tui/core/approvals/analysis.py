"""A command judged against the allowlist, segment by segment, and the command line that runs if it passes.

Every segment must match an entry; a command that is not plain (see :mod:`.shellparse`) matches nothing.
What runs for a plain command is its parsed argv written out again, every word in single quotes and each
program by the absolute path its lookup found, so the shell can neither split, expand nor look up
anything differently from what was judged. Just before the spawn every program is looked up again
(:meth:`Analysis.moved`), and a run whose program changed meanwhile does not start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .allowlist import Allowlist, AllowlistEntry, exact
from .resolve import Resolved, quoted, resolve
from .shellparse import Parsed, Segment, parse
from .unreviewable import unreviewable

SHOWN_CHARS = 80  # of a segment, in the words that say why it asks


@dataclass(frozen=True)
class Checked:
    """One segment: its program as looked up, the entry that allows it (None: none does) and why no
    pattern can judge it, if so."""

    segment: Segment
    resolved: Resolved | None = None
    entry: AllowlistEntry | None = None
    unreviewable: str | None = None

    @property
    def matched(self) -> bool:
        return self.entry is not None

    def miss(self) -> str:
        """Why this segment does not pass, in words."""
        seg = self.segment
        shown = seg.text if len(seg.text) <= SHOWN_CHARS else seg.text[:SHOWN_CHARS - 1] + "…"
        if seg.argv is None:
            return f"`{shown}` has {seg.why}"
        if self.resolved is None or self.resolved.real is None:
            return f"`{seg.argv[0]}` is not a program found on PATH"
        if self.unreviewable:
            return f"`{shown}`: {self.unreviewable}"
        return f"`{shown}` ({self.resolved.real}) is not on the allowlist"

    def to_json(self) -> dict[str, Any]:
        real = self.resolved.real if self.resolved is not None else None
        return {"argv": list(self.segment.argv) if self.segment.argv is not None else None, "resolvedPath": real,
                "matched": self.matched, "text": self.segment.text,
                "why": None if self.matched else self.miss()}


@dataclass(frozen=True)
class Analysis:
    """``command`` read, looked up on ``path`` from ``cwd`` and matched (see the module's docstring)."""

    command: str
    parsed: Parsed
    segments: tuple[Checked, ...]
    path: str
    cwd: str
    pty: bool

    @property
    def matched(self) -> bool:
        return self.parsed.plain and all(s.matched for s in self.segments)

    def misses(self) -> list[str]:
        """Why it does not pass: each segment that misses, and what makes the line unusual."""
        found = [s.miss() for s in self.segments if not s.matched]
        structural = [why for why in self.parsed.unusual if not any(s.segment.why == why for s in self.segments)]
        return structural + found

    def script(self) -> str | None:
        """The command line to run instead of ``command`` (None when it is not plain)."""
        if not self.parsed.plain:
            return None
        parts: list[str] = []
        for i, checked in enumerate(self.segments):
            argv = checked.segment.argv
            assert argv is not None
            found = checked.resolved.found if checked.resolved is not None else None
            words = [quoted(found or argv[0]), *map(quoted, argv[1:]), *checked.segment.redirects]
            if i:
                parts.append(self.parsed.joins[i - 1])
            parts.append(" ".join(words))
        return " ".join(parts)

    def always_refused(self) -> str | None:
        """Why "allow always" cannot be offered for this command (None: it can)."""
        if not self.parsed.plain:
            return f"it is not a plain command ({'; '.join(self.parsed.unusual)}), which no pattern can judge"
        for checked in self.segments:
            if checked.resolved is None or checked.resolved.real is None:
                return f"`{checked.segment.argv[0] if checked.segment.argv else ''}` is not a program found on PATH"
            if checked.unreviewable:
                return checked.unreviewable
        return None

    def proposed(self, agent: str) -> list[AllowlistEntry]:
        """What "allow always" adds: each segment that misses, by its exact program and arguments."""
        out = []
        for checked in self.segments:
            argv, resolved = checked.segment.argv, checked.resolved
            if not checked.matched and argv is not None and resolved is not None and resolved.real:
                entry = exact(argv, resolved.real)
                out.append(AllowlistEntry(entry.pattern, entry.arg_pattern, agent))
        return out

    def programs(self) -> list[Program]:
        """Each segment's program as it was looked up, for :func:`moved` to look up again."""
        return [(c.segment.argv[0], c.resolved.found, c.resolved.real) for c in self.segments
                if c.segment.argv is not None and c.resolved is not None]


Program = tuple[str, str | None, str | None]
"""A program's name, the path its lookup found and that path with symlinks resolved."""


def moved(programs: list[Program], path: str, cwd: str) -> str | None:
    """Which program resolves differently now than when it was judged (None: none does)."""
    for name, found, real in programs:
        now = resolve(name, path, cwd)
        if (now.found, now.real) != (found, real):
            return f"`{name}` resolves to {now.real or 'nothing'} now, not {real or 'nothing'} as when it was judged"
    return None


def analyze(command: str, cwd: str, path: str, pty: bool, allowlist: Allowlist, agent: str | None) -> Analysis:
    """Read ``command``, look up each program on the run's ``path`` and match it (file already fresh)."""
    parsed = parse(command)
    checked = []
    for segment in parsed.segments:
        if segment.argv is None:
            checked.append(Checked(segment))
            continue
        resolved = resolve(segment.argv[0], path, cwd)
        why = unreviewable(segment.argv, resolved.real, pty)
        entry = allowlist.match(agent, segment.argv, resolved, strict=why is not None)
        checked.append(Checked(segment, resolved, entry, why))
    return Analysis(command, parsed, tuple(checked), path, cwd, pty)
