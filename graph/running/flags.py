"""The flags of `python -m graph.run`, and the run request they make."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from graph.config.cli import add_model_server_options, models_from_args
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION
from graph.planning.options import (
    InvalidOptions,
    RunOptions,
    RunRequest,
    field_default,
    flagged,
    refuse_new_run_options,
)
from nodes.run_context import DEFAULT_MODELS
from state.usage import ROLES


def add_flags(cls: type, groups: dict[str, argparse._ArgumentGroup]) -> None:
    """One `add_argument` per flagged field of `cls` (`RunOptions`, `RunRequest`), in the group its flag names:
    the flag's name, type, help and choices from the field's `Flag`. A flag not given reads None, so the field's
    default (or the setting it falls back to) applies."""
    for item, flag in flagged(cls):
        shown = flag.help % {"default": field_default(item)}
        name = flag.name_for(item.name)
        if flag.switch:
            groups[flag.group].add_argument(
                name, dest=flag.dest_for(item.name), action="store_true", default=None, help=shown
            )
            continue
        typed: dict[str, Any] = {"type": flag.type} if flag.type is not None else {}
        groups[flag.group].add_argument(
            name,
            dest=flag.dest_for(item.name),
            action="append" if flag.repeat else "store",
            choices=flag.choices,
            metavar=flag.metavar,
            help=shown,
            **typed,
        )


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


def flag_values(cls: type, args: argparse.Namespace, settings: Settings | None = None) -> dict[str, Any]:
    """The fields of `cls` the flags give, read as their `Flag` says; with `settings`, a flag not given takes the
    setting it falls back to (a table is merged under the flag's)."""
    values: dict[str, Any] = {}
    for item, flag in flagged(cls):
        given = getattr(args, flag.dest_for(item.name), None)
        if given is not None and flag.read is not None:
            given = flag.read(given)
        if flag.spread and given is not None:
            values.update(given)
            continue
        if settings is not None and flag.fallback is not None:
            kept = getattr(settings, flag.fallback)
            if isinstance(kept, dict):
                given = {**kept, **(given or {})}
            elif given is None and kept is not None:
                given = flag.read(kept) if flag.read is not None else kept
        if given is not None:
            values[item.name] = given
    return values


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
