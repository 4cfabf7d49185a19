"""The flags of `python -m graph.run`, and the run request they make."""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import add_model_server_options, models_from_args
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION
from graph.planning.options import InvalidOptions, RunOptions, refuse_new_run_options
from graph.planning.request import RunRequest
from graph.planning.setting import add_flags, flag_values, flagged
from nodes.run_context import DEFAULT_MODELS
from state.usage import ROLES


def add_run_options(groups: dict[str, argparse._ArgumentGroup]) -> None:
    """The run's flags: one per setting of `RunOptions` and `RunRequest`, and the command's own."""
    run = groups["run"]
    run.add_argument(
        "--demo", action="store_true", help=f"use the bundled demo collection {DEMO_COLLECTION!r} (loaded on first use)"
    )
    add_flags(RunOptions, groups)
    add_flags(RunRequest, groups)
    run.add_argument("--runs-dir", type=Path, help="where run folders go (default ./runs; TRIAD_RUNS_DIR)")
    run.add_argument(
        "--estimate",
        action="store_true",
        help="print the run's expected calls, tokens, USD and time per role, and exit without a model call",
    )
    run.add_argument("--like", metavar="RUN_ID", help="with --estimate: a finished run whose counts to scale")


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


def run_request(args: argparse.Namespace, settings: Settings) -> RunRequest:
    """The run the flags ask for; a new run's settings that flags do not give from triad.toml (`[nodes]`, the
    question language)."""
    given = {item.name: getattr(args, flag.dest_for(item.name), None) for item, flag in flagged(RunOptions)}
    refuse_new_run_options(args.resume, given)
    if args.role and args.personas:
        raise InvalidOptions("give --role or --personas, not both: each persona's description is its role")
    options = RunOptions(**flag_values(RunOptions, args, None if args.resume else settings))
    return RunRequest(
        options=options,
        **flag_values(RunRequest, args),
        record_llm=args.record_llm,
        log_json=args.log_json,
        models_given=models_from_args(args),
        queries_given=args.queries,
    )
