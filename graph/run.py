"""Generate a validated multi-hop QA dataset from a vector store.

    python -m graph.run --demo --count 6 --llm replay:graph/demo/demo_replay.jsonl --seed 7
    python -m graph.run --collection my_docs --count 60 --types comparison,composition --hops 3
    python -m graph.run --collection my_docs --count 50 --queries q.txt --unanswerable-share 0.2

Writes runs/<run_id>/dataset.jsonl (accepted records), rejected.jsonl (every other sample with its
history) and run.json (configuration without secrets, funnel, tokens, cost), then prints the funnel.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    add_state_options,
    command_parser,
    models_from_args,
    run_async,
    settings_from_args,
)
from graph.config.errors import UserError, exit_on_user_error, first_line
from graph.config.logs import configure_logging
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING
from graph.llm.gateway import build_gateway
from graph.runs.files import check_run_id
from graph.runs.job import run_job
from graph.runs.options import BINARY_MODES, RunOptions, RunRequest
from graph.runs.outages import DATABASE_ERRORS
from graph.runs.queries import file_digest, read_queries
from graph.runs.stages import context_overrides, parse_node_options
from nodes.context import DEFAULT_MODELS, Context
from state.sample import DEFAULT_ROLE, MAX_HOPS, MIN_HOPS, QUESTION_TYPES
from state.usage import ROLES


def parse_types(value: str) -> tuple[str, ...]:
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.run", __doc__)
    add_run_options(parser.add_argument_group("run"))
    add_query_options(parser.add_argument_group("queries and unanswerable questions"))
    add_model_options(parser.add_argument_group("models"))
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    add_state_options(parser)
    add_log_options(parser)
    return parser


def add_run_options(run: argparse._ArgumentGroup) -> None:
    """The run's options, one `add_argument` each (a long function of flat declarations)."""
    run.add_argument(
        "--count", type=int, default=RunOptions.count, help="accepted samples wanted (default %(default)s)"
    )
    run.add_argument(
        "--demo", action="store_true", help=f"use the bundled demo collection {DEMO_COLLECTION!r} (loaded on first use)"
    )
    run.add_argument(
        "--types", type=parse_types, default=QUESTION_TYPES, help="question types, comma-separated (default: all three)"
    )
    run.add_argument(
        "--binary",
        choices=sorted(BINARY_MODES),
        default=RunOptions.binary,
        help="yes/no questions: mixed (half, default), yes (only), no (none)",
    )
    run.add_argument(
        "--hops",
        type=int,
        default=RunOptions.hops,
        choices=range(MIN_HOPS, MAX_HOPS + 1),
        metavar="{" + ",".join(str(n) for n in range(MIN_HOPS, MAX_HOPS + 1)) + "}",
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
        default=RunOptions.dedup_threshold,
        help="reject a question whose embedding cosine to an accepted one reaches this (0 = exact duplicates only)",
    )


def add_query_options(queries: argparse._ArgumentGroup) -> None:
    queries.add_argument(
        "--queries",
        type=Path,
        metavar="FILE",
        help="seed from real user queries: one per line, or JSON lines with query and an optional role; seeds are "
        "drawn from the chunks they retrieve (weighted by how many queries did)",
    )
    queries.add_argument(
        "--role-from-queries",
        action="store_true",
        help="write each question in the register of the nearest real query (that query is sent to the generator)",
    )
    queries.add_argument(
        "--keep-queries",
        action="store_true",
        help="records and the report show query texts (default: a hash; queries may hold personal data)",
    )
    queries.add_argument(
        "--unanswerable-share",
        type=float,
        default=RunOptions.unanswerable_share,
        help="share of --count that are generated unanswerable questions, checked against the retriever's top k "
        "(default %(default)s)",
    )
    queries.add_argument(
        "--retrieval-k",
        type=int,
        default=RunOptions.retrieval_k,
        help="chunks retrieved per query and per unanswerable question (default %(default)s)",
    )


def add_model_options(models: argparse._ArgumentGroup) -> None:
    models.add_argument("--llm", help="one model spec for all roles, e.g. google_genai:gemini-2.5-flash or replay:FILE")
    for role in ROLES:
        models.add_argument(f"--{role}-model", help=f"{role} spec (default {DEFAULT_MODELS[role]})")
    models.add_argument(
        "--llm-base-url",
        help="base URL of the models' server: a Gemini API proxy, an OpenAI-compatible server (vLLM, llama.cpp, "
        "LM Studio), an Ollama server",
    )
    models.add_argument(
        "--thinking",
        action="append",
        metavar="ROLE=BUDGET|LEVEL",
        help="thinking of a role's model: a token budget (Gemini; 0 turns it off) or minimal|low|medium|high "
        "(default: the provider's own)",
    )
    models.add_argument("--requests-per-second", type=float, help="provider requests started per second (default 10)")
    models.add_argument("--requests-per-minute", type=float, help="requests per minute to each model (its quota)")
    models.add_argument("--tokens-per-minute", type=float, help="prompt tokens per minute to each model (its quota)")
    models.add_argument(
        "--limit-share", type=float, help="this process's share of the per-minute limits: 1/N for each of N workers"
    )
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


def add_log_options(parser: argparse.ArgumentParser) -> None:
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


def check_flags(args: argparse.Namespace) -> None:
    """Flag values no run can use: one line naming the flag."""
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
    if not 0 <= args.unanswerable_share <= 1:
        raise UserError("--unanswerable-share is a share of --count from 0 to 1, e.g. 0.2")
    if args.retrieval_k <= 0:
        raise UserError("--retrieval-k must be at least 1")
    if args.resume and (args.role_from_queries or args.keep_queries or args.unanswerable_share):
        raise UserError(
            "a continued run keeps the options it began with: --role-from-queries, --keep-queries and "
            "--unanswerable-share apply to new runs"
        )
    if (args.role_from_queries or args.keep_queries) and not args.queries:
        raise UserError("--role-from-queries and --keep-queries need a query file: give --queries FILE")
    for run_id in (args.run_id, args.resume):
        if run_id is not None:
            check_run_id(run_id)


def run_settings(args: argparse.Namespace) -> Settings:
    """Settings from flags, environment and triad.toml; `--demo` names the demo collection and its embedding."""
    demo = {"collection": args.collection or DEMO_COLLECTION, "embedding": args.embedding or DEMO_EMBEDDING}
    return settings_from_args(args, **(demo if args.demo else {}))


def run_request(args: argparse.Namespace, settings: Settings) -> RunRequest:
    """The run the flags ask for; stage implementations from `[nodes]` of triad.toml, then `--node`."""
    nodes = {**settings.nodes, **parse_node_options(args.node)}
    context_overrides(nodes)  # a bad stage or implementation fails here, before any work
    options = RunOptions(
        count=args.count,
        types=tuple(args.types),
        binary=args.binary,
        hops=args.hops,
        role=args.role,
        seed=args.seed,
        max_revisions=args.max_revisions,
        max_restarts=args.max_restarts,
        nodes=nodes,
        dedup_threshold=args.dedup_threshold,
        sufficiency_after_quality_reject=args.sufficiency_after_quality_reject,
        unanswerable_share=args.unanswerable_share,
        retrieval_k=args.retrieval_k,
        role_from_queries=args.role_from_queries,
        keep_queries=args.keep_queries,
        **(query_file(args.queries) if args.queries and not args.resume else {}),
    )
    given = models_from_args(args)
    return RunRequest(
        options=options,
        run_id=args.run_id,
        resume=args.resume,
        worker=args.worker,
        concurrency=args.concurrency,
        record_llm=args.record_llm,
        log_json=args.log_json,
        models_given=given,
        queries_given=args.queries,
    )


def query_file(path: Path) -> dict[str, str]:
    """The query file as a run keeps it: its absolute path and the digest of its contents (read once here)."""
    read_queries(path)  # an unreadable or empty file fails here, before any work
    return {"queries": str(path.resolve()), "queries_digest": file_digest(path)}


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    configure_logging(json_lines=args.log_json, level=args.log_level or ("info" if args.log_json else "warning"))
    check_flags(args)
    settings = run_settings(args)
    request = run_request(args, settings)
    gateway = None
    if not args.resume:
        if not settings.collection:
            raise UserError("name the collection with --collection NAME (or TRIAD_COLLECTION), or pass --demo")
        # Every role resolves before any work: a missing key or an unknown provider fails here, at once.
        gateway = build_gateway(settings, record_path=args.record_llm, seed=args.seed)
    try:
        run_async(run_job(request, settings, gateway))
    except DATABASE_ERRORS as error:
        run = args.resume or args.run_id or "RUN_ID (printed when the run started)"
        raise UserError(
            f"lost the database ({first_line(error)}); finished samples are kept: "
            f"start it, then continue with --resume {run}"
        ) from None


if __name__ == "__main__":
    main()
