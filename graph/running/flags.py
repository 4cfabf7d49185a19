"""The flags of `python -m graph.run`, and the run request they make."""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import add_model_server_options, models_from_args
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION
from graph.planning.options import (
    BINARY_MODES,
    NEW_RUN_ONLY,
    InvalidOptions,
    RunOptions,
    RunRequest,
    refuse_new_run_options,
)
from graph.planning.personas import AUTO, read_personas
from graph.planning.stages import parse_node_options
from graph.running.queries import file_digest, read_queries
from graph.seeding.weights import read_weights, weight_key
from nodes.question_types import MULTI_HOP_TYPES, QUESTION_TYPES
from nodes.run_context import DEFAULT_MODELS, Context
from state.query_styles import QUERY_STYLES, parse_query_styles
from state.sample import DEFAULT_ROLE, MAX_HOPS, MIN_HOPS
from state.usage import ROLES


def parse_types(value: str) -> tuple[str, ...]:
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def add_run_options(run: argparse._ArgumentGroup) -> None:
    """The run's options, one `add_argument` each."""
    run.add_argument(
        "--count", type=int, default=RunOptions.count, help="accepted samples wanted (default %(default)s)"
    )
    run.add_argument(
        "--demo", action="store_true", help=f"use the bundled demo collection {DEMO_COLLECTION!r} (loaded on first use)"
    )
    run.add_argument(
        "--types",
        type=parse_types,
        default=MULTI_HOP_TYPES,
        help="question types, comma-separated: comparison, intersection, composition (multi-hop, the default), "
        "factual, procedural (one chunk each)",
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
    run.add_argument("--role", help=f"who asks the questions (default {DEFAULT_ROLE!r})")
    run.add_argument(
        "--personas",
        type=Path,
        metavar="FILE",
        help="the run's askers, from YAML or JSON: a list of name, description and share (optional); each "
        "persona's description is the role of its share of the samples; `auto`: three to five derived from the "
        "collection",
    )
    run.add_argument(
        "--query-styles",
        metavar="STYLE=SHARE,...",
        help="ask the accepted questions the way users type them, each style a share of --count, e.g. "
        f"natural=0.6,keyword=0.2,misspelled=0.2 ({', '.join(QUERY_STYLES)}); "
        "default: every question as validated",
    )
    run.add_argument(
        "--question-language",
        metavar="CODE",
        help="write every question and answer in this language (ISO 639-1, e.g. en, de); default: the language "
        "of each sample's chunks (TRIAD_QUESTION_LANGUAGE, question_language in triad.toml)",
    )
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
        "--estimate",
        action="store_true",
        help="print the run's expected calls, tokens, USD and time per role, and exit without a model call",
    )
    run.add_argument("--like", metavar="RUN_ID", help="with --estimate: a finished run whose counts to scale")
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


def add_weight_options(weights: argparse._ArgumentGroup) -> None:
    weights.add_argument(
        "--weight-by",
        metavar="metadata.KEY",
        help="seeds weighted by this metadata key: its value is the weight, or, with --weights, names it",
    )
    weights.add_argument(
        "--weights",
        type=Path,
        metavar="FILE",
        help="a document's source (or a --weight-by value) and its weight per line: heavier documents seed "
        "proportionally more questions",
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
    models.add_argument(
        "--llm", help="one model spec for all roles, e.g. google_genai:gemini-2.5-flash or recorded:FILE"
    )
    for role in ROLES:
        models.add_argument(f"--{role}-model", help=f"{role} spec (default {DEFAULT_MODELS[role]})")
    add_model_server_options(models)
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


def asked_language(args: argparse.Namespace, settings: Settings) -> str | None:
    """--question-language, else triad.toml's for a new run (a continued run keeps its own); lower-cased."""
    given = args.question_language or (None if args.resume else settings.question_language)
    return given.strip().lower() if given else None


def run_request(args: argparse.Namespace, settings: Settings) -> RunRequest:
    """The run the flags ask for; stage implementations from `[nodes]` of triad.toml, then `--node`."""
    refuse_new_run_options(args.resume, {name: getattr(args, name) for name in NEW_RUN_ONLY})
    if args.role and args.personas:
        raise InvalidOptions("give --role or --personas, not both: each persona's description is its role")
    nodes = {**settings.nodes, **parse_node_options(args.node)}
    options = RunOptions(
        count=args.count,
        types=tuple(args.types),
        binary=args.binary,
        hops=args.hops,
        role=args.role or DEFAULT_ROLE,
        random_seed=args.seed,
        max_revisions=args.max_revisions,
        max_restarts=args.max_restarts,
        nodes=nodes,
        dedup_threshold=args.dedup_threshold,
        sufficiency_after_quality_reject=args.sufficiency_after_quality_reject,
        unanswerable_share=args.unanswerable_share,
        retrieval_k=args.retrieval_k,
        role_from_queries=args.role_from_queries,
        keep_queries=args.keep_queries,
        question_language=asked_language(args, settings),
        weight_by=weight_key(args.weight_by) if args.weight_by else None,
        weights=read_weights(args.weights) if args.weights else None,
        query_styles=read_query_styles(args.query_styles) if args.query_styles else None,
        personas=read_personas(args.personas) if args.personas and str(args.personas) != AUTO else None,
        personas_auto=str(args.personas) == AUTO,
        **(query_file(args.queries) if args.queries else {}),
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


def read_query_styles(text: str) -> dict[str, float]:
    """`--query-styles` as a distribution; a malformed one is one `error:` line."""
    try:
        return parse_query_styles(text)
    except ValueError as wrong:
        raise InvalidOptions(str(wrong)) from None
