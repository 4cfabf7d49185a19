"""Write the next version of a run's dataset, true to its store as it is now.

    python -m graph.refresh RUN_ID                       # runs/RUN_ID/dataset.jsonl is then the new version
    python -m graph.refresh RUN_ID --concurrency 8 --max-cost-usd 2

Records whose chunks are unchanged are kept as they are (their reviewers' labels with them); moved
chunks are re-pointed; a record whose supporting chunks changed is judged again on the new texts and
revised within --max-revisions, or dropped; contexts are extracted again where their texts changed;
records whose supporting chunks are gone are dropped; generated unanswerable questions that the
store may now answer are judged again. Then new samples fill each cell back to its quota, seeded
first from documents added since the run. Each judged record runs in a checkpointed sample thread:
an interrupted refresh continues where it stopped when run again.

Writes dataset.jsonl (the new version), versions/<n>/dataset.jsonl and versions/<n>/changes.jsonl
(every record kept, updated, replaced, dropped or added, with the reason and the chunk ids), a new
manifest in run.json, check.json and report.html. `graph.export RUN_ID --version N` exports an earlier version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    add_model_server_options,
    add_state_options,
    command_parser,
    models_from_args,
    run_async,
    settings_from_args,
)
from graph.config.errors import UserError, exit_on_user_error, first_line
from graph.config.logs import configure_logging
from graph.folder.run_settings import STORE_SETTINGS, as_the_run_read_it, flags_given, run_json_settings
from graph.living.drift import drift_lines
from graph.living.new_version import RefreshRequest, Unfinished, refresh_run
from graph.running.lanes import CostLimitReached
from graph.running.outages import DATABASE_ERRORS


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.refresh", __doc__)
    parser.add_argument("run_id", help="the run to refresh (its folder under --runs-dir)")
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs; TRIAD_RUNS_DIR)")
    parser.add_argument("--concurrency", type=int, default=1, help="samples in flight at once (default 1)")
    parser.add_argument("--max-revisions", type=int, help="revisions of a record judged again (default: the run's)")
    models = parser.add_argument_group("models (default: the run's)")
    models.add_argument("--llm", help="one model spec for all roles")
    for role in ("generator", "validator", "extractor"):
        models.add_argument(f"--{role}-model", help=f"{role} spec")
    add_model_server_options(models)
    models.add_argument("--requests-per-minute", type=float, help="requests per minute to each model (its quota)")
    models.add_argument("--tokens-per-minute", type=float, help="prompt tokens per minute to each model (its quota)")
    models.add_argument("--max-concurrent-requests", type=int, help="provider requests in flight (default 16)")
    models.add_argument("--max-cost-usd", type=float, help="stop starting samples once this much is spent")
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    add_state_options(parser)
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    if args.concurrency < 1:
        raise UserError("--concurrency must be at least 1")
    settings = settings_from_args(args)
    folder = settings.runs_dir / args.run_id
    if not (folder / "dataset.jsonl").is_file():
        raise UserError(f"no run {args.run_id!r} in {settings.runs_dir}; check the run id and --runs-dir")
    settings = as_the_run_read_it(settings, run_json_settings(folder / "run.json"), flags_given(args))
    request = RefreshRequest(
        concurrency=args.concurrency,
        max_revisions=args.max_revisions,
        models=models_from_args(args),
        store={name: getattr(args, name) for name in STORE_SETTINGS if getattr(args, name, None) is not None},
    )
    try:
        entry = run_async(refresh_run(args.run_id, settings, request))
    except (CostLimitReached, Unfinished) as stopped:
        print(stopped, file=sys.stderr)
        raise SystemExit(1) from None
    except DATABASE_ERRORS as error:
        raise UserError(
            f"lost the database ({first_line(error)}); finished records are kept: start it, then run graph.refresh "
            f"{args.run_id} again"
        ) from None
    if entry.get("unchanged"):
        print(f"version {entry['version']} is true to the store: every record is fresh and every cell full")
        return
    counts = ", ".join(f"{n} {kind}" for kind, n in entry["changes"].items())
    print(f"version {entry['version']}: {counts}")
    for line in drift_lines(entry["check"]):
        print(line)
    print(f"wrote {folder / 'dataset.jsonl'} and {folder / entry['changes_file']}")


if __name__ == "__main__":
    main()
