"""Drive the compiled sample graph with scripted models against the embedded PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from graph.corpus import Corpus
from graph.limits import RetryPolicy
from graph.llm import LLMGateway
from graph.models import resolve_roles
from graph.sample import SampleResult, SampleRunner, SeedRegistry, open_checkpointer
from graph.scripted import ScriptedChatModel
from nodes.context import Context
from nodes.ports import Services

_threads = itertools.count()


class Harness:
    """Runs one sample of a scripted model through the real graph, checkpointed in Postgres."""

    def __init__(self, url: str, collection: str) -> None:
        self.url = url
        self.collection = collection

    def run(
        self, script: dict[str, Any], *, spec: dict[str, Any] | None = None, seed: int = 0, **context: Any
    ) -> tuple[SampleResult, ScriptedChatModel, list[str]]:
        model = ScriptedChatModel(script=script)
        thread_id = f"test-{next(_threads)}/{seed}"

        async def go() -> tuple[SampleResult, list[str]]:
            roles = resolve_roles({"generator": model, "validator": model, "extractor": model})
            gateway = LLMGateway(
                roles, requests_per_second=1000, retry=RetryPolicy(max_attempts=2, base_delay_s=0.001, max_delay_s=0.01)
            )
            async with await Corpus.open(self.url, self.collection) as corpus:
                services = Services(corpus=corpus, llm=gateway, seeds=SeedRegistry(corpus, seed=seed))
                async with open_checkpointer(self.url) as saver:
                    runner = SampleRunner(services, saver, Context(run_id="test", **context))
                    sample = {"question_type": "comparison", "binary": False, **(spec or {})}
                    result = await runner.run(sample, thread_id, fresh=True)  # type: ignore[arg-type]
                    # The state a run hands back is the one its last checkpoint holds, on every path.
                    assert result.state == (await runner.graph.aget_state(runner.config(thread_id))).values
                    visits = [
                        name
                        async for snapshot in runner.graph.aget_state_history(runner.config(thread_id))
                        for name in snapshot.next
                    ]
            return result, list(reversed(visits))

        result, visits = asyncio.run(go())
        return result, model, visits


@pytest.fixture
def harness(pg_url: str, demo_slice: str) -> Harness:
    return Harness(pg_url, demo_slice)


@pytest.fixture
def calls_of() -> Callable[[ScriptedChatModel, str], int]:
    return lambda model, key: sum(1 for name, _ in model.calls if name == key)
