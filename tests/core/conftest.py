"""Fixtures for core tests: a host on default settings.

Every host closes within a deadline (``tests/support/hosts.py``): a test whose sessions will not end fails, it
never hangs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from openclaw_tui import ToolHost

from ..support.hosts import hosting


@pytest.fixture
async def host() -> AsyncIterator[ToolHost]:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as h:
        yield h
