"""The Python API: one sample through the real graph, in-process, checkpointed in the state database.

from graph.sample import run_sample
result = run_sample({"question_type": "comparison", "binary": False}, collection="triad_demo",
                    models={"generator": my_model, "validator": my_model, "extractor": my_model})
result.outcome, result.record, result.rejection
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.language_models import BaseChatModel

from graph.config.cli import run_async
from graph.config.settings import Settings, resolve_settings
from graph.running.runner import SampleResult, build_runner, run_context
from graph.services import ServicesSpec, open_services
from state.sample import SampleInput, input_problem
from state.usage import Role

__all__ = ["SampleResult", "arun_sample", "run_sample"]


async def arun_sample(
    spec: SampleInput,
    *,
    collection: str,
    models: dict[Role, str | BaseChatModel] | None = None,
    settings: Settings | None = None,
    thread_id: str | None = None,
    **context: Any,
) -> SampleResult:
    """Run one sample in-process (see `run_sample`)."""
    problem = input_problem(spec)
    if problem:
        raise ValueError(problem)
    parameters = run_context(**context)
    thread_id = thread_id or f"adhoc/{uuid.uuid4().hex[:12]}"
    settings = (settings or resolve_settings({})).model_copy(update={"collection": collection})
    async with open_services(ServicesSpec(settings, models=models)) as services:
        runner = build_runner(services, services.seed_pool(), parameters)
        return await runner.run(spec, thread_id)


def run_sample(
    spec: SampleInput,
    *,
    collection: str,
    models: dict[Role, str | BaseChatModel] | None = None,
    settings: Settings | None = None,
    thread_id: str | None = None,
    **context: Any,
) -> SampleResult:
    """Run one sample with models given per role (specs or `BaseChatModel` instances).

    The database is `settings.database_url` or the embedded one; the sample is checkpointed as
    thread `thread_id` (a new `adhoc/<hex>` by default; an existing thread is continued).
    Keyword arguments such as `max_revisions=2` set fields of the run context (`nodes.run_context.Context`),
    checked before anything runs; the models come from `models` and `settings`, the embedding and the shortest
    seed from `settings`.
    """
    return run_async(
        arun_sample(spec, collection=collection, models=models, settings=settings, thread_id=thread_id, **context)
    )
