"""Dashboard settings from the product's TOML config: key remapping by binding id (``[dashboard.keymap]``),
and the figures (``[dashboard] figures``, ``cpuWarn``).

A bad table or value is reported and skipped, and keys may be written as they are typed (``ctrl+]``).
"""

from __future__ import annotations

import os
import tomllib
import unicodedata
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textual.keys import KEY_NAME_REPLACEMENTS

from openclaw_tui.core.config import ConfigWarning, default_config_path


def load_options(config_path: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``figures`` (bool: show the sessions' CPU and memory) and ``cpu_warn`` (% of a core: red after 10 s
    above it) from ``[dashboard]``, with their defaults where unset or wrong."""
    table = _dashboard_table(config_path, env)
    options: dict[str, Any] = {"figures": True, "cpu_warn": 90.0}
    figures, warn = table.get("figures", True), table.get("cpuWarn", 90)
    if isinstance(figures, bool):
        options["figures"] = figures
    else:
        warnings.warn("dashboard.figures must be true or false; ignored", ConfigWarning, stacklevel=2)
    if isinstance(warn, (int, float)) and not isinstance(warn, bool) and warn > 0:
        options["cpu_warn"] = float(warn)
    else:
        warnings.warn("dashboard.cpuWarn must be a number of percent above 0, e.g. 90; ignored", ConfigWarning,
                      stacklevel=2)
    return options


def _dashboard_table(config_path: str | os.PathLike[str] | None, env: Mapping[str, str] | None) -> dict[str, Any]:
    path = Path(config_path) if config_path is not None else default_config_path(os.environ if env is None else env)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    table = data.get("dashboard")
    return table if isinstance(table, dict) else {}


def load_keymap(config_path: str | os.PathLike[str] | None = None,
                env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Binding id -> key(s) from ``[dashboard.keymap]`` of the config file (empty when there is none)."""
    # a missing file is fine; the host reports an unreadable one
    table = _dashboard_table(config_path, env).get("keymap", {})
    if not isinstance(table, dict):
        warnings.warn("[dashboard.keymap] must be a table of binding id = \"key\"; ignored", ConfigWarning,
                      stacklevel=2)
        return {}
    keymap = {}
    for binding_id, keys in table.items():
        if isinstance(keys, str) and keys:
            keymap[binding_id] = ",".join(key_name(key) for key in keys.split(","))
        else:
            warnings.warn(f"dashboard.keymap.{binding_id} must be a key string like \"ctrl+k\"; ignored",
                          ConfigWarning, stacklevel=2)
    return keymap


def key_name(key: str) -> str:
    """A key as Textual names it: punctuation after modifiers spelled out (``ctrl+]`` ->
    ``ctrl+right_square_bracket``), as Textual already does for a bare character."""
    key = key.strip()
    head, sep, last = key.rpartition("+")
    if key.endswith("++"):
        head, sep, last = key[:-2], "+", "+"
    if len(last) == 1 and not last.isalnum():
        last = unicodedata.name(last).lower().replace("-", "_").replace(" ", "_")
        last = KEY_NAME_REPLACEMENTS.get(last, last)
    return head + sep + last
