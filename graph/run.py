"""Generate a validated multi-hop QA dataset from a vector store.

    python -m graph.run --demo --count 6 --llm replay:graph/demo/demo_replay.jsonl --seed 7
    python -m graph.run --collection my_docs --count 60 --types comparison,composition --hops 3

Writes runs/<run_id>/dataset.jsonl (accepted records), rejected.jsonl (every other sample with its
history) and run.json (configuration without secrets, funnel, tokens, cost), then prints the funnel.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from graph.checkpoints import PooledPostgresSaver
from graph.cli import add_collection_options, add_database_options, command_parser, run_async, settings_from_args
from graph.corpus import Corpus
from graph.db import CONNECT_TIMEOUT_S, check_connection, database_url, redact, state_url
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING, load_demo_chunks
from graph.embeddings import load_embeddings
from graph.errors import UserError, exit_on_user_error, first_line
from graph.funnel import cell_name, format_funnel, funnel
from graph.ingest import ingest_chunks
from graph.llm import LLMCache, LLMGateway, build_gateway
from graph.logs import configure_logging
from graph.outputs import RunFolder, check_run_id, make_folder
from graph.progress import Progress
from graph.registry import context_overrides, parse_node_options
from graph.report import REPORT_EXAMPLES, write_report
from graph.runner import DATABASE_ERRORS, Outages, plan_cells, work
from graph.runstore import SEED_BATCH, CellPlan, RunQuestions, RunSeedPool, RunStore
from graph.sample import SampleRunner, context_for
from graph.settings import Settings
from nodes.context import Context
from nodes.ports import Services
from state.sample import DEFAULT_ROLE, QUESTION_TYPES
from state.usage import ROLES

BINARY_MODES = {"mixed": (False, True), "yes": (True,), "no": (False,)}

#: Seconds a request for a pooled connection may wait at most.
POOL_TIMEOUT_S = 30.0


def pool_timeout(wait_s: float) -> float:
    """How long a pooled connection is waited for: no longer than the run waits for a database that went away."""
    return max(1.0, min(wait_s, POOL_TIMEOUT_S))


def parse_types(value: str) -> tuple[str, ...]:
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.run", __doc__)
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
    run.add_argument(
        "--node",
        action="append",
        default=[],
        metavar="STAGE=IMPL",
        help="swap a stage: bridge=llm|entity_overlap, relevance=care|care_batched|direct|indirect, "
        "or STAGE=package.module:function (repeatable; also [nodes] in triad.toml)",
    )
    run.add_argument(
        "--sufficiency-after-quality-reject",
        action="store_true",
        help="run the sufficiency check even after the quality judge rejected (more calls; as the reference code did)",
    )
    run.add_argument("--runs-dir", type=Path, help="where run folders go (default ./runs; TRIAD_RUNS_DIR)")
    run.add_argument("--concurrency", type=int, default=1, help="samples in flight at once (default %(default)s)")
    run.add_argument(
        "--resume", metavar="RUN_ID", help="continue an interrupted run (its options come from the state database)"
    )
    run.add_argument("--worker", action="store_true", help="with --resume: join a run other processes work on too")
    run.add_argument(
        "--dedup-threshold",
        type=float,
        default=0.95,
        help="reject a question whose embedding cosine to an accepted one reaches this (0 = exact duplicates only)",
    )
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
    parser.add_argument(
        "--log-json",
        action="store_true",
        help="structured JSON logs on stderr, at level info unless --log-level says otherwise",
    )
    parser.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        help="info: an event per finished sample, retry, unusable reply and outage; debug: also one per model "
        "call (default: warning, or info with --log-json)",
    )
    return parser


def tell(text: str) -> None:
    """A line for the user on stderr (stdout holds the funnel)."""
    print(text, file=sys.stderr)


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def ensure_demo(url: str) -> None:
    """Load the demo corpus on first use (a no-op once it is there)."""
    with psycopg.connect(url) as conn:
        present = conn.execute("SELECT to_regclass(%s)", (DEMO_COLLECTION,)).fetchone()[0]  # type: ignore[index]
    if present is None:
        print("loading the demo corpus into the database (first use only, about two minutes)...", file=sys.stderr)
        ingest_chunks(url, DEMO_COLLECTION, load_demo_chunks(), DEMO_EMBEDDING)


def public_settings(settings: Settings) -> dict[str, Any]:
    """Settings as run.json keeps them: no secrets, URLs without passwords."""
    data = settings.model_dump(mode="json", exclude={"google_api_key", "openai_api_key"})
    for key in ("database_url", "state_url"):
        if data.get(key):
            data[key] = redact(data[key])
    return data


#: Options a run keeps in the state database, so `--resume` and workers need only the run id.
RUN_OPTIONS = (
    "count",
    "types",
    "binary",
    "hops",
    "role",
    "seed",
    "max_revisions",
    "max_restarts",
    "nodes",
    "dedup_threshold",
    "sufficiency_after_quality_reject",
)
STORED_SETTINGS = ("collection", "schema_name", "embedding", "generator_model", "validator_model", "extractor_model")


def chosen_nodes(args: argparse.Namespace, settings: Settings) -> dict[str, str]:
    """Stage implementations: `[nodes]` of triad.toml, then `--node` flags."""
    return {**settings.nodes, **parse_node_options(args.node)}


def run_options(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    options = {name: getattr(args, name) for name in RUN_OPTIONS}
    options["types"] = list(args.types)
    options["settings"] = {name: getattr(settings, name) for name in STORED_SETTINGS}
    options["settings"].update({f"{role}_model": settings.model_for(role) for role in ROLES})
    return options


def apply_options(args: argparse.Namespace, settings: Settings, options: dict[str, Any]) -> Settings:
    """A stored run's options over the parsed ones; model flags given now still win."""
    for name in RUN_OPTIONS:
        setattr(args, name, options[name])
    args.types = tuple(options["types"])
    stored = dict(options["settings"])
    for role in ROLES:
        given = getattr(args, f"{role}_model", None) or args.llm
        if given:
            stored[f"{role}_model"] = given
    return settings.model_copy(update=stored)


def run_document(
    run_id: str,
    options: dict[str, Any],
    settings: Settings,
    cells: list[CellPlan],
    summary: dict[str, Any],
    started: float,
    stopped_by_cost: bool,
) -> dict[str, Any]:
    """run.json: options, settings without secrets, models, quotas, shortfall and the funnel."""
    quotas = {cell_name(c.question_type, c.binary): c.quota for c in cells}
    accepted = {name: summary["cells"].get(name, {}).get("accepted", 0) for name in quotas}
    return {
        "run_id": run_id,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds_this_process": round(time.monotonic() - started, 1),
        "options": {k: v for k, v in options.items() if k != "settings"},
        "settings": public_settings(settings),
        "models": {role: settings.model_for(role) for role in ROLES},
        "quotas": quotas,
        "shortfall": {name: quota - accepted[name] for name, quota in quotas.items() if accepted[name] < quota},
        "stopped_by_cost_limit": stopped_by_cost,
        "funnel": summary,
    }


@asynccontextmanager
async def state_pools(
    url: str, concurrency: int, wait_s: float = POOL_TIMEOUT_S
) -> AsyncIterator[tuple[AsyncConnectionPool, AsyncConnectionPool]]:
    """Connection pools on the state database: one for checkpoints (dict rows), one for run bookkeeping.

    A request for a connection waits `pool_timeout(wait_s)`.
    """
    timeout = pool_timeout(wait_s)
    checkpoints = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=concurrency + 2,
        open=False,
        timeout=timeout,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    bookkeeping = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=4,
        open=False,
        timeout=timeout,
        kwargs={"autocommit": True},
    )
    try:
        await checkpoints.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        await bookkeeping.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except PoolTimeout:
        raise UserError(
            f"cannot connect to the state database {redact(url)}; fix --state-url / TRIAD_STATE_URL"
        ) from None
    try:
        yield checkpoints, bookkeeping
    finally:
        await checkpoints.close()
        await bookkeeping.close()


async def run_command(
    args: argparse.Namespace, settings: Settings, gateway: LLMGateway | None = None
) -> tuple[str, dict[str, Any]]:
    """Create or continue a run, work on it, rebuild its files, write run.json and the report."""
    started = time.monotonic()
    url = database_url(settings)
    check_connection(url)
    checkpoint_url = state_url(settings)
    async with state_pools(checkpoint_url, args.concurrency, settings.database_wait_seconds) as (
        checkpoint_pool,
        store_pool,
    ):
        store = RunStore(store_pool, lease_seconds=settings.lease_seconds)
        await store.setup()
        make_folder(settings.runs_dir)  # a runs folder that cannot be made fails before the run exists
        run_id = args.resume or args.run_id or new_run_id()
        continuing = bool(args.resume) or (bool(args.run_id) and await store.exists(run_id))
        if continuing:
            options = await store.options(run_id)
            settings = apply_options(args, settings, options)
            print(f"continuing run {run_id}", file=sys.stderr)
        else:
            args.nodes = chosen_nodes(args, settings)
            options = run_options(args, settings)
        if gateway is None:
            gateway = build_gateway(settings, record_path=args.record_llm, seed=args.seed)
        if settings.llm_cache and gateway.cache is None:
            gateway.cache = LLMCache(checkpoint_url)
        if settings.collection == DEMO_COLLECTION:
            ensure_demo(url)
        corpus = await Corpus.open(
            url,
            settings.collection or "",
            schema=settings.schema_name,
            max_chars=settings.max_chunk_chars,
            pool_timeout_s=pool_timeout(settings.database_wait_seconds),
        )
        corpus.warm()
        try:
            left_out = await corpus.check_room(args.hops, Context.min_chunk_chars)
            embeddings = load_embeddings(settings.embedding) if args.dedup_threshold > 0 else None
            if not continuing:  # begun only once its collection and models are known to work
                await store.create_run(run_id, options)
                print(
                    f"run {run_id}: {args.count} samples wanted from {settings.collection!r}; "
                    f"after an interruption continue it with --resume {run_id}",
                    file=sys.stderr,
                )
            if left_out:
                print(
                    f"note: {left_out} chunk(s) of {settings.collection!r} are blank or over "
                    f"{settings.max_chunk_chars} characters and are never used (TRIAD_MAX_CHUNK_CHARS)",
                    file=sys.stderr,
                )
            cells = plan_cells(args.count, args.types, BINARY_MODES[args.binary])
            await store.release_dead_local_workers(run_id, socket.gethostname())
            folder = RunFolder(settings.runs_dir / run_id)
            finished = await store.finished(run_id)
            await folder.rebuild(store.file_lines(run_id, [row["n"] for row in finished]))
            questions = RunQuestions(store, run_id, embeddings=embeddings, threshold=args.dedup_threshold)
            accepted = [(f"{run_id}/{row['n']}", row["brief"]["question"]) for row in finished if row["brief"]]
            await questions.load(accepted)
            used = await store.used_seeds(run_id)
            seeds = RunSeedPool(corpus, store, run_id, used=used, seed=args.seed, batch=SEED_BATCH)
            services = Services(corpus=corpus, llm=gateway, seeds=seeds, questions=questions)
            saver = PooledPostgresSaver(checkpoint_pool)  # type: ignore[arg-type]
            await saver.setup()
            context = context_for(
                settings,
                gateway,
                run_id=run_id,
                max_revisions=args.max_revisions,
                max_restarts=args.max_restarts,
                **context_overrides(args.nodes),
                sufficiency_after_quality_reject=args.sufficiency_after_quality_reject,
            )
            runner = SampleRunner(services, saver, context)
            live = sys.stderr.isatty() and not args.log_json and not args.worker
            # With --log-json the sample_done events take the place of the per-sample lines.
            with Progress(cells, finished, gateway, live=live, lines=not args.log_json) as progress:
                outcome = await work(
                    run_id,
                    cells,
                    store,
                    runner,
                    folder,
                    gateway,
                    worker=f"{socket.gethostname()}-{os.getpid()}",
                    concurrency=args.concurrency,
                    hops=args.hops,
                    role=args.role,
                    max_cost_usd=settings.max_cost_usd,
                    database_wait_s=settings.database_wait_seconds,
                    pools=(checkpoint_pool, store_pool, corpus.pool),
                    notify=tell,
                    on_done=progress.sample_done,
                )
        finally:
            await corpus.close()
            if gateway.cache is not None:
                await gateway.cache.close()
        outages = Outages(run_id, settings.database_wait_seconds, (store_pool,), tell)
        finished = await outages.call(lambda: store.finished(run_id))
        slots = [row["n"] for row in finished]  # the files and the report show what the funnel counts
        await outages.call(lambda: folder.rebuild(store.file_lines(run_id, slots)))
        examples = await outages.call(lambda: store.accepted_records(run_id, slots, REPORT_EXAMPLES))
    summary = funnel(row["summary"] for row in finished if row["summary"])
    document = run_document(run_id, options, settings, cells, summary, started, outcome.stopped_by_cost)
    folder.write_run_json(document)
    write_report(folder, document, finished, examples)
    if not args.worker:
        print(format_funnel(summary, document["quotas"]))
    if outcome.stopped_by_cost:
        print(f"stopped starting samples: the cost limit of {settings.max_cost_usd} USD was reached", file=sys.stderr)
    if document["shortfall"]:
        shortfall = ", ".join(f"{name} {n}" for name, n in document["shortfall"].items())
        print(f"shortfall: {shortfall} (attempt caps reached or the run stopped early)", file=sys.stderr)
    print(f"wrote {folder.dataset}, {folder.rejected}, {folder.run_json} and {folder.report}", file=sys.stderr)
    return run_id, document


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    configure_logging(json_lines=args.log_json, level=args.log_level or ("info" if args.log_json else "warning"))
    if args.count <= 0:
        raise UserError("--count must be a positive number of samples")
    if args.max_revisions < 0 or args.max_restarts < 0:
        raise UserError("--max-revisions and --max-restarts cannot be negative")
    if args.concurrency <= 0:
        raise UserError("--concurrency must be at least 1")
    if args.worker and not args.resume:
        raise UserError("--worker joins an existing run: give --resume RUN_ID")
    if not 0 <= args.dedup_threshold <= 1:
        raise UserError("--dedup-threshold is a cosine similarity from 0 (exact duplicates only) to 1")
    for run_id in (args.run_id, args.resume):
        if run_id is not None:
            check_run_id(run_id)
    if args.demo:
        args.collection = args.collection or DEMO_COLLECTION
        args.embedding = args.embedding or DEMO_EMBEDDING
    settings = settings_from_args(args)
    context_overrides(chosen_nodes(args, settings))  # a bad stage or implementation fails here, before any work
    gateway = None
    if not args.resume:
        if not settings.collection:
            raise UserError("name the collection with --collection NAME (or TRIAD_COLLECTION), or pass --demo")
        # Every role resolves before any work: a missing key or an unknown provider fails here, at once.
        gateway = build_gateway(settings, record_path=args.record_llm, seed=args.seed)
    try:
        run_async(run_command(args, settings, gateway))
    except DATABASE_ERRORS as error:
        run = args.resume or args.run_id or "RUN_ID (printed when the run started)"
        raise UserError(
            f"lost the database ({first_line(error)}); finished samples are kept: "
            f"start it, then continue with --resume {run}"
        ) from None


if __name__ == "__main__":
    main()
