"""Which columns of the session list fit a width, and how wide each is: pure, so the list and the tests agree
on one layout.

The status and the exit code stay visible down to 60 columns; any width left over goes to the name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    width: int
    justify: str = "left"


COLUMNS = (
    Column("mark", " ", 1),
    Column("mute", " ", 1),
    Column("node", "node", 5),
    Column("id", "id", 18),
    Column("name", "name", 22),
    Column("agent", "agent", 10),
    Column("state", "status", 18),
    Column("prompt", "prompt", 24),
    Column("cpu", "cpu", 4, "right"),
    Column("mem", "mem", 5, "right"),
    Column("runtime", "runtime", 7, "right"),
    Column("end", "exit", 8),
    Column("io", "io", 4),
    Column("where", "runs in", 8),
)

NAME_MAX = 48
NODE_MAX = 12  # a wide terminal shows names whole up to the length the host gives them
PROMPT_MAX = 60  # what a waiting session asks, before it is cut
GAP = 2
FIGURES_NAME = 16  # the name column's width to start from when the cpu and mem columns are shown

# How to make room, in order: ("drop", key), ("shrink", key, to), ("gap", to). The exit code goes last; the
# prompt (only there while a session waits at one) gives way before the name and the agent do. The figures
# go before anything else but "runs in" and "io" (which the session view's title line shows too) and the
# prompt's first cut; the info view has them whole.
STEPS: tuple[tuple[str, ...], ...] = (
    ("drop", "where"), ("drop", "io"), ("shrink", "prompt", "20"), ("drop", "mem"), ("drop", "cpu"),
    ("drop", "node"), ("gap", "1"),
    ("shrink", "agent", "6"), ("shrink", "name", "12"), ("shrink", "prompt", "12"), ("shrink", "name", "8"),
    ("shrink", "id", "12"), ("shrink", "state", "10"), ("drop", "runtime"), ("drop", "prompt"),
    ("drop", "agent"), ("shrink", "name", "4"), ("drop", "end"),
)


@dataclass(frozen=True)
class Layout:
    """The columns shown, each with its width, and the gap between them (one leading space besides)."""

    columns: tuple[Column, ...]
    gap: int

    @property
    def width(self) -> int:
        return 1 + sum(c.width for c in self.columns) + self.gap * (len(self.columns) - 1)

    def width_of(self, key: str) -> int:
        return next((c.width for c in self.columns if c.key == key), 0)


def fit(available: int, id_width: int | None = None, node_width: int | None = None,
        prompt_width: int | None = None, muted: bool = False, name_width: int | None = None,
        figures: bool = False) -> Layout:
    """The layout for ``available`` cells: as much as fits, in the order of :data:`STEPS`.

    ``id_width``: the longest id listed, when shorter than the column: the rest goes to the name.
    ``node_width``: the longest node name when nodes are configured (None: no node column).
    ``prompt_width``: the longest prompt of a waiting session listed (None: no prompt column).
    ``muted``: a session listed is muted (else no mute column).
    ``name_width``: the longest name listed: with a prompt column, a shorter name column leaves it the room.
    ``figures``: the dashboard shows the sessions' CPU and memory (else no such columns).
    """
    layout = Layout(COLUMNS, GAP)
    if not figures:
        layout = _apply(_apply(layout, ("drop", "cpu"), 0), ("drop", "mem"), 0)
    else:  # the name takes what is left over anyway: starting short leaves the figures room at 120 columns
        layout = _resize(layout, "name", FIGURES_NAME)
    if not muted:
        layout = _apply(layout, ("drop", "mute"), 0)
    if prompt_width is None:
        layout = _apply(layout, ("drop", "prompt"), 0)
    else:
        layout = _resize(layout, "prompt", max(len("prompt"), min(prompt_width, PROMPT_MAX)))
        if name_width is not None:
            layout = _resize(layout, "name", max(len("name"), min(name_width, layout.width_of("name"))))
    if node_width is None:
        layout = _apply(layout, ("drop", "node"), 0)
    else:
        node_width = max(len("local"), min(node_width, NODE_MAX))
        layout = _resize(_resize(layout, "node", node_width), "id", layout.width_of("id") + node_width + 1)
    if id_width is not None:
        layout = _resize(layout, "id", max(len("id"), min(id_width, layout.width_of("id"))))
    for step in STEPS:
        if layout.width <= available:
            break
        layout = _apply(layout, step, layout.width - available)
    slack = available - layout.width
    if slack > 0 and layout.width_of("name"):
        grow = min(slack, NAME_MAX - layout.width_of("name"))
        layout = _resize(layout, "name", layout.width_of("name") + max(0, grow))
    return layout


def _apply(layout: Layout, step: tuple[str, ...], excess: int) -> Layout:
    kind, *args = step
    if kind == "drop":
        return Layout(tuple(c for c in layout.columns if c.key != args[0]), layout.gap)
    if kind == "gap":
        return Layout(layout.columns, int(args[0]))
    key, smallest = args[0], int(args[1])
    current = layout.width_of(key)
    return _resize(layout, key, max(smallest, current - excess)) if current else layout


def _resize(layout: Layout, key: str, width: int) -> Layout:
    return Layout(tuple(replace(c, width=width) if c.key == key else c for c in layout.columns), layout.gap)
