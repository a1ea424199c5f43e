"""Fixtures of the pytest suite: the integration tests get one real Plinth per session."""

from __future__ import annotations

from typing import Iterator

import pytest

from plinth_kit import Api, ExhibitProgram, PlinthServer


@pytest.fixture(scope="session")
def plinth() -> Iterator[PlinthServer]:
    server = PlinthServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def api(plinth: PlinthServer) -> Api:
    return Api(plinth.url, plinth.email, plinth.password)


@pytest.fixture
def programs(plinth: PlinthServer) -> Iterator[list[ExhibitProgram]]:
    """Exhibit programs started by a test; every one is stopped when it ends."""
    started: list[ExhibitProgram] = []
    yield started
    for program in started:
        program.stop()
