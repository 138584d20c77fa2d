"""Fixtures for the terminal engine's tests: tmux, the reference terminal, one private server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..support.tmuxreplay import TmuxReplay


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TmuxReplay]:
    server = TmuxReplay(tmp_path_factory.mktemp("tmux"))
    yield server
    server.close()
