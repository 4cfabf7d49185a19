"""Running samples: one checkpointed LangGraph thread per sample, and the Python API.

from graph.runs.sample import run_sample
result = run_sample({"question_type": "comparison", "binary": False}, collection="triad_demo",
                    models={"generator": my_model, "validator": my_model, "extractor": my_model})
result.outcome, result.record, result.rejection
"""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.builder import compile_graph
from graph.config.cli import run_async
from graph.config.errors import UserError
from graph.config.settings import Settings, resolve_settings
from graph.llm.gateway import LLMGateway, build_gateway
from graph.runs.services import open_services
from graph.store.checkpoints import PooledPostgresSaver
from nodes.context import Context
from nodes.finalize import rejection_entry
from nodes.ports import Services
from state.sample import SampleInput, SampleState, input_problem, is_unanswerable
from state.usage import Role

#: Every key of a sample's state: what `SampleRunner.run` asks the graph to return.
STATE_KEYS = sorted(SampleState.__required_keys__ | SampleState.__optional_keys__)


@dataclass
class SampleResult:
    """How one sample ended: the record when accepted, else its rejection entry; and its full state."""

    thread_id: str
    outcome: str
    record: dict[str, Any] | None
    rejection: dict[str, Any] | None
    state: dict[str, Any]


class SampleRunner:
    """Runs samples of one run through the compiled graph, each in its own checkpointed thread."""

    def __init__(self, services: Services, checkpointer: BaseCheckpointSaver, context: Context) -> None:
        self.services = services
        self.graph = compile_graph(checkpointer)
        self.context = replace(context, services=services)

    def config(self, thread_id: str) -> RunnableConfig:
        return {"configurable": {"thread_id": thread_id}}

    async def run(self, spec: SampleInput, thread_id: str, *, fresh: bool = False) -> SampleResult:
        """Run a new sample, or continue an interrupted one from its last checkpoint.

        `fresh` says the thread is known to have no checkpoint (a slot opened just now), which
        spares looking it up.
        """
        config = self.config(thread_id)
        payload: SampleInput | None = {**spec, "thread_id": thread_id}
        if not fresh:
            snapshot = await self.graph.aget_state(config)
            if snapshot.values and not snapshot.next:
                return self.result(thread_id, snapshot.values)  # finished before: nothing to repeat
            if snapshot.next:
                payload = None
        saver = self.graph.checkpointer
        pooled = saver if isinstance(saver, PooledPostgresSaver) else None
        known_new = pooled.new_thread(thread_id) if fresh and pooled else nullcontext()
        # Checkpoints are written while the next step runs, each with the writes of the tasks that led
        # to it; a crash loses at most the step in flight.
        holding = pooled.holding_writes(thread_id) if pooled else nullcontext()
        # Asked for every state key, the graph returns the values its last checkpoint holds.
        with known_new:
            async with holding:
                final = await self.graph.ainvoke(
                    payload,
                    config,
                    context=self.context,
                    durability="async",
                    output_keys=STATE_KEYS,
                )
        return self.result(thread_id, final)

    def result(self, thread_id: str, state: dict[str, Any]) -> SampleResult:
        outcome = state.get("outcome", "failed")
        accepted = outcome == "accepted"
        return SampleResult(
            thread_id=thread_id,
            outcome=outcome,
            record=state.get("record") if accepted else None,
            rejection=None if accepted else rejection_entry(state, self.context),
            state=state,
        )


def context_for(settings: Settings, gateway: LLMGateway, **overrides: Any) -> Context:
    """The run context: paper defaults, the resolved model specs, and any overrides.

    A setting outside its range is a `UserError` naming it (a `ValueError` too, for the Python API).
    """
    roles = gateway.roles
    try:
        return Context(
            generator_model=roles["generator"].spec,
            validator_model=roles["validator"].spec,
            extractor_model=roles["extractor"].spec,
            thinking={role: model.thinking for role, model in roles.items() if model.thinking is not None},
            **{"embedding": settings.embedding, **overrides},
        )
    except ValueError as invalid:
        raise InvalidSetting(str(invalid)) from None


class InvalidSetting(UserError, ValueError):
    """A run setting outside its range."""


async def arun_sample(
    spec: SampleInput,
    *,
    collection: str,
    models: dict[Role, str | BaseChatModel] | None = None,
    settings: Settings | None = None,
    thread_id: str | None = None,
    **context_overrides: Any,
) -> SampleResult:
    """Run one sample in-process (see `run_sample`)."""
    problem = input_problem(spec)
    if problem:
        raise ValueError(problem)
    thread_id = thread_id or f"adhoc/{uuid.uuid4().hex[:12]}"
    settings = (settings or resolve_settings({})).model_copy(update={"collection": collection})
    gateway = build_gateway(settings, models=models)
    context = context_for(settings, gateway, **context_overrides)  # bad settings fail before the database opens
    # A generated unanswerable sample searches the collection with its embedding model.
    async with open_services(settings, gateway=gateway, embeddings=is_unanswerable(spec)) as services:
        assert services.state is not None
        runner = SampleRunner(services.for_samples(services.seed_pool()), services.state.saver, context)
        return await runner.run(spec, thread_id)


def run_sample(
    spec: SampleInput,
    *,
    collection: str,
    models: dict[Role, str | BaseChatModel] | None = None,
    settings: Settings | None = None,
    thread_id: str | None = None,
    **context_overrides: Any,
) -> SampleResult:
    """Run one sample with models given per role (specs or `BaseChatModel` instances).

    The database is `settings.database_url` or the embedded one; the sample is checkpointed as
    thread `thread_id` (a new `adhoc/<hex>` by default; an existing thread is continued).
    Keyword arguments such as `max_revisions=2` override the run context.
    """
    return run_async(
        arun_sample(
            spec, collection=collection, models=models, settings=settings, thread_id=thread_id, **context_overrides
        )
    )
