"""Evaluate RAG setups on a generated dataset (SPEC section 7).

    python -m graph.evaluate RUN_ID --setup k5=k=5 --setup k3=k=3
    python -m graph.evaluate runs/RUN_ID/dataset.jsonl \
        --setup base=collection=docs,embedding=minilm,k=5,model=google_genai:gemini-2.5-flash-lite
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag

A setup is `NAME=key=value,...` with `collection`, `embedding`, `k` (default 5) and `model` (the
answering model, default gemini-2.5-flash-lite), or `url` of an external RAG service that answers
POST {"question"} with {"answer", "contexts": [{"id"?, "text"}]}. Collection and embedding default
to the run's. Per sample: context precision and recall (by chunk id, normalised text as fallback),
answer correctness and faithfulness (validator model), and on the unanswerable variant whether the
setup abstains (a phrase check first, the judge for the rest). Rows go to eval.jsonl beside the
dataset, cached per (setup, sample): adding a setup pays only for the new one. Means by question
type, binary, temporal and difficulty go to eval-summary.json and eval-report.html.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from graph.config.cli import add_database_options, command_parser, run_async, settings_from_args
from graph.config.errors import UserError, exit_on_user_error, writing
from graph.config.logs import configure_logging
from graph.evaluation.metrics import grouped_means
from graph.evaluation.report import render_eval_report, summary_table
from graph.evaluation.scoring import GROUPS, METRICS, evaluate_setup
from graph.evaluation.setups import check_answering_model, parse_setup
from graph.runs.dataset import read_dataset
from graph.runs.files import write_atomically, write_jsonl


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
    add_database_options(parser)
    return parser


def run_settings(run_json: Path) -> dict[str, Any]:
    """The stored settings of the dataset's run (collection, embedding), or none when run.json is absent."""
    if not run_json.is_file():
        return {}
    try:
        return dict(json.loads(run_json.read_text(encoding="utf-8")).get("settings") or {})
    except (ValueError, AttributeError):
        raise UserError(
            f"{run_json} is not a run.json written by triad; restore it, or name collection= and embedding= in --setup"
        ) from None


def cached_rows(eval_path: Path) -> list[dict[str, Any]]:
    """Judgements of earlier evaluations of this dataset (eval.jsonl), reused when their setup is the same."""
    if not eval_path.is_file():
        return []
    rows = []
    for number, line in enumerate(eval_path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict) or "signature" not in row or "sample_id" not in row:  # what it is looked up by
            raise UserError(
                f"line {number} of {eval_path} is not an earlier judgement; remove the file to evaluate afresh"
            )
        rows.append(row)
    return rows


#: The fix a failed write of the evaluation's files names.
MAKE_ROOM = "make room or fix the folder"


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    settings = settings_from_args(args)
    given = Path(args.dataset)
    dataset = given if given.suffix == ".jsonl" else settings.runs_dir / args.dataset / "dataset.jsonl"
    records = read_dataset(dataset)
    stored = run_settings(dataset.parent / "run.json")
    setups = [parse_setup(text, stored.get("collection"), stored.get("embedding")) for text in args.setup]
    for setup in setups:
        check_answering_model(setup, settings)
    judge_model = settings.model_for("validator")
    eval_path = dataset.parent / "eval.jsonl"
    rows = {(row["signature"], row["sample_id"]): row for row in cached_rows(eval_path)}
    summaries = {}
    for setup in setups:
        signature = setup.signature(judge_model, args.judge_unlabelled)
        missing = [r for r in records if (signature, r["id"]) not in rows]
        if missing:
            print(f"{setup.name}: evaluating {len(missing)} samples ({len(records) - len(missing)} cached)")
            for row in run_async(evaluate_setup(setup, missing, settings, args.judge_unlabelled)):
                rows[(signature, row["sample_id"])] = {**row, "signature": signature}
            # Kept as each setup ends: a later setup that fails does not lose this one's judgements.
            with writing(eval_path, MAKE_ROOM):
                write_jsonl(eval_path, rows.values())
        mine = [rows[(signature, r["id"])] for r in records]
        summaries[setup.name] = grouped_means(mine, METRICS, GROUPS)
    summary_path, report_path = dataset.parent / "eval-summary.json", dataset.parent / "eval-report.html"
    with writing(summary_path, MAKE_ROOM):
        write_atomically(summary_path, json.dumps(summaries, indent=2) + "\n")
    with writing(report_path, MAKE_ROOM):
        write_atomically(report_path, render_eval_report(summaries))
    print(summary_table(summaries))
    print(f"wrote {eval_path}, eval-summary.json and eval-report.html in {dataset.parent}")


if __name__ == "__main__":
    main()
