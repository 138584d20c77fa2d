"""What a sandboxed run would not see here, and what it sees only by the operator's choice: the facts behind
``openclaw-tui sandbox``, from the same settings, credential table, masks and variable rule the runs use."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..config import ExecSettings, default_secrets, within
from ..containment import HIDING, Mask, Store, credentials, masks
from . import secretenv

__all__ = ["Exposure", "sandbox_exposure"]


@dataclass(frozen=True)
class Exposure:
    """``stores``: hidden credential stores found here, with their rows; ``other``: the other hidden
    paths found here; ``withheld``: variables kept out; ``shown``: ``(path, why)`` of paths that look
    secret yet are seen by the operator's ``show``; ``passed``: variables kept by ``passEnv``; ``places``:
    how many places the table names in this environment."""

    stores: tuple[tuple[Store, str], ...]
    other: tuple[str, ...]
    withheld: tuple[str, ...]
    shown: tuple[tuple[str, str], ...]
    passed: tuple[str, ...]
    places: int


def sandbox_exposure(settings: ExecSettings, env: Mapping[str, str]) -> Exposure:
    """What a sandboxed run with ``settings``, started from a host with environment ``env``, would meet."""
    private = settings.sandbox_tmp == "private"
    planned = masks((*settings.secrets, *credentials.hidden(env, settings.shown)), None, private, settings.shown)
    owners = _owners(credentials.locations(env))
    hidden = [p for p, m in planned if m in HIDING]
    # what the defaults and the config's own hide would mask had the operator shown nothing
    everything = masks((*default_secrets(env), *settings.secrets, *credentials.places(env)), None, private)
    shown = {p: f"{owners[p].tool if p in owners else 'a default'} (show)" for p, m in everything
             if m in HIDING and _visible(p, planned)}
    for path, mask in planned:
        if mask is Mask.SHOWN:
            shown[path] = f"inside {_nearest(path, planned, strict=True)}, which stays hidden (show)"
    withheld, passed = secretenv.partition(env, settings.pass_env)
    return Exposure(
        stores=tuple((owners[p], p) for p in hidden if p in owners),
        other=tuple(p for p in hidden if p not in owners),
        withheld=tuple(withheld), shown=tuple(shown.items()), passed=tuple(passed),
        places=len(credentials.places(env)),
    )


def _owners(locations: Iterable[tuple[Store, str]]) -> dict[str, Store]:
    """The row of each table place that exists, by its real path (as masks name it)."""
    out: dict[str, Store] = {}
    for store, place in locations:
        for path in sorted(glob.glob(place)) if glob.has_magic(place) else [place]:
            if os.path.lexists(path):
                out.setdefault(os.path.realpath(path), store)
    return out


def _visible(path: str, planned: list[tuple[str, Mask]]) -> bool:
    """Whether ``path`` is seen under ``planned``: nothing masks it, or its nearest mount shows it."""
    nearest = _nearest(path, planned, strict=False)
    return nearest is None or dict(planned)[nearest] is Mask.SHOWN


def _nearest(path: str, planned: list[tuple[str, Mask]], strict: bool) -> str | None:
    """The nearest planned mount at (unless ``strict``) or above ``path``."""
    return max((p for p, _ in planned if within(path, p) and not (strict and p == path)), key=len, default=None)
