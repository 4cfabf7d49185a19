"""Fixtures of the graph tests: a harness on the embedded PostgreSQL and its demo slice."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.llm.offline.scripted import ScriptedChatModel
from tests.support.harness import Harness


@pytest.fixture
def harness(pg_url: str, demo_slice: str) -> Harness:
    return Harness(pg_url, demo_slice)


@pytest.fixture
def calls_of() -> Callable[[ScriptedChatModel, str], int]:
    return lambda model, key: sum(1 for name, _ in model.calls if name == key)
