"""Check a run's dataset against its store as it is now, or against another collection of the same documents.

    python -m graph.check RUN_ID                     # a table, runs/RUN_ID/check.json, a drift section in report.html
    python -m graph.check RUN_ID --fail-on-stale     # exit 1 when any record is stale (for CI)
    python -m graph.check RUN_ID --collection OTHER  # the same documents cut or embedded another way

A record that carries its evidence is followed by it: each quote to the chunk that holds it now (by its place
in its document, else by its text). It is fresh, re-pointed (every fact found, text unchanged), flagged
(re-pointed, and facts of two supporting chunks now share one) or stale (a quote gone or changed, or its new
chunks no longer answer the question: the sufficiency judge decides that, one call, where a new chunk does not
hold the old one's whole text). A record without evidence is checked by chunk ids. Each generated unanswerable
question's retrieval is run again. Documents added since the run are listed: no question covers them. The check
changes nothing; `graph.refresh` writes the version it describes. The store is read as the run read it (its
run.json); a flag given now wins.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    add_model_server_options,
    command_parser,
    run_async,
    settings_from_args,
)
from graph.config.errors import UserError, exit_on_user_error, writing
from graph.config.logs import configure_logging
from graph.folder.check_file import add_drift_section
from graph.folder.files import write_atomically
from graph.folder.run_settings import as_the_run_read_it, flags_given, run_json_settings
from graph.living.drift import drift_lines
from graph.living.staleness import check_run, run_sources
from graph.running.dataset import read_dataset


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.check", __doc__)
    parser.add_argument("run_id", help="the run to check (its folder under --runs-dir)")
    parser.add_argument("--fail-on-stale", action="store_true", help="exit 1 when any record is stale")
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs; TRIAD_RUNS_DIR)")
    models = parser.add_argument_group("the sufficiency judge (default: the run's validator model)")
    models.add_argument("--llm", help="its model spec")
    models.add_argument("--validator-model", help="its model spec (wins over --llm)")
    add_model_server_options(models)
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    settings = settings_from_args(args)
    folder = settings.runs_dir / args.run_id
    if not folder.is_dir():
        raise UserError(f"no run {args.run_id!r} in {settings.runs_dir}; check the run id and --runs-dir")
    records = read_dataset(folder / "dataset.jsonl")
    stored = run_json_settings(folder / "run.json")
    settings = as_the_run_read_it(settings, stored, flags_given(args))
    if not settings.collection:
        raise UserError(f"{folder / 'run.json'} names no collection; give --collection")
    run_json = folder / "run.json"
    known_sources = run_sources(run_json)
    validator = args.validator_model or args.llm or stored.get("validator_model")
    report = run_async(check_run(settings, records, known_sources, validator))
    report["run_id"] = args.run_id
    path = folder / "check.json"
    with writing(path, "make room or fix the folder"):
        write_atomically(path, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    if (folder / "report.html").is_file():
        with writing(folder / "report.html", "make room or fix the folder"):
            add_drift_section(folder / "report.html", report)
    for line in drift_lines(report):
        print(line)
    print(f"wrote {path}")
    if args.fail_on_stale and report["summary"]["stale"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
