"""Running one sample of a scripted model through the real graph, checkpointed in PostgreSQL.

The harness opens its services from the same composition root as `graph.run` (pooled checkpoint
saver, the run's seed pool), so a test of a graph path tests what a run does.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from graph.config.settings import Settings, resolve_settings
from graph.living.refresh import RecordDecision, RecordRefresh, refresh_record
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from graph.llm.models import resolve_roles
from graph.llm.offline.scripted import ScriptedChatModel
from graph.running.runner import SampleResult, build_runner, run_context
from graph.services import ServicesSpec, open_services
from nodes.builder import compile_graph
from nodes.ports import QueryGuide
from nodes.run_context import Context

_threads = itertools.count()


class Harness:
    """Runs one sample of a scripted model through the real graph, checkpointed in Postgres."""

    def __init__(self, url: str, collection: str) -> None:
        self.url = url
        self.collection = collection

    def settings(self) -> Settings:
        """The harness's store and state database, with no response cache."""
        return resolve_settings(
            {"database_url": self.url, "state_url": self.url, "collection": self.collection, "llm_cache": False},
            env={},
        )

    def run(
        self,
        script: dict[str, Any],
        *,
        spec: dict[str, Any] | None = None,
        random_seed: int = 0,
        queries: QueryGuide | None = None,
        editable: bool = False,
        **context: Any,
    ) -> tuple[SampleResult, ScriptedChatModel, list[str]]:
        """Run one sample (a composition unless `spec` says otherwise); `queries` plays a run's real queries;
        `editable` runs it on the graph whose routes are edges (`compile_graph(editable=True)`)."""
        model = ScriptedChatModel(script=script)
        sample = {"question_type": "composition", "binary": False, **(spec or {})}
        thread_id = f"test-{next(_threads)}/{random_seed}"

        async def go() -> tuple[SampleResult, list[str]]:
            gateway, settings = scripted_gateway(model, max_attempts=2), self.settings()
            # The services, checkpoint saver and seed pool of `graph.run`, from the same composition root.
            async with open_services(ServicesSpec(settings, gateway=gateway)) as services:
                assert services.database is not None
                seeds = services.seed_pool(thread_id.split("/")[0], random_seed=random_seed)
                runner = build_runner(services, seeds, run_context(run_id="test", **context), queries=queries)
                if editable:
                    runner.graph = compile_graph(services.database.saver, editable=True)
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

    def refresh(
        self, script: dict[str, Any], decision: RecordDecision, *, max_revisions: int = 1, version: int = 2
    ) -> tuple[RecordRefresh, ScriptedChatModel, list[str]]:
        """A record's refresh (`graph.refresh`) as the refresh runs it; the visits of its last thread."""
        model = ScriptedChatModel(script=script)
        run_id = f"test-{next(_threads)}"

        async def go() -> tuple[RecordRefresh, list[str]]:
            gateway, settings = scripted_gateway(model, max_attempts=1), self.settings()
            async with open_services(ServicesSpec(settings, gateway=gateway)) as services:
                parameters = Context(run_id=run_id, dataset_version=version, max_revisions=max_revisions)
                runner = build_runner(services, services.seed_pool(), parameters)
                outcome = await refresh_record(runner, decision, services.corpus, version, max_revisions)
                visits = []
                if outcome.thread_id:
                    visits = [
                        name
                        async for snapshot in runner.graph.aget_state_history(runner.config(outcome.thread_id))
                        for name in snapshot.next
                    ]
            return outcome, list(reversed(visits))

        result, visits = asyncio.run(go())
        return result, model, visits


def scripted_gateway(model: ScriptedChatModel, *, max_attempts: int) -> LLMGateway:
    """Every role played by `model`, no rate limit to speak of, retries in milliseconds."""
    roles = resolve_roles({"generator": model, "validator": model, "extractor": model})
    retry = RetryPolicy(max_attempts=max_attempts, base_delay_s=0.001, max_delay_s=0.01)
    return LLMGateway(roles, requests_per_second=1000, retry=retry)
