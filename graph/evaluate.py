"""Evaluate RAG setups on a generated dataset (SPEC section 7).

    python -m graph.evaluate RUN_ID --setup k5=k=5 --setup k3=k=3
    python -m graph.evaluate runs/RUN_ID/dataset.jsonl \
        --setup base=collection=docs,embedding=minilm,k=5,model=google_genai:gemini-2.5-flash-lite
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag
    python -m graph.evaluate RUN_ID --setup mine=chain=import:my_app.rag:build_chain   # your own Python pipeline
    python -m graph.evaluate RUN_ID --retrieval-only --setup small=collection=docs_700,k=6   # no model, no key
    python -m graph.evaluate chunking-eval.csv --documents corpus/ --setup mine=collection=docs,k=5   # made elsewhere
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag \
        --fail-under recall=0.8,composition.correct=0.6 --baseline main/eval-summary.json --max-drop 0.03 \
        --junit eval-junit.xml                                    # a CI gate: exit 1 when a metric falls short

A setup is `NAME=key=value,...` with `collection`, `embedding`, `k` (default 5) and `model` (the
answering model, default gemini-2.5-flash-lite), or `url` of an external RAG service that answers
POST {"question"} with {"answer", "contexts": [{"id"?, "text"}]}, or your own object in this process:
`retriever=`, `chain=` or `graph=import:package.module:object` (the object, or a factory of it called with
no arguments), with `input_key`, `answer_key`, `documents_key`, `history_key` and `id_key` to read it,
and `version` to mark a changed pipeline (docs/evaluation.md). The store's database, collection,
schema, columns, distance and embedding are the run's (from its run.json) unless a flag names them;
a setup's own keys win over both. Per sample: retrieval by evidence (the characters of the facts each answer
rests on that the retrieved chunks cover, in one text per document, on any collection; docs/evaluation.md) and
by chunk id (normalised text as fallback) where the setup reads the run's own collection,
answer correctness and faithfulness (validator model), and on the simulated unanswerable variant
whether the setup abstains given only non-relevant contexts (`abstained`; a phrase check first, the
judge for the rest). On a generated unanswerable question (`answerable: false`) the setup retrieves
and answers for itself, and `abstained_generated` says whether it declined. Rows go to eval.jsonl
beside the dataset, cached per (setup, sample): adding a setup pays only for the new one. Means by
answerable, question type, binary, temporal and difficulty go to eval-summary.json and eval-report.html.

`--fail-under` and `--baseline` make it a regression gate: every setup is held to each threshold and,
against the baseline's same-named setup, may lose at most `--max-drop` on any metric; a shortfall is
one line each and exit code 1 (bad input stays 2). `--junit` writes the checks as a JUnit report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

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
from graph.config.settings import Settings
from graph.evaluation.diagnosis import diagnosis_lines
from graph.evaluation.external import INPUT_FORMATS, is_saved_dataset, read_documents, read_external
from graph.evaluation.gate import (
    Threshold,
    baseline_checks,
    baseline_notes,
    junit_xml,
    parse_thresholds,
    read_baseline,
    threshold_checks,
)
from graph.evaluation.report import format_summaries
from graph.evaluation.retrieval import DocumentsAtHand
from graph.evaluation.session import (
    EvaluationFiles,
    as_the_run_read_it,
    evaluate_setups,
    load_pipelines,
    run_json_settings,
)
from graph.evaluation.setups import check_answering_model, parse_setup
from graph.living.staleness import store_changed
from graph.running.dataset import read_dataset
from graph.running.files import write_atomically
from graph.running.languages import evaluation_note
from state.record import DatasetRecord


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.evaluate", __doc__)
    parser.add_argument(
        "dataset",
        help="a run id (its folder under --runs-dir), or a path to a dataset file: triad's, a RAGAS testset "
        "(JSONL or CSV) or a span CSV (question, references, corpus_id)",
    )
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="the layout of a dataset file, where its content does not say (default: read from its first line)",
    )
    parser.add_argument(
        "--documents",
        type=Path,
        metavar="FOLDER",
        help="the documents a dataset file's spans count in (a span CSV's corpus_id is a file's stem): "
        "retrieved chunks are placed in them by their text",
    )
    parser.add_argument("--setup", action="append", required=True, metavar="NAME=SPEC", help="a RAG setup (repeatable)")
    parser.add_argument(
        "--judge-unlabelled", action="store_true", help="CARE-label retrieved chunks missing from the context list"
    )
    parser.add_argument(
        "--retrieval-only",
        action="store_true",
        help="score what each setup retrieves and nothing else: no answering model, no judge, no key needed",
    )
    parser.add_argument("--llm", help="one model spec for the judge and the CARE labeller")
    parser.add_argument("--validator-model", help="the judge model (default: the paper's validator)")
    parser.add_argument("--extractor-model", help="the CARE labeller of --judge-unlabelled")
    add_model_server_options(parser)
    parser.add_argument("--runs-dir", type=Path)
    gate = parser.add_argument_group("regression gate (CI)")
    gate.add_argument(
        "--fail-under",
        metavar="METRIC=VALUE,...",
        help="exit 1 when a setup's metric is below its value; SLICE.METRIC for one slice, e.g. composition.recall",
    )
    gate.add_argument(
        "--baseline", type=Path, metavar="EVAL_SUMMARY", help="an earlier eval-summary.json to compare with"
    )
    gate.add_argument(
        "--max-drop", type=float, default=0.0, help="how far a metric may fall below the baseline (default 0)"
    )
    gate.add_argument("--junit", type=Path, metavar="FILE", help="write the gate's checks as a JUnit XML report")
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
    thresholds = parse_thresholds(args.fail_under) if args.fail_under else []
    baseline = read_baseline(args.baseline) if args.baseline else None
    if not 0 <= args.max_drop <= 1:
        raise UserError(f"--max-drop takes a value from 0 to 1, not {args.max_drop}")
    if args.retrieval_only and args.judge_unlabelled:
        raise UserError("--judge-unlabelled asks a labeller model, which --retrieval-only does not: drop one of them")
    if (given.is_file() and (given.name != "dataset.jsonl" or args.input_format is not None)) or is_saved_dataset(
        given
    ):
        evaluate_file(given, args, settings, thresholds, baseline)
        return
    if not given.suffix and not dataset.is_file():
        raise UserError(
            f"{args.dataset} is neither a file nor a run under {settings.runs_dir}; give a dataset file's path or a "
            "run id (--runs-dir names the runs' folder)"
        )
    records = read_dataset(dataset)
    settings = as_the_run_read_it(settings, run_json_settings(dataset.parent / "run.json"), args)
    if settings.collection and run_async(store_changed(settings, dataset.parent)):
        where = f" --runs-dir {dataset.parent.parent}" if given.suffix == ".jsonl" else ""
        print(
            "note: the store changed since this dataset was last checked; see which records went stale with "
            f"python -m graph.check {dataset.parent.name}{where}",
            file=sys.stderr,
        )
    note = evaluation_note(records, settings.embedding)
    if note:
        print(note, file=sys.stderr)
    summaries = score(records, args, settings, EvaluationFiles(dataset.parent), args.retrieval_only)
    if thresholds or baseline is not None:
        gate(summaries, thresholds, baseline, args)


def evaluate_file(
    path: Path,
    args: argparse.Namespace,
    settings: Settings,
    thresholds: list[Threshold],
    baseline: dict[str, Any] | None,
) -> None:
    """A dataset file evaluated on its own: its lines read in their layout, bad ones named and skipped, the
    outputs beside it under names that start with its stem."""
    documents = read_documents(args.documents)
    external = read_external(path, documents, args.input_format)
    for line in external.skipped:
        print(f"skipped {path.name} {line}", file=sys.stderr)
    retrieval_only = args.retrieval_only or not external.answers
    if not external.answers and not args.retrieval_only:
        print(
            f"note: {path.name} holds no answers ({external.input_format}): only retrieval is scored", file=sys.stderr
        )
    files = EvaluationFiles(path.parent, path.name, skipped_lines=len(external.skipped))
    # A triad dataset holds a store's chunk ids; another file's are made up. Its documents are those at hand, or
    # the setup's collection's.
    chunk_ids = external.input_format == "triad"
    at_hand = DocumentsAtHand(documents=documents or None, from_collection=not documents, chunk_ids=chunk_ids)
    summaries = score(external.records, args, settings, files, retrieval_only, at_hand)
    print(f"{len(external.records)} lines scored, {len(external.skipped)} skipped")
    if thresholds or baseline is not None:
        gate(summaries, thresholds, baseline, args)


def score(
    records: list[DatasetRecord],
    args: argparse.Namespace,
    settings: Settings,
    files: EvaluationFiles,
    retrieval_only: bool,
    at_hand: DocumentsAtHand | None = None,
) -> dict[str, Any]:
    """Every setup scored on the records, the summary printed, the files written; the summaries."""
    setups = [parse_setup(text, settings.collection, settings.embedding) for text in args.setup]
    if not retrieval_only:
        for setup in setups:
            check_answering_model(setup, settings)
    pipelines = load_pipelines(setups)
    summaries = evaluate_setups(
        setups, records, settings, files.folder, args.judge_unlabelled, print, pipelines, retrieval_only, files,
        at_hand,
    )  # fmt: skip
    print(format_summaries(summaries))
    print("what the figures suggest:")
    for line in diagnosis_lines(summaries):
        print(f"  {line}")
    print(f"wrote {files.rows.name}, {files.summary.name} and {files.report.name} in {files.folder}")
    return summaries


def gate(
    summaries: dict[str, Any], thresholds: list[Threshold], baseline: dict[str, Any] | None, args: argparse.Namespace
) -> None:
    """Hold the summaries to the thresholds and the baseline: a line per shortfall, exit 1 when there is one."""
    checks = threshold_checks(summaries, thresholds)
    if baseline is not None:
        checks += baseline_checks(summaries, baseline, args.max_drop)
        for note in baseline_notes(summaries, baseline):
            print(note, file=sys.stderr)
        for name in summaries:
            if name not in baseline:
                print(f"note: the baseline has no setup {name!r}; it is held to the thresholds only", file=sys.stderr)
    if args.junit is not None:
        with writing(args.junit, "fix --junit"):
            write_atomically(args.junit, junit_xml(checks))
        print(f"wrote {args.junit}")
    failed = [check for check in checks if not check.passed]
    for check in checks:
        if check.skipped:
            print(f"note: {check.line()}", file=sys.stderr)
    for check in failed:
        print(check.line(), file=sys.stderr)
    print(f"gate: {len(checks) - len(failed)} of {len(checks)} checks pass")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
