"""Replay samples of a run from their checkpoints, with other models, implementations or state.

    python -m graph.replay RUN_ID --list
    python -m graph.replay RUN_ID --sample 3 --validator-model google_genai:gemini-2.5-flash
    python -m graph.replay RUN_ID --sample 3 --from generate_question --set bridge_topic=autovacuum_naptime
    python -m graph.replay RUN_ID --sample 3 --node relevance=care_batched
    python -m graph.replay RUN_ID --all --llm openai:gpt-4.1-mini

A replay forks the sample's thread at the checkpoint just before NODE (default: the node that
rejected it), applies `--set` edits to the state there, and runs on with the new configuration. The
fork is a new branch of the same thread: the original history stays. An accepted replay is written
to the run's dataset with `provenance.replayed_from` naming the checkpoint it forked from.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter, ValidationError
from typing_extensions import get_type_hints

from graph.checkpoints import PooledPostgresSaver
from graph.cli import add_database_options, command_parser, run_async, settings_from_args
from graph.corpus import Corpus
from graph.db import check_connection, database_url, state_url
from graph.errors import UserError, exit_on_user_error
from graph.funnel import cell_name
from graph.llm import build_gateway
from graph.logs import configure_logging
from graph.outputs import RunFolder, check_run_id
from graph.registry import context_overrides, parse_node_options
from graph.run import apply_options, state_pools
from graph.runner import sample_summary
from graph.runstore import Completion, RunQuestions, RunSeedPool, RunStore, Slot
from graph.sample import SampleResult, SampleRunner, context_for
from graph.settings import Settings
from nodes.ports import Services
from state.sample import SampleState

#: The node to fork before, by the check that rejected a sample.
REJECTING_NODE = {"lint": "lint_question", "quality": "judge_quality", "sufficiency": "judge_sufficiency"}
GRAPH_NODES = (
    "select_seed", "retrieve_neighbours", "propose_bridge", "match_bridge", "generate_question", "lint_question",
    "judge_quality", "judge_sufficiency", "revise_question", "classify_temporal", "extract_contexts", "finalize_sample",
)  # fmt: skip


def rejected_by(row: dict[str, Any]) -> tuple[str, str]:
    """(check or stage that ended the sample, its last reason) from a finished row."""
    summary = row.get("summary") or {}
    if row["outcome"] == "no_bridge":
        return "bridge search", summary.get("end_reason", "")
    if row["outcome"] == "failed":
        return "model call", summary.get("end_reason", "")
    rejections = [v for v in summary.get("verdicts", []) if not v["accepted"]]
    if rejections:
        return rejections[-1]["judge"], rejections[-1]["reason"]
    return "duplicate check", summary.get("end_reason", "")


def default_fork_node(state: dict[str, Any]) -> str:
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
    target = node or default_fork_node(current.values)
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
        fork_config = await runner.graph.aupdate_state(fork.config, edits)
    context = replace(runner.context, replayed_from=f"{thread_id}@{checkpoint_id}")
    await runner.graph.ainvoke(None, fork_config, context=context, durability="async")
    final = await runner.graph.aget_state(config)
    return runner.result(thread_id, final.values)


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.replay", __doc__)
    parser.add_argument("run_id")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list rejected, no_bridge and failed samples")
    action.add_argument("--sample", type=int, metavar="N", help="replay sample N (thread RUN_ID/N)")
    action.add_argument("--all", action="store_true", help="replay every sample that was not accepted")
    parser.add_argument(
        "--from", dest="from_node", metavar="NODE", help="fork before this node (default: the one that rejected)"
    )
    parser.add_argument(
        "--set", dest="edits", action="append", default=[], metavar="KEY=VALUE", help="edit the state at the fork"
    )
    parser.add_argument("--node", action="append", default=[], metavar="STAGE=IMPL", help="swap a stage implementation")
    parser.add_argument("--llm", help="one model spec for all roles")
    parser.add_argument("--generator-model")
    parser.add_argument("--validator-model")
    parser.add_argument("--extractor-model")
    parser.add_argument("--llm-base-url")
    parser.add_argument("--runs-dir", help="where run folders are (default ./runs)")
    parser.add_argument("--state-url", help="PostgreSQL URL of the run's state database")
    add_database_options(parser)
    return parser


def _print_list(rows: list[dict[str, Any]]) -> None:
    pending = [row for row in rows if row["outcome"] != "accepted"]
    print(f"{'sample':>6}  {'cell':<22}{'outcome':<10}{'ended by':<16}last reason")
    for row in pending:
        check, reason = rejected_by(row)
        cell = cell_name(row["question_type"], row["binary"])
        print(f"{row['n']:>6}  {cell:<22}{row['outcome']:<10}{check:<16}{reason[:100]}")
    print(f"{len(pending)} of {len(rows)} samples were not accepted")


async def replay_command(args: argparse.Namespace, settings: Settings, edits: dict[str, Any]) -> None:
    url = database_url(settings)
    check_connection(url)
    async with state_pools(state_url(settings), 4) as (checkpoint_pool, store_pool):
        store = RunStore(store_pool, lease_seconds=settings.lease_seconds)
        await store.setup()
        options = await store.options(args.run_id)
        rows = await store.finished(args.run_id)
        if args.list:
            _print_list(rows)
            return
        args.types, args.binary = options["types"], options["binary"]
        settings = apply_options(args, settings, options)
        nodes = {**options.get("nodes", {}), **settings.nodes, **parse_node_options(args.node)}
        gateway = build_gateway(settings)
        corpus = await Corpus.open(
            url, settings.collection or "", schema=settings.schema_name, max_chars=settings.max_chunk_chars
        )
        try:
            questions = RunQuestions(store, args.run_id)
            seeds = RunSeedPool(
                corpus, store, args.run_id, used=await store.used_seeds(args.run_id), seed=options.get("seed")
            )
            saver = PooledPostgresSaver(checkpoint_pool)  # type: ignore[arg-type]
            context = context_for(
                settings, gateway, run_id=args.run_id, max_revisions=options["max_revisions"],
                max_restarts=options["max_restarts"], **context_overrides(nodes),
                sufficiency_after_quality_reject=options.get("sufficiency_after_quality_reject", False),
            )  # fmt: skip
            runner = SampleRunner(
                Services(corpus=corpus, llm=gateway, seeds=seeds, questions=questions), saver, context
            )
            chosen = (
                [row for row in rows if row["outcome"] != "accepted"]
                if args.all
                else [r for r in rows if r["n"] == args.sample]
            )
            if not chosen and args.all:
                raise UserError(f"run {args.run_id} has no sample that was not accepted: nothing to replay")
            if not chosen:
                raise UserError(f"no finished sample {args.sample} in run {args.run_id}; see --list")
            passed = 0
            for row in chosen:
                slot = Slot(args.run_id, row["n"], row["question_type"], row["binary"])
                result = await fork_and_run(runner, slot.thread_id, args.from_node, edits)
                reason = str(result.state.get("end_reason", ""))[:100]
                print(f"sample {row['n']}: {row['outcome']} -> {result.outcome}  ({reason})")
                if result.record is not None:
                    passed += 1
                    rejection = await store.rejection(args.run_id, row["n"])  # its history stays beside the record
                    await store.complete(
                        Completion(slot, result.outcome, result.record, rejection, sample_summary(result.state))
                    )
            if args.all:
                print(f"{passed} of {len(chosen)} replayed samples now pass")
            slots = [row["n"] for row in await store.finished(args.run_id)]
            await RunFolder(settings.runs_dir / args.run_id).rebuild(store.file_lines(args.run_id, slots))
        finally:
            await corpus.close()


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    check_run_id(args.run_id)
    edits = parse_edits(args.edits)  # a bad --set fails before any connection is made
    settings = settings_from_args(args)
    args.concurrency, args.seed, args.record_llm = 1, None, None
    run_async(replay_command(args, settings, edits))


if __name__ == "__main__":
    main()
