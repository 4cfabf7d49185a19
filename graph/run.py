"""Generate a validated multi-hop QA dataset from a vector store.

    python -m graph.run --demo --count 6 --llm recorded:graph/demo/recorded_calls.jsonl --seed 7
    python -m graph.run --collection my_docs --count 60 --types comparison,composition --hops 3
    python -m graph.run --collection my_docs --count 50 --queries q.txt --unanswerable-share 0.2
    python -m graph.run --collection my_docs --count 60 --types factual,procedural,composition --weights weights.txt

Writes runs/<run_id>/dataset.jsonl (accepted records), rejected.jsonl (every other sample with its
history) and run.json (configuration without secrets, funnel, tokens, cost), then prints the funnel.
"""

from __future__ import annotations

import argparse

from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    add_state_options,
    command_parser,
    run_async,
    settings_from_args,
)
from graph.config.errors import UserError, exit_on_user_error, first_line
from graph.config.logs import configure_logging
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING
from graph.llm.from_settings import check_models
from graph.running.estimate import estimate_run
from graph.running.flags import (
    add_log_options,
    add_model_options,
    add_run_options,
    run_request,
)
from graph.running.job import run_job
from graph.running.outages import DATABASE_ERRORS


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.run", __doc__)
    add_run_options(
        {
            "run": parser.add_argument_group("run"),
            "queries": parser.add_argument_group("queries and unanswerable questions"),
            "weights": parser.add_argument_group("document weights"),
        }
    )
    add_model_options(parser.add_argument_group("models"))
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    add_state_options(parser)
    add_log_options(parser)
    return parser


def run_settings(args: argparse.Namespace) -> Settings:
    """Settings from flags, environment and triad.toml; `--demo` names the demo collection and its embedding."""
    demo = {"collection": args.collection or DEMO_COLLECTION, "embedding": args.embedding or DEMO_EMBEDDING}
    return settings_from_args(args, **(demo if args.demo else {}))


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    configure_logging(json_lines=args.log_json, level=args.log_level or ("info" if args.log_json else "warning"))
    settings = run_settings(args)
    request = run_request(args, settings)
    if args.estimate:
        if not settings.collection:
            raise UserError("name the collection to estimate a run on with --collection NAME, or pass --demo")
        for line in run_async(estimate_run(request, settings, args.like)):
            print(line)
        return
    if args.like:
        raise UserError("--like names the run an --estimate scales; add --estimate")
    if not args.resume:
        if not settings.collection:
            raise UserError("name the collection with --collection NAME (or TRIAD_COLLECTION), or pass --demo")
        # Every role resolves before any work: a missing key or an unknown provider fails here, at once.
        check_models(settings, recording_path=args.record_llm)
    try:
        run_async(run_job(request, settings))
    except DATABASE_ERRORS as error:
        run = args.resume or args.run_id or "RUN_ID (printed when the run started)"
        raise UserError(
            f"lost the database ({first_line(error)}); finished samples are kept: "
            f"start it, then continue with --resume {run}"
        ) from None


if __name__ == "__main__":
    main()
