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
from pathlib import Path

from graph.config.cli import (
    add_database_options,
    add_model_server_options,
    add_state_options,
    command_parser,
    models_from_args,
    run_async,
    settings_from_args,
)
from graph.config.errors import exit_on_user_error
from graph.config.logs import configure_logging
from graph.figures.funnel import cell_name
from graph.folder.files import check_run_id
from graph.running.replay import ReplayRequest, finished_samples, parse_edits, rejected_by, replay_samples
from state.finished import FinishedSample


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
    add_model_server_options(parser)
    parser.add_argument("--runs-dir", help="where run folders are (default ./runs)")
    parser.add_argument(
        "--queries", type=Path, metavar="FILE", help="a query-seeded run's query file, where it is now (if it moved)"
    )
    add_database_options(parser)
    add_state_options(parser)
    return parser


def _print_list(rows: list[FinishedSample]) -> None:
    pending = [row for row in rows if row["outcome"] != "accepted"]
    print(f"{'sample':>6}  {'cell':<22}{'outcome':<10}{'ended by':<16}last reason")
    for row in pending:
        check, reason = rejected_by(row)
        cell = cell_name(row["question_type"], row["binary"])
        print(f"{row['n']:>6}  {cell:<22}{row['outcome']:<10}{check:<16}{reason[:100]}")
    print(f"{len(pending)} of {len(rows)} samples were not accepted")


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    check_run_id(args.run_id)
    edits = parse_edits(args.edits)  # a bad --set fails before any connection is made
    settings = settings_from_args(args)
    if args.list:
        _print_list(run_async(finished_samples(settings, args.run_id)))
        return
    given = models_from_args(args)
    request = ReplayRequest(
        run_id=args.run_id,
        samples=None if args.all else [args.sample],
        from_node=args.from_node,
        edits=edits,
        nodes=args.node,
        models_given=given,
        queries_given=args.queries,
    )
    run_async(replay_samples(request, settings, print))


if __name__ == "__main__":
    main()
