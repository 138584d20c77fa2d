"""Session ids: readable random slugs, each naming one job for the host's whole life, never issued twice."""

from __future__ import annotations

import secrets
from collections.abc import Container, Iterable, Iterator

ADJECTIVES = (
    "amber azure bold brave brisk calm clever cosmic crisp daring deft eager early fancy fast fierce fond "
    "gentle glad golden grand green happy hardy humble icy jolly keen kind lively loyal lucid lunar merry "
    "mellow mighty misty modest neat nimble noble odd plucky polar proud quick quiet rapid rosy rustic "
    "sharp shiny silent silver sleek smooth snowy solar solid spry steady stellar sturdy sunny swift tidy "
    "tranquil true vivid warm wild wise witty young zesty"
).split()
NOUNS = (
    "atlas aurora badger beacon birch bison breeze brook canyon cedar comet condor coral cove crane dawn "
    "delta dune eagle ember falcon fern fjord forest fox galaxy glacier grove harbor hawk heron island "
    "jasper lagoon lark lotus lynx maple meadow mesa meteor nebula oasis orbit otter owl panda pebble "
    "phoenix pine planet prairie quartz raven reef ridge river robin sequoia shore sparrow spruce summit "
    "thunder tiger tundra valley willow wolf zephyr"
).split()

THIRD_WORD_TRIES = 8  # random third words tried before a slug's three-word space counts as crowded


class IssuedIds:
    """Every id a host has issued, so none names a second job.

    A set of short strings: a million ids take some tens of MB, far more sessions than a host runs in a
    lifetime. Iterating gives the ids back, and building one from them restores the memory, so a host that
    keeps its sessions on disk can carry it across restarts.
    """

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._ids = set(ids)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def add(self, session_id: str) -> None:
        self._ids.add(session_id)


def new_session_id(taken: Container[str]) -> str:
    """A fresh ``adjective-noun`` id not in ``taken``; ``-2``… on collision, then a third word.

    Once a slug's numbered and three-word forms are crowded, a random hex suffix (longer each round)
    is added, so a fresh id is always found in a few tries however many were issued before.
    """
    base = f"{secrets.choice(ADJECTIVES)}-{secrets.choice(NOUNS)}"
    if base not in taken:
        return base
    for n in range(2, 10):
        candidate = f"{base}-{n}"
        if candidate not in taken:
            return candidate
    for _ in range(THIRD_WORD_TRIES):
        candidate = f"{base}-{secrets.choice(NOUNS)}"
        if candidate not in taken:
            return candidate
    size = 2
    while True:
        for _ in range(THIRD_WORD_TRIES):
            candidate = f"{base}-{secrets.token_hex(size)}"
            if candidate not in taken:
                return candidate
        size += 1
