"""Session ids and display names.

Ids are readable slugs (``brisk-atlas``) because agents and operators say them out loud, type them into
prompts and spot them in a list; they are random so that one agent cannot guess another's sessions by
counting. Names summarise a command as "verb + first real argument" so a list of sessions reads like a
list of jobs.
"""

from __future__ import annotations

import os
import secrets
import shlex
from collections.abc import Container

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

NAME_TARGET_MAX = 48


def new_session_id(taken: Container[str]) -> str:
    """A fresh ``adjective-noun`` id not in ``taken``; ``-2``… on collision, then a third word."""
    base = f"{secrets.choice(ADJECTIVES)}-{secrets.choice(NOUNS)}"
    if base not in taken:
        return base
    for n in range(2, 10):
        candidate = f"{base}-{n}"
        if candidate not in taken:
            return candidate
    while True:
        candidate = f"{base}-{secrets.choice(NOUNS)}"
        if candidate not in taken:
            return candidate


def derive_name(command: str) -> str:
    """Command verb plus the first later argument that does not start with ``-``.

    ``node "my server.js" --port 8080`` → ``node my server.js``; ``git commit -m x`` → ``git commit``.
    The target is cut in the middle to 48 characters.
    """
    words = _first_command_words(command)
    # Skip leading environment assignments (FOO=1 make) so the verb is the program.
    while words and "=" in words[0] and not words[0].startswith("="):
        words.pop(0)
    if not words:
        return command.strip()[:NAME_TARGET_MAX] or "(empty)"
    verb = os.path.basename(words[0]) or words[0]
    target = next((w for w in words[1:] if not w.startswith("-")), None)
    if target is None:
        return verb
    return f"{verb} {_cut_middle(target, NAME_TARGET_MAX)}"


def _first_command_words(command: str) -> list[str]:
    """Words of the first simple command (up to ``;``, ``&&``, ``|``…), quotes removed."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    words: list[str] = []
    try:
        for word in lexer:
            if word and all(ch in ";&|()<>" for ch in word):
                break
            words.append(word)
    except ValueError:  # unbalanced quotes: plain words with quotes removed
        words = [w.strip("'\"") for w in command.split()]
    return [w for w in words if w]


def _cut_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    keep = limit - 1
    left = (keep + 1) // 2
    return text[:left] + "…" + text[len(text) - (keep - left) :]
