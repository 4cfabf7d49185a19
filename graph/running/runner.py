"""Running samples: one checkpointed LangGraph thread per sample, built one way for every caller."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.llm.gateway import LLMGateway
from graph.services import RunServices
from graph.store.checkpoints import PooledPostgresSaver
from nodes.builder import CompiledSampleGraph, compile_graph, state_updates
from nodes.ports import ChunkLike, HitLike, Ports, QueryGuide, QuestionRegistry, SeedPool
from nodes.registry import ASK_NO_CHAT_MODEL
from nodes.run_context import Context
from nodes.steps.finalize import rejection_entry
from state.sample import SampleInput, SampleState, latest_draft

#: Every key of a sample's state: what `SampleRunner.run` asks the graph to return.
STATE_KEYS = sorted(SampleState.__required_keys__ | SampleState.__optional_keys__)


@dataclass
class SampleResult:
    """How one sample ended: the record when accepted, else its rejection entry; and its full state."""

    thread_id: str
    outcome: str
    record: dict[str, Any] | None
    """The JSON of the accepted sample's `state.record.DatasetRecord`, as dataset.jsonl holds it."""
    rejection: dict[str, Any] | None
    """The rejected.jsonl line (`state.record.Rejection`) of a sample that ended without a record."""
    state: SampleState
    """The state its thread ended with."""


class SampleRunner:
    """Runs samples of one run through the compiled graph, each in its own checkpointed thread."""

    def __init__(self, ports: Ports, checkpointer: BaseCheckpointSaver, context: Context) -> None:
        self.ports = ports
        self.graph = compile_graph(checkpointer, editable=False)
        self.context = replace(context, ports=ports)
        self._editable: CompiledSampleGraph | None = None

    def config(self, thread_id: str) -> RunnableConfig:
        return {"configurable": {"thread_id": thread_id}}

    async def edit_state(
        self, config: RunnableConfig, values: dict[str, Any], as_node: str | None = None
    ) -> RunnableConfig:
        """`values` written into the thread's checkpoint at `config` as if `as_node` (by default the node that
        wrote last) had returned them; that node's route decides again where the thread goes. The
        configuration of the new checkpoint, from which `self.graph` goes on."""
        if self._editable is None:
            self._editable = compile_graph(self.graph.checkpointer, editable=True)  # type: ignore[arg-type]
        return await self._editable.aupdate_state(config, values, as_node=as_node)

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
                return self.result(thread_id, cast(SampleState, snapshot.values))  # finished before: nothing to repeat
            if snapshot.next:
                payload = None
        saver = self.graph.checkpointer
        pooled = saver if isinstance(saver, PooledPostgresSaver) else None
        known_new = pooled.new_thread(thread_id) if fresh and pooled else nullcontext()
        # Checkpoints are written while the next step runs, each with the writes of the tasks that led to
        # it; that of a step that asked no chat model waits for the next one.
        holding = pooled.holding(thread_id, ASK_NO_CHAT_MODEL) if pooled else nullcontext()
        with known_new:
            async with holding:
                if payload is None:
                    # Asked for every state key, the graph returns the values its last checkpoint holds.
                    final = cast(
                        SampleState,
                        await self.graph.ainvoke(
                            None, config, context=self.context, durability="async", output_keys=STATE_KEYS
                        ),
                    )
                else:
                    final = await self._new_thread(payload, config)
        return await self.ended(thread_id, final)

    async def _new_thread(self, sample: SampleInput, config: RunnableConfig) -> SampleState:
        """The state a new thread ends with: its input, then each step's update as the graph's channels take it.

        The same values its last checkpoint holds, gathered from the steps' updates: asked for its values, the
        graph would read every key of the state after every step.
        """
        updates = state_updates()
        state = updates.started(sample)
        async for step in self.graph.astream(
            sample, config, context=self.context, durability="async", stream_mode="updates"
        ):
            for update in step.values():
                if isinstance(update, dict):
                    state = updates.applied(state, update)
        return cast(SampleState, state)

    async def ended(self, thread_id: str, state: SampleState) -> SampleResult:
        """The result of a sample that has just run to its end; one that claimed its question and ended without a
        record frees the question, so that a later draft asking the same is not blocked by it."""
        questions = self.ports.questions
        if state.get("question_claimed") and state.get("outcome") != "accepted" and questions is not None:
            await questions.release(latest_draft(state)["question"], thread_id)
        return self.result(thread_id, state)

    def result(self, thread_id: str, state: SampleState) -> SampleResult:
        outcome = state.get("outcome", "failed")
        accepted = outcome == "accepted"
        return SampleResult(
            thread_id=thread_id,
            outcome=outcome,
            record=state.get("record") if accepted else None,
            rejection=None if accepted else rejection_entry(state, self.context),
            state=state,
        )


def context_for(settings: Settings, gateway: LLMGateway, parameters: Context) -> Context:
    """The run context of `parameters` (what the run chose) with the resolved model specs and the collection's
    settings."""
    roles = gateway.roles
    return replace(
        parameters,
        generator_model=roles["generator"].spec,
        validator_model=roles["validator"].spec,
        extractor_model=roles["extractor"].spec,
        thinking={role: model.thinking for role, model in roles.items() if model.thinking is not None},
        embedding=settings.embedding,
        min_chunk_chars=settings.min_chunk_chars,
    )


#: The context's fields the runner fills in, and where a caller gives them instead.
FILLED_IN = {
    "generator_model": "models=",
    "validator_model": "models=",
    "extractor_model": "models=",
    "thinking": "the settings' thinking",
    "embedding": "the settings' embedding",
    "min_chunk_chars": "the settings' min_chunk_chars",
    "ports": "the services the runner opens",
}


def run_context(**fields: Any) -> Context:
    """A run context from its fields by name (the Python API's keyword arguments).

    A setting outside its range, or one the runner fills in from the models and settings, is a `UserError`
    naming it (a `ValueError` too, for the Python API).
    """
    if filled := [name for name in FILLED_IN if name in fields]:
        raise InvalidSetting(f"{filled[0]} is not a keyword of its own: the run takes it from {FILLED_IN[filled[0]]}")
    try:
        return Context(**fields)
    except ValueError as invalid:
        raise InvalidSetting(str(invalid)) from None


class InvalidSetting(UserError, ValueError):
    """A run setting outside its range."""


class NoStore:
    """The corpus and the seed pool of a runner that only judges: its samples' chunks are in their state, so
    a node that reaches for the store is a mistake, named here."""

    def _unused(self) -> RuntimeError:
        return RuntimeError("this runner only judges samples from their state; it reads no store and draws no seed")

    async def get(self, ids: Sequence[str]) -> Sequence[ChunkLike]:
        raise self._unused()

    async def neighbours(self, chunk_id: str, n: int) -> Sequence[HitLike]:
        raise self._unused()

    async def search(self, text: str, n: int) -> Sequence[HitLike]:
        raise self._unused()

    async def draw(self, *, min_chars: int, procedural: bool = False) -> str | None:
        raise self._unused()

    async def claim(self, chunk_id: str) -> None:
        raise self._unused()


def judging_runner(saver: BaseCheckpointSaver, gateway: LLMGateway, context: Context) -> SampleRunner:
    """A runner whose samples are judged again from their checkpoints (calibration): the models, no store."""
    store = NoStore()
    return SampleRunner(Ports(corpus=store, llm=gateway, seeds=store), saver, context)


def build_runner(
    services: RunServices,
    seeds: SeedPool,
    parameters: Context,
    *,
    questions: QuestionRegistry | None = None,
    queries: QueryGuide | None = None,
) -> SampleRunner:
    """The one way a sample's runner is built (`graph.run`, replay, the Python API, the tests' harness):
    the run context from what the run chose (`parameters`), the settings and the resolved models; the ports
    its nodes use; the state database's checkpointer."""
    assert services.database is not None, "samples are checkpointed in a state database"
    context = context_for(services.settings, services.gateway, parameters)
    return SampleRunner(services.ports_for(seeds, questions, queries), services.database.saver, context)
