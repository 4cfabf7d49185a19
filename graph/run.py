"""Generate a validated multi-hop QA dataset from a vector store.

    python -m graph.run --demo --count 6 --llm replay:graph/demo/demo_replay.jsonl --seed 7
    python -m graph.run --collection my_docs --count 60 --types comparison,composition --hops 3

Writes runs/<run_id>/dataset.jsonl (accepted records), rejected.jsonl (every other sample with its
history) and run.json (configuration without secrets, funnel, tokens, cost), then prints the funnel.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from graph.cli import add_collection_options, add_database_options, settings_from_args
from graph.corpus import Corpus
from graph.db import check_connection, database_url, redact, state_url
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING, load_demo_chunks
from graph.errors import UserError, exit_on_user_error
from graph.funnel import format_funnel, funnel
from graph.ingest import ingest_chunks
from graph.llm import LLMCache, LLMGateway, build_gateway
from graph.logs import configure_logging
from graph.runner import Cell, RunState, execute_run, plan_cells
from graph.sample import SampleResult, SampleRunner, SeedRegistry, context_for, open_checkpointer
from graph.settings import Settings
from nodes.bridge import BRIDGE_PROPOSERS
from nodes.context import Context
from nodes.extract import RELEVANCE_LABELLERS
from nodes.ports import Services
from state.sample import DEFAULT_ROLE, QUESTION_TYPES

BINARY_MODES = {"mixed": (False, True), "yes": (True,), "no": (False,)}


def parse_types(value: str) -> tuple[str, ...]:
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m graph.run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    run = parser.add_argument_group("run")
    run.add_argument("--count", type=int, default=6, help="accepted samples wanted (default %(default)s)")
    run.add_argument(
        "--demo", action="store_true", help=f"use the bundled demo collection {DEMO_COLLECTION!r} (loaded on first use)"
    )
    run.add_argument(
        "--types", type=parse_types, default=QUESTION_TYPES, help="question types, comma-separated (default: all three)"
    )
    run.add_argument(
        "--binary",
        choices=sorted(BINARY_MODES),
        default="mixed",
        help="yes/no questions: mixed (half, default), yes (only), no (none)",
    )
    run.add_argument(
        "--hops",
        type=int,
        default=2,
        choices=range(2, 5),
        metavar="{2,3,4}",
        help="supporting chunks per question (default 2)",
    )
    run.add_argument("--role", default=DEFAULT_ROLE, help="who asks the questions (default %(default)r)")
    run.add_argument("--run-id", help="name of the run folder and thread prefix (default: time stamp + random suffix)")
    run.add_argument("--seed", type=int, help="make seed selection reproducible")
    run.add_argument(
        "--max-revisions",
        type=int,
        default=Context.max_revisions,
        help="revisions of a rejected draft (default %(default)s)",
    )
    run.add_argument(
        "--max-restarts",
        type=int,
        default=Context.max_restarts,
        help="fresh seeds after a failed bridge search (default %(default)s)",
    )
    run.add_argument("--bridge-proposer", choices=sorted(BRIDGE_PROPOSERS), default=Context.bridge_proposer)
    run.add_argument("--relevance-labeller", choices=sorted(RELEVANCE_LABELLERS), default=Context.relevance_labeller)
    run.add_argument("--runs-dir", type=Path, help="where run folders go (default ./runs; TRIAD_RUNS_DIR)")
    models = parser.add_argument_group("models")
    models.add_argument("--llm", help="one model spec for all roles, e.g. google_genai:gemini-2.5-flash or replay:FILE")
    models.add_argument("--generator-model", help="generator spec (default google_genai:gemini-2.5-flash)")
    models.add_argument("--validator-model", help="validator spec (default google_genai:gemini-3.1-flash-lite-preview)")
    models.add_argument("--extractor-model", help="extractor spec (default google_genai:gemini-2.5-flash-lite)")
    models.add_argument("--llm-base-url", help="base URL of an OpenAI-compatible server (vLLM, llama.cpp, LM Studio)")
    models.add_argument("--requests-per-second", type=float, help="provider requests started per second (default 10)")
    models.add_argument("--max-concurrent-requests", type=int, help="provider requests in flight (default 16)")
    models.add_argument("--max-cost-usd", type=float, help="stop starting samples once this much is spent")
    models.add_argument("--record-llm", type=Path, help="write every model request and response to this JSONL file")
    models.add_argument(
        "--no-llm-cache",
        dest="llm_cache",
        action="store_false",
        default=None,
        help="do not serve repeated requests from the cache",
    )
    add_collection_options(parser)
    add_database_options(parser)
    parser.add_argument(
        "--state-url", help="PostgreSQL URL for checkpoints (TRIAD_STATE_URL); default: the database URL"
    )
    parser.add_argument("--log-json", action="store_true", help="structured JSON logs on stderr")
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    return parser


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def ensure_demo(url: str) -> None:
    """Load the demo corpus on first use (a no-op once it is there)."""
    with psycopg.connect(url) as conn:
        present = conn.execute("SELECT to_regclass(%s)", (DEMO_COLLECTION,)).fetchone()[0]  # type: ignore[index]
    if present is None:
        print("loading the demo corpus into the database (first use only, about two minutes)...", file=sys.stderr)
        ingest_chunks(url, DEMO_COLLECTION, load_demo_chunks(), DEMO_EMBEDDING)


def progress_line(run: RunState, cell: Cell, result: SampleResult) -> None:
    wanted = sum(c.quota for c in run.cells)
    accepted = sum(c.accepted for c in run.cells)
    print(
        f"[{len(run.results)}] {cell.name}: {result.outcome}  (accepted {accepted}/{wanted})",
        file=sys.stderr,
        flush=True,
    )


def public_settings(settings: Settings) -> dict[str, Any]:
    """Settings as run.json keeps them: no secrets, URLs without passwords."""
    data = settings.model_dump(mode="json", exclude={"google_api_key", "openai_api_key"})
    for key in ("database_url", "state_url"):
        if data.get(key):
            data[key] = redact(data[key])
    return data


def write_run_json(
    run: RunState, settings: Settings, args: argparse.Namespace, context: Context, summary: dict[str, Any]
) -> Path:
    path = run.folder / "run.json"
    document = {
        "run_id": run.run_id,
        "started_at": run.started_at,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - run.started_clock, 1),
        "settings": public_settings(settings),
        "options": {
            "count": args.count,
            "types": list(args.types),
            "binary": args.binary,
            "hops": args.hops,
            "role": args.role,
            "seed": args.seed,
        },
        "models": {
            "generator": context.generator_model,
            "validator": context.validator_model,
            "extractor": context.extractor_model,
        },
        "quotas": {cell.name: cell.quota for cell in run.cells},
        "shortfall": {cell.name: cell.quota - cell.accepted for cell in run.cells if cell.accepted < cell.quota},
        "stopped_by_cost_limit": run.stopped_by_cost,
        "funnel": summary,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


async def run_command(args: argparse.Namespace, settings: Settings, gateway: LLMGateway) -> RunState:
    """Open the corpus and the checkpointer, run the quota plan, write the outputs, print the funnel."""
    url = database_url(settings)
    check_connection(url)
    checkpoint_url = state_url(settings)
    if settings.llm_cache:
        gateway.cache = LLMCache(checkpoint_url)
    if args.demo:
        ensure_demo(url)
    corpus = await Corpus.open(url, settings.collection or "", schema=settings.schema_name)
    run_id = args.run_id or new_run_id()
    run = RunState(
        run_id=run_id,
        folder=settings.runs_dir / run_id,
        cells=plan_cells(args.count, args.types, BINARY_MODES[args.binary]),
    )
    context = context_for(
        settings,
        gateway,
        run_id=run.run_id,
        max_revisions=args.max_revisions,
        max_restarts=args.max_restarts,
        bridge_proposer=args.bridge_proposer,
        relevance_labeller=args.relevance_labeller,
    )
    try:
        services = Services(corpus=corpus, llm=gateway, seeds=SeedRegistry(corpus, seed=args.seed))
        async with open_checkpointer(checkpoint_url) as saver:
            runner = SampleRunner(services, saver, context)
            print(
                f"run {run.run_id}: {args.count} samples wanted from {settings.collection!r} -> {run.folder}",
                file=sys.stderr,
            )
            await execute_run(
                run,
                runner,
                gateway,
                hops=args.hops,
                role=args.role,
                max_cost_usd=settings.max_cost_usd,
                on_sample=progress_line,
            )
    finally:
        await corpus.close()
        if gateway.cache is not None:
            await gateway.cache.close()
    summary = funnel(result.state for result in run.results)
    write_run_json(run, settings, args, runner.context, summary)
    print(format_funnel(summary, {cell.name: cell.quota for cell in run.cells}))
    if run.stopped_by_cost:
        print(f"stopped starting samples: the cost limit of {settings.max_cost_usd} USD was reached", file=sys.stderr)
    short = {cell.name: cell.quota - cell.accepted for cell in run.cells if cell.accepted < cell.quota}
    if short:
        print(
            f"shortfall: {', '.join(f'{name} {n}' for name, n in short.items())} (attempt caps reached)",
            file=sys.stderr,
        )
    print(f"wrote {run.dataset_path} and {run.rejected_path}", file=sys.stderr)
    return run


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    configure_logging(json_lines=args.log_json, level=args.log_level)
    if args.count <= 0:
        raise UserError("--count must be a positive number of samples")
    if args.max_revisions < 0 or args.max_restarts < 0:
        raise UserError("--max-revisions and --max-restarts cannot be negative")
    if args.demo:
        args.collection = args.collection or DEMO_COLLECTION
        args.embedding = args.embedding or DEMO_EMBEDDING
    settings = settings_from_args(args)
    if not settings.collection:
        raise UserError("name the collection with --collection NAME (or TRIAD_COLLECTION), or pass --demo")
    # Every role resolves before any work: a missing key or an unknown provider fails here, at once.
    gateway = build_gateway(settings, record_path=args.record_llm, seed=args.seed)
    asyncio.run(run_command(args, settings, gateway))


if __name__ == "__main__":
    main()
