"""Export a run's dataset for other tools.

    python -m graph.export RUN_ID --format ragas                     # runs/RUN_ID/export/ragas.jsonl
    python -m graph.export RUN_ID --format ragas --split unanswerable
    python -m graph.export runs/RUN_ID/dataset.jsonl --format csv --output my.csv
    python -m graph.export RUN_ID --format hotpotqa | hf
    python -m graph.export RUN_ID --format ragas --version 1       # an earlier version of a refreshed dataset
    python -m graph.export RUN_ID --to langsmith --dataset docs-eval   # examples in LangSmith, updated in place
    python -m graph.export RUN_ID --to langfuse --dataset docs-eval    # items in Langfuse (the langfuse extra)

Formats: `ragas` (JSONL with user_input, reference, reference_contexts, reference_context_ids),
`hf` (a folder `datasets.load_from_disk` reads; needs the `datasets` package), `csv`, `hotpotqa`
(question, answer, supporting facts by chunk id, context list). `--split unanswerable` exports, where
the expected behaviour is to abstain, each answerable record's simulated variant (`variant`
"simulated": the question with only non-relevant contexts) and the generated unanswerable questions
(`variant` "generated": the system retrieves for itself; `checked_context_ids` are the chunks the
collection's retriever returned when the question was checked). `--reviewed` keeps only the samples
every reviewer accepted on all its criteria (`python -m graph.review`), with the relevance labels
they corrected. A line of the dataset that is not a valid record is named with its number and skipped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import add_database_options, add_state_options, command_parser, run_async, settings_from_args
from graph.config.errors import UserError, exit_on_user_error
from graph.config.settings import platform_access
from graph.exporting.formats import EXTENSIONS, export
from graph.exporting.platforms import push_langfuse, push_langsmith
from graph.folder.versions import version_dataset
from graph.reviewing.reviewed import reviewed_records
from graph.reviewing.samples import current_reviews, load_samples
from graph.reviewing.session import run_labels
from graph.running.dataset import read_dataset

#: --to: the platform's name and how a dataset is pushed there.
PLATFORMS = {"langsmith": ("LangSmith", push_langsmith), "langfuse": ("Langfuse", push_langfuse)}


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.export", __doc__)
    parser.add_argument("run", help="a run id (its folder under --runs-dir) or a path to a dataset.jsonl")
    parser.add_argument("--format", choices=sorted(EXTENSIONS), dest="fmt", help="a file format")
    parser.add_argument(
        "--to",
        choices=sorted(PLATFORMS),
        help="push the dataset to a platform instead (its usual environment variables hold the key)",
    )
    parser.add_argument("--dataset", metavar="NAME", help="with --to: the platform's dataset to create or update")
    parser.add_argument("--split", choices=["answerable", "unanswerable"], default="answerable")
    parser.add_argument(
        "--output", type=Path, help="file (or folder for hf); default: <run folder>/export/<format>[-unanswerable]"
    )
    parser.add_argument(
        "--version", type=int, help="a dataset version of the run (graph.refresh writes new ones; default: the latest)"
    )
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs; TRIAD_RUNS_DIR)")
    parser.add_argument(
        "--reviewed",
        action="store_true",
        help="only samples reviewers accepted on all their criteria, with their relevance corrections",
    )
    add_database_options(parser)
    add_state_options(parser)
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    settings = settings_from_args(args)
    if (args.fmt is None) == (args.to is None):
        raise UserError("name one of --format (a file) or --to (a platform, with --dataset NAME)")
    if args.to and not args.dataset:
        raise UserError(f"--to {args.to} needs --dataset NAME: the dataset to create or update there")
    given = Path(args.run)
    if given.suffix == ".jsonl":
        if args.version is not None:
            raise UserError("--version picks a version of a run: give the run id, not a dataset file")
        dataset, folder = given, given.parent
    else:
        folder = settings.runs_dir / args.run
        dataset = version_dataset(folder, args.version)
    unanswerable = args.split == "unanswerable"
    records = read_dataset(dataset)
    if args.reviewed:
        # Labels saved before graph.refresh rewrote a record are of its earlier version: they do not count.
        reviews = current_reviews(load_samples(folder), run_async(run_labels(settings, folder.name)))
        records = reviewed_records(records, reviews)
        if not records:
            raise UserError(
                f"no sample of run {folder.name} was accepted by its reviewers on all its criteria; "
                f"review it with `python -m graph.review {folder.name}`"
            )
    if args.to is not None:
        name, push = PLATFORMS[args.to]
        created, updated = push(records, args.dataset, platform_access())
        print(f"{name} dataset {args.dataset!r}: {created} examples created, {updated} updated")
        return
    version = f"-v{args.version}" if args.version is not None else ""
    name = f"{args.fmt}{version}{'-reviewed' if args.reviewed else ''}{'-unanswerable' if unanswerable else ''}"
    output = args.output or folder / "export" / f"{name}{EXTENSIONS[args.fmt]}"
    written = export(records, args.fmt, unanswerable, output)
    print(f"wrote {written} {'unanswerable ' if unanswerable else ''}items to {output}")


if __name__ == "__main__":
    main()
