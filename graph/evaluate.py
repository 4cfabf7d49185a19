"""Evaluate RAG setups on a generated dataset (SPEC section 7).

    python -m graph.evaluate RUN_ID --setup k5=k=5 --setup k3=k=3
    python -m graph.evaluate runs/RUN_ID/dataset.jsonl \
        --setup base=collection=docs,embedding=minilm,k=5,model=google_genai:gemini-2.5-flash-lite
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag

A setup is `NAME=key=value,...` with `collection`, `embedding`, `k` (default 5) and `model` (the
answering model, default gemini-2.5-flash-lite), or `url` of an external RAG service that answers
POST {"question"} with {"answer", "contexts": [{"id"?, "text"}]}. The store's database, collection,
schema, columns, distance and embedding are the run's (from its run.json) unless a flag names them;
a setup's own keys win over both. Per sample: context precision and recall (by chunk id, normalised text as fallback),
answer correctness and faithfulness (validator model), and on the simulated unanswerable variant
whether the setup abstains given only non-relevant contexts (`abstained`; a phrase check first, the
judge for the rest). On a generated unanswerable question (`answerable: false`) the setup retrieves
and answers for itself, and `abstained_generated` says whether it declined. Rows go to eval.jsonl
beside the dataset, cached per (setup, sample): adding a setup pays only for the new one. Means by
answerable, question type, binary, temporal and difficulty go to eval-summary.json and eval-report.html.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graph.check import store_changed
from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    command_parser,
    run_async,
    settings_from_args,
)
from graph.config.errors import exit_on_user_error
from graph.config.logs import configure_logging
from graph.evaluation.diagnosis import diagnosis_lines
from graph.evaluation.report import format_summaries
from graph.evaluation.session import as_the_run_read_it, evaluate_setups, run_settings
from graph.evaluation.setups import check_answering_model, parse_setup
from graph.runs.dataset import read_dataset
from graph.runs.languages import evaluation_note


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.evaluate", __doc__)
    parser.add_argument("dataset", help="a run id (its folder under --runs-dir) or a path to a dataset.jsonl")
    parser.add_argument("--setup", action="append", required=True, metavar="NAME=SPEC", help="a RAG setup (repeatable)")
    parser.add_argument(
        "--judge-unlabelled", action="store_true", help="CARE-label retrieved chunks missing from the context list"
    )
    parser.add_argument("--llm", help="one model spec for the judge and the CARE labeller")
    parser.add_argument("--validator-model", help="the judge model (default: the paper's validator)")
    parser.add_argument("--extractor-model", help="the CARE labeller of --judge-unlabelled")
    parser.add_argument("--llm-base-url", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--runs-dir", type=Path)
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    settings = settings_from_args(args)
    given = Path(args.dataset)
    dataset = given if given.suffix == ".jsonl" else settings.runs_dir / args.dataset / "dataset.jsonl"
    records = read_dataset(dataset)
    settings = as_the_run_read_it(settings, run_settings(dataset.parent / "run.json"), args)
    if settings.collection and run_async(store_changed(settings, dataset.parent)):
        where = f" --runs-dir {dataset.parent.parent}" if given.suffix == ".jsonl" else ""
        print(
            "note: the store changed since this dataset was last checked; see which records went stale with "
            f"python -m graph.check {dataset.parent.name}{where}",
            file=sys.stderr,
        )
    setups = [parse_setup(text, settings.collection, settings.embedding) for text in args.setup]
    note = evaluation_note(records, settings.embedding)
    if note:
        print(note, file=sys.stderr)
    for setup in setups:
        check_answering_model(setup, settings)
    summaries = evaluate_setups(setups, records, settings, dataset.parent, args.judge_unlabelled, print)
    print(format_summaries(summaries))
    print("what the figures suggest:")
    for line in diagnosis_lines(summaries):
        print(f"  {line}")
    print(f"wrote {dataset.parent / 'eval.jsonl'}, eval-summary.json and eval-report.html in {dataset.parent}")


if __name__ == "__main__":
    main()
