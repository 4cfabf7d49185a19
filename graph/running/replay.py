"""Replaying samples from their checkpoints: a fork of the sample's thread before a node, with edits.

The fork is a new branch of the same thread: the original history stays. An accepted replay goes to
the run's dataset with `provenance.replayed_from` naming the checkpoint it forked from.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError
from typing_extensions import get_type_hints

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.figures.funnel import sample_summary
from graph.folder.files import RunFolder
from graph.ledger.ledger import RunLedger
from graph.ledger.questions import RunQuestions
from graph.ledger.slots import Completion, Slot
from graph.planning.options import RunOptions
from graph.planning.request import stored_settings
from graph.planning.stages import parse_node_options
from graph.running.queries import QueryBook, open_query_book, queries_of_run
from graph.running.runner import SampleResult, SampleRunner, build_runner
from graph.seeding.weights import seed_weights
from graph.services import RunServices, ServicesSpec, open_services, open_state_database
from nodes.registry import NODES
from state.finished import FinishedSample
from state.sample import SampleState

#: The node to fork before, by the check that rejected a sample.
REJECTING_NODE = {
    "lint": "lint_question",
    "quality": "judge_quality",
    "sufficiency": "judge_sufficiency",
    "unanswerable": "judge_unanswerable",
}


GRAPH_NODES = tuple(NODES)


def rejected_by(row: FinishedSample) -> tuple[str, str]:
    """(check or stage that ended the sample, its last reason) from a finished row."""
    summary = row["summary"]
    reason = summary["end_reason"] if summary else ""
    if row["outcome"] == "no_bridge":
        return "bridge search", reason
    if row["outcome"] == "failed":
        return "model call", reason
    rejections = [v for v in summary["verdicts"] if not v["accepted"]] if summary else []
    if rejections:
        return rejections[-1]["judge"], rejections[-1]["reason"]
    return "duplicate check", reason


def default_fork_node(state: SampleState) -> str:
    """The node whose decision ended the sample."""
    outcome = state.get("outcome")
    if outcome == "no_bridge":
        return "select_seed"
    if outcome == "failed":
        node = str(state.get("end_reason", "")).split(":", 1)[0]
        return node if node in GRAPH_NODES else "generate_question"
    rejections = [v for v in state.get("verdicts", []) if not v["accepted"]]
    return REJECTING_NODE[rejections[-1]["judge"]] if rejections else "finalize_sample"


#: The type of every key of a sample's state, which a `--set` value must have.
STATE_TYPES = get_type_hints(SampleState)


def parse_edits(edits: list[str]) -> dict[str, Any]:
    """`KEY=VALUE` state edits; VALUE is JSON when it parses as JSON, else a string.

    Each is checked against the state's schema first: a wrong key or type fails here with one line,
    not deep inside the graph. Lists that nodes append to (drafts, verdicts, ...) get VALUE appended.
    """
    values: dict[str, Any] = {}
    for edit in edits:
        key, separator, raw = edit.partition("=")
        if not separator or not key:
            raise UserError(f"--set takes KEY=VALUE, not {edit!r}")
        if key not in STATE_TYPES:
            raise UserError(f"--set {key}: a sample's state has no such key; use one of {', '.join(STATE_TYPES)}")
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError:
            parsed = raw
        adapter = TypeAdapter(STATE_TYPES[key])
        try:
            values[key] = adapter.validate_python(parsed)
        except ValidationError as invalid:
            try:  # `--set bridge_topic=42` means the text 42
                values[key] = adapter.validate_python(raw)
            except ValidationError:
                problem = invalid.errors()[0]
                where = "".join(f"[{part!r}]" for part in problem["loc"])
                raise UserError(f"--set {key}{where}: {problem['msg']}; give a value of the state's type") from None
    return values


async def fork_and_run(runner: SampleRunner, thread_id: str, node: str | None, edits: dict[str, Any]) -> SampleResult:
    """Re-run a sample from the checkpoint just before `node`, on a new branch of its thread."""
    config = runner.config(thread_id)
    current = await runner.graph.aget_state(config)
    if not current.values:
        raise UserError(f"no checkpoints for sample {thread_id}; check the run id and --state-url")
    target = node or default_fork_node(cast(SampleState, current.values))
    if target not in GRAPH_NODES:
        raise UserError(f"unknown node {target!r}; use one of {', '.join(GRAPH_NODES)}")
    fork = None
    async for snapshot in runner.graph.aget_state_history(config):  # newest first
        if target in snapshot.next:
            fork = snapshot
            break
    if fork is None:
        raise UserError(f"sample {thread_id} never reached {target}; pick another --from node")
    checkpoint_id = fork.config["configurable"]["checkpoint_id"]
    fork_config = fork.config
    if edits:
        fork_config = await runner.edit_state(fork.config, edits)
    context = replace(runner.context, replayed_from=f"{thread_id}@{checkpoint_id}")
    await runner.graph.ainvoke(None, fork_config, context=context, durability="async")
    final = await runner.graph.aget_state(config)
    return await runner.ended(thread_id, cast(SampleState, final.values))


@dataclass(frozen=True)
class ReplayRequest:
    """Which samples of a run to replay, from where, with which edits and models."""

    run_id: str
    samples: list[int] | None
    """Slot numbers to replay; None: every sample that was not accepted."""
    from_node: str | None = None
    edits: dict[str, Any] = field(default_factory=dict)
    nodes: list[str] = field(default_factory=list)
    """`STAGE=IMPL` swaps given now."""
    models_given: dict[str, str] = field(default_factory=dict)
    queries_given: Path | None = None
    """`--queries`: where a query-seeded run's file is now, when it moved."""


async def finished_samples(settings: Settings, run_id: str) -> list[FinishedSample]:
    """The finished samples of a run, as `--list` shows them."""
    async with open_state_database(settings) as database:
        await database.ledger.options(run_id)  # an unknown run fails here with one line
        return await database.ledger.finished(run_id)


async def replay_samples(request: ReplayRequest, settings: Settings, say: Callable[[str], None]) -> None:
    """Replay the samples the request names and rebuild the run's files; `say` gets a line per sample."""
    async with open_state_database(settings) as database:
        ledger = database.ledger
        stored = await ledger.options(request.run_id)
        rows = await ledger.finished(request.run_id)
        chosen = (
            [r for r in rows if r["outcome"] != "accepted"]
            if request.samples is None
            else [r for r in rows if r["n"] in request.samples]
        )
        if not chosen:
            if request.samples is None:
                raise UserError(f"run {request.run_id} has no sample that was not accepted: nothing to replay")
            raise UserError(f"no finished sample {request.samples[0]} in run {request.run_id}; see --list")
        options = RunOptions.from_stored(stored)
        # A replay asks its models afresh: a cached answer would only repeat the sample's history.
        settings = stored_settings(settings, stored, request.models_given).model_copy(update={"llm_cache": False})
        options = replace(options, nodes={**options.nodes, **settings.nodes, **parse_node_options(request.nodes)})
        async with open_services(ServicesSpec(settings, database=database)) as services:
            book = await replay_queries(request, options, services)
            runner = await replay_runner(request.run_id, options, services, book)
            passed = 0
            for row in chosen:
                passed += await replay_one(runner, ledger.run(request.run_id), request, row, say)
        if request.samples is None:
            say(f"{passed} of {len(chosen)} replayed samples now pass")
        slots = [row["n"] for row in await ledger.finished(request.run_id)]
        await RunFolder(settings.runs_dir / request.run_id).rebuild(ledger.run(request.run_id).file_lines(slots))


async def replay_queries(request: ReplayRequest, options: RunOptions, services: RunServices) -> QueryBook | None:
    """A query-seeded run's queries, so that a replay's restarts draw from them and its record links to them."""
    if options.queries is None:
        return None
    queries = queries_of_run(request.run_id, options.queries, options.queries_digest, request.queries_given)
    return await open_query_book(services, queries, options)


async def replay_runner(
    run_id: str, options: RunOptions, services: RunServices, book: QueryBook | None = None
) -> SampleRunner:
    assert services.database is not None
    ledger = services.database.ledger.run(run_id)
    weights = await seed_weights(
        services.corpus, options, book.weights if book is not None else None, services.settings.min_chunk_chars
    )
    seeds = services.seed_pool(run_id, used=await ledger.used_seeds(), random_seed=options.random_seed, weights=weights)
    questions = RunQuestions(ledger, threshold=options.dedup_threshold)
    return build_runner(services, seeds, options.context(run_id), questions=questions, queries=book)


async def replay_one(
    runner: SampleRunner, ledger: RunLedger, request: ReplayRequest, row: FinishedSample, say: Callable[[str], None]
) -> bool:
    """Replay one finished sample; an accepted replay is recorded with its earlier history beside it."""
    slot = Slot(request.run_id, row["n"], row["question_type"], row["binary"])
    result = await fork_and_run(runner, slot.thread_id, request.from_node, request.edits)
    reason = str(result.state.get("end_reason", ""))[:100]
    say(f"sample {row['n']}: {row['outcome']} -> {result.outcome}  ({reason})")
    if result.record is None:
        return False
    rejection = await ledger.rejection(row["n"])  # its history stays beside the record
    await ledger.complete(Completion(slot, result.outcome, result.record, rejection, sample_summary(result.state)))
    return True
