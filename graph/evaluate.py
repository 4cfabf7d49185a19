"""Evaluate RAG setups on a generated dataset (SPEC section 7).

    python -m graph.evaluate RUN_ID --setup k5=k=5 --setup k3=k=3
    python -m graph.evaluate runs/RUN_ID/dataset.jsonl \
        --setup base=collection=docs,embedding=minilm,k=5,model=google_genai:gemini-2.5-flash-lite
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag
    python -m graph.evaluate RUN_ID --setup mine=chain=import:my_app.rag:build_chain   # your own Python pipeline
    python -m graph.evaluate RUN_ID --retrieval-only --setup small=collection=docs_700,k=6   # no model, no key
    python -m graph.evaluate chunking-eval.csv --documents corpus/ --setup mine=collection=docs,k=5   # made elsewhere
    python -m graph.evaluate RUN_ID --retrieval-only --setup base=collection=docs_700 --sweep k=3,5,8   # a sweep
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag \
        --fail-under recall=0.8,composition.correct=0.6 --baseline runs/main --max-drop 0.03 \
        --junit eval-junit.xml                                    # a CI gate: exit 1 when a metric falls short

A setup is `NAME=key=value,...` with `collection`, `embedding`, `k` (default 5) and `model` (the
answering model, default gemini-2.5-flash-lite), or `url` of an external RAG service that answers
POST {"question"} with {"answer", "contexts": [{"id"?, "text"}]}, or your own object in this process:
`retriever=`, `chain=` or `graph=import:package.module:object` (the object, or a factory of it called with
no arguments), with `input_key`, `answer_key`, `documents_key`, `history_key` and `id_key` to read it,
and `version` to mark a changed pipeline (docs/evaluation.md). The store's database, collection,
schema, columns, distance and embedding are the run's (from its run.json) unless a flag names them;
a setup's own keys win over both. Per sample: retrieval by evidence on any collection and by chunk id on the
run's own, answer correctness and faithfulness (validator model), abstention on the simulated unanswerable
variant and on generated unanswerable questions. Rows go to eval.jsonl beside the dataset, cached per (what a
setup is, sample); `--sweep KEY=V1,V2` expands the one --setup over those values. Means with 95% intervals and
their records, by group, and every pair of setups compared per question go to the terminal, eval-summary.json
and eval-report.html (docs/evaluation.md).

`--fail-under` and `--baseline` make it a regression gate: every setup is held to each threshold and, against
the baseline's same-named setup paired per question, fails a `--gate-metrics` metric only when the whole 95%
interval of its drop lies beyond `--max-drop`; a shortfall is one line each and exit code 1 (bad input stays
2). `--junit` writes the checks as a JUnit report. `graph.evaluation.evaluate` does the same from Python.
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
    command_parser,
    settings_from_args,
)
from graph.config.errors import exit_on_user_error
from graph.config.logs import configure_logging
from graph.evaluation.api import Evaluation, evaluate
from graph.evaluation.confidence.comparisons import DEFAULT_DETECT, comparison_lines
from graph.evaluation.confidence.gate import GATE_METRICS, parse_gate_metrics, write_junit
from graph.evaluation.external import INPUT_FORMATS
from graph.evaluation.report import format_summaries
from graph.evaluation.scoring.diagnosis import diagnosis_lines
from graph.folder.run_settings import flags_given


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
    parser.add_argument(
        "--sweep",
        action="append",
        metavar="KEY=V1,V2,...",
        help="expand the one --setup over these values of one of its keys, e.g. k=3,5,8 (repeatable: a grid); "
        "each setup is named after its values",
    )
    parser.add_argument(
        "--detect",
        type=float,
        default=DEFAULT_DETECT,
        help="the difference the questions-needed estimate is made for (default 0.05)",
    )
    parser.add_argument("--seed", type=int, help="seeds anything random of the evaluation, for a repeatable one")
    gate = parser.add_argument_group("regression gate (CI)")
    gate.add_argument(
        "--fail-under",
        metavar="METRIC=VALUE,...",
        help="exit 1 when a setup's metric is below its value; SLICE.METRIC for one slice, e.g. composition.recall",
    )
    gate.add_argument(
        "--baseline",
        type=Path,
        metavar="RUN_FOLDER",
        help="an earlier evaluation to compare with, per question: its run folder or eval.jsonl (an eval-summary.json "
        "is compared by means)",
    )
    gate.add_argument(
        "--max-drop",
        type=float,
        default=0.0,
        help="how far a gate metric may fall below the baseline beyond noise (default 0): it fails when the whole "
        "paired 95%% interval of the drop lies past it",
    )
    gate.add_argument(
        "--gate-metrics",
        type=parse_gate_metrics,
        metavar="METRIC,...",
        help=f"the overall metrics the baseline holds (default {','.join(GATE_METRICS)})",
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
    result = evaluate(
        args.dataset,
        args.setup,
        settings=settings_from_args(args),
        store_given=flags_given(args),
        input_format=args.input_format,
        documents=args.documents,
        retrieval_only=args.retrieval_only,
        judge_unlabelled=args.judge_unlabelled,
        sweeps=args.sweep or (),
        detect=args.detect,
        seed=args.seed,
        fail_under=args.fail_under,
        baseline=args.baseline,
        max_drop=args.max_drop,
        gate_metrics=args.gate_metrics or GATE_METRICS,
        say=print,
        warn=lambda line: print(line, file=sys.stderr),
    )
    show(result)
    if args.fail_under or args.baseline is not None:
        gate(result, args.junit)


def show(result: Evaluation) -> None:
    """The figures as the terminal shows them: means with intervals, a diagnosis, paired differences, files."""
    print(format_summaries(result.summaries))
    print("what the figures suggest:")
    for line in diagnosis_lines(result.summaries):
        print(f"  {line}")
    for line in comparison_lines(result.compared):
        print(line)
    files = result.files
    print(f"wrote {files.rows.name}, {files.summary.name} and {files.report.name} in {files.folder}")
    if result.lines_scored is not None:
        print(f"{result.lines_scored} lines scored, {files.skipped_lines} skipped")


def gate(result: Evaluation, junit: Path | None) -> None:
    """The gate's checks: a line per shortfall, exit 1 when there is one."""
    checks = result.checks
    if junit is not None:
        write_junit(junit, checks)
        print(f"wrote {junit}")
    failed = [check for check in checks if not check.passed]
    for check in checks:
        if check.skipped or check.within_noise:
            print(f"note: {check.line()}", file=sys.stderr)
    for check in failed:
        print(check.line(), file=sys.stderr)
    print(f"gate: {len(checks) - len(failed)} of {len(checks)} checks pass")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
