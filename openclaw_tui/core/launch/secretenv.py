"""Which of the host's variables a sandboxed run does not inherit: the ones that hold a secret."""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable, Mapping

from ..session import looks_secret, url_credentials

__all__ = ["WELL_KNOWN", "partition", "sandbox_environment", "withholds"]

WELL_KNOWN = (
    "*_DSN", "DSN",  # Sentry's and the databases' data source names carry the key or password
    "*WEBHOOK*",  # Slack, Discord and Teams webhook URLs are the credential
    "*CONNECTION_STRING*",  # Azure's hold AccountKey=
    "*JWT*",  # CI identity tokens (CI_JOB_JWT)
    "*COOKIE*",
    "OP_SESSION_*",  # 1Password CLI sessions
    "BW_SESSION",  # Bitwarden CLI session key
    "MYSQL_PWD",  # the MySQL client's password (PWD alone is the working directory)
)
"""Secret variables whose names the word rule misses, as fnmatch globs over the upper-cased name."""

_WELL_KNOWN = re.compile("|".join(fnmatch.translate(glob) for glob in WELL_KNOWN))


def withholds(name: str, value: str) -> bool:
    """Whether a sandboxed run does not inherit this variable of the host (before ``passEnv``)."""
    return looks_secret(name) or _WELL_KNOWN.match(name.upper()) is not None or url_credentials(value)


def sandbox_environment(env: Mapping[str, str], passed: tuple[str, ...] = ()) -> dict[str, str]:
    """``env`` without the variables :func:`withholds`, but for those ``passed`` names (the verdict is
    cached for each environment: the host's rarely changes, and this runs at every sandboxed spawn)."""
    items = tuple(env.items())
    out = _withheld(items, passed)
    return {k: v for k, v in items if k not in out}


@functools.lru_cache(maxsize=8)
def _withheld(items: tuple[tuple[str, str], ...], passed: tuple[str, ...]) -> frozenset[str]:
    keep = _matcher(passed)
    return frozenset(k for k, v in items if withholds(k, v) and not keep(k))


def partition(env: Mapping[str, str], passed: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The names of the secret variables in ``env``: ``(withheld, passed by the operator's choice)``."""
    keep = _matcher(passed)
    secret = sorted(k for k, v in env.items() if withholds(k, v))
    return [k for k in secret if not keep(k)], [k for k in secret if keep(k)]


@functools.lru_cache(maxsize=32)
def _matcher(globs: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a name matches one of ``globs`` (one compiled pattern: it runs for every variable)."""
    if not globs:
        return lambda name: False
    pattern = re.compile("|".join(fnmatch.translate(g) for g in globs))
    return lambda name: pattern.match(name) is not None
