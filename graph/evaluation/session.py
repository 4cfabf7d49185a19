"""An evaluation of a dataset: its run's stored settings, earlier judgements reused, setups scored one after another.

Judgements are kept in eval.jsonl as each setup ends, so a later setup that fails loses none of them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from graph.config.cli import run_async
from graph.config.errors import UserError, writing
from graph.config.settings import Settings
from graph.evaluation.answering.pipelines import Pipeline, load_pipeline
from graph.evaluation.confidence.comparisons import DEFAULT_DETECT, Comparison, compare_setups, comparisons_json
from graph.evaluation.report import render_eval_report
from graph.evaluation.scoring.metrics import grouped_means
from graph.evaluation.scoring.records import evaluate_setup
from graph.evaluation.scoring.retrieval import DocumentsAtHand, QuestionVectors
from graph.evaluation.scoring.rows import (
    GROUPS,
    METRICS,
    SHARE_METRICS,
    EvalRow,
    Group,
    Judges,
    SetupSummary,
    group_value,
    record_cluster,
)
from graph.evaluation.setups import Setup
from graph.folder.files import write_atomically, write_jsonl
from nodes import versions as prompt_versions
from state.record import DatasetRecord

#: Groups a record has that rows judged by an earlier version may lack.
LATER_GROUPS: tuple[Group, ...] = ("answerable", "query_style", "persona")


def cached_rows(eval_path: Path) -> list[EvalRow]:
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
        rows.append(cast(EvalRow, row))
    return rows


@dataclass(frozen=True)
class EvaluationFiles:
    """Where an evaluation writes: `eval.jsonl`, `eval-summary.json` and `eval-report.html` in a run's folder, or,
    for a file evaluated on its own, the same names after its file name beside it (`spans.csv.eval.jsonl`, ...),
    so two files of one folder (`testset.jsonl`, `testset.csv`) never share them."""

    folder: Path
    stem: str = ""
    """The evaluated file's name, that the files' names start with; "" for a run's files."""
    skipped_lines: int | None = None
    """A file's lines that could not be read or located, said in every setup's summary; None for a run's."""

    def _named(self, name: str) -> Path:
        return self.folder / (f"{self.stem}.{name}" if self.stem else name)

    @property
    def rows(self) -> Path:
        return self._named("eval.jsonl")

    @property
    def summary(self) -> Path:
        return self._named("eval-summary.json")

    @property
    def report(self) -> Path:
        return self._named("eval-report.html")


#: The fix a failed write of the evaluation's files names.
MAKE_ROOM = "make room or fix the folder"


def load_pipelines(setups: list[Setup]) -> dict[str, Pipeline]:
    """The objects that retriever, chain and graph setups name, by setup name: every import and every factory
    runs before the first sample, so a wrong one is one line before anything is spent."""
    return {setup.name: load_pipeline(setup) for setup in setups if setup.imported is not None}


def setup_notes(
    setup: Setup, records: list[DatasetRecord], rows: list[EvalRow], pipeline: Pipeline | None = None
) -> list[str]:
    """What a user should know of how a setup was read: documents without ids, follow-ups it cannot follow."""
    notes = []
    if any(None in row.get("retrieved_ids", []) for row in rows):
        notes.append(
            f"note: {setup.name}'s documents carry no chunk ids; they are matched to the labelled contexts by text"
            + ("" if setup.kind == "url" else " (name the metadata key that holds the id with id_key=)")
        )
    unrecorded = sum(row.get("scored_by") == "chunk id" for row in rows)
    if unrecorded:
        notes.append(
            f"note: {setup.name}: {unrecorded} of {len(rows)} records carry no evidence (written before records did), "
            "so their retrieval is scored by chunk id alone"
        )
    unscored = sum(row.get("scored_by") == "none" for row in rows)
    if unscored:
        notes.append(
            f"note: {setup.name}: {unscored} of {len(rows)} records carry no evidence (written before records did) and "
            "this setup's chunk ids are not the run's, so their retrieval is not scored"
        )
    unplaced = sum(row.get("evidence_unplaced") or 0 for row in rows)
    if unplaced:
        notes.append(
            f"note: {setup.name}: {unplaced} retrieved contexts stand in no text the evidence is placed in (no "
            "document offsets, no shared chunk, no quote in them); they cover nothing and count as retrieved "
            "characters"
        )
    if pipeline is not None and any(r.turns for r in records) and not pipeline.takes_history():
        notes.append(
            f"note: {setup.name}'s {setup.kind} takes no earlier turns where they are sent, so follow-ups reach it "
            "as their last question alone; name the input keys that take them with input_key= and history_key="
        )
    return notes


@dataclass
class Scored:
    """An evaluation's outcome: each setup's rows (one per record) and summary, and the paired comparisons."""

    rows: dict[str, list[EvalRow]]
    summaries: dict[str, SetupSummary]
    """Per setup, as eval-summary.json holds it: the means overall and by group, with intervals and counts."""
    comparisons: list[Comparison]
    detect: float = DEFAULT_DETECT

    def summary_json(self) -> dict[str, Any]:
        """eval-summary.json: the setups' summaries, and the comparisons under `comparisons`."""
        return self.summaries | {"comparisons": comparisons_json(self.comparisons, self.detect)}


def evaluate_setups(
    setups: list[Setup],
    records: list[DatasetRecord],
    settings: Settings,
    folder: Path,
    judge_unlabelled: bool,
    say: Callable[[str], None],
    pipelines: dict[str, Pipeline] | None = None,
    retrieval_only: bool = False,
    files: EvaluationFiles | None = None,
    at_hand: DocumentsAtHand | None = None,
    *,
    detect: float = DEFAULT_DETECT,
    swept: dict[str, dict[str, str]] | None = None,
    seed: int | None = None,
    note: Callable[[str], None] | None = None,
) -> Scored:
    """Score every setup (reusing earlier judgements), compare them, write eval.jsonl, eval-summary.json and
    eval-report.html.

    `pipelines` holds the objects of retriever, chain and graph setups (`load_pipelines`); `retrieval_only`
    scores retrieval alone, asking no chat model of triad's. `files` names what is written (a run's eval.jsonl,
    or a file's own, named after it); `at_hand` says what evidence is placed in besides offsets. `detect` is the
    difference the questions-needed estimate is made for; `swept` gives a sweep's setups their swept values (the
    report draws each metric along them); `seed` seeds the gateways' retry waits; `note` gets the lines a reader
    should weigh the figures by (`say` where none is given).

    A row is kept under its setup's name and what the setup is (its signature, which leaves the name out), and
    reused by the latter: a setup identical to one evaluated before, under any name, costs nothing.
    """
    files = files or EvaluationFiles(folder)
    judge_model = settings.model_for("validator")
    eval_path = files.rows
    # A record graph.refresh rewrote is judged anew: its version is part of what a judgement is kept under.
    earlier = cached_rows(eval_path)
    stored = {_stored_key(row): row for row in earlier}
    reusable = {(row["signature"], row["sample_id"], row.get("sample_version", 1)): row for row in earlier}
    vectors = QuestionVectors()
    placed = (at_hand or DocumentsAtHand()).signature()
    summaries: dict[str, SetupSummary] = {}
    judged_rows: dict[str, list[EvalRow]] = {}
    for setup in setups:
        signature = setup.signature(judge_model, judge_unlabelled, retrieval_only, placed)
        named = setup.signature(judge_model, judge_unlabelled, retrieval_only, placed, named=True)

        def found(record: DatasetRecord, signature: str = signature, named: str = named) -> EvalRow | None:
            key = (record.id, record.version)
            return reusable.get((signature, *key)) or reusable.get((named, *key))

        missing = [r for r in records if found(r) is None]
        if missing:
            say(f"{setup.name}: evaluating {len(missing)} samples ({len(records) - len(missing)} cached)")
            if retrieval_only and setup.answers_for_itself:
                (note or say)(
                    f"note: {setup.name} answers with its own model; those calls are its own, not triad's, and only "
                    "the contexts it returns are scored"
                )
            pipeline = (pipelines or {}).get(setup.name)
            made = sum(vectors.made.values())
            fresh = run_async(
                evaluate_setup(
                    setup, missing, settings, judge_unlabelled, pipeline, retrieval_only, at_hand, vectors, seed
                )
            )
            for line in setup_notes(setup, missing, fresh, pipeline):
                (note or say)(line)
            if setup.kind == "builtin":
                say(f"{setup.name}: {sum(vectors.made.values()) - made} embedding requests for its questions")
            versions = {r.id: r.version for r in missing}
            for row in fresh:
                version = versions[row["sample_id"]]
                kept: EvalRow = {**row, "signature": signature}
                if version > 1:
                    kept["sample_version"] = version
                reusable[(signature, row["sample_id"], version)] = kept
        # Kept under this setup's name, latest last: a baseline reads a setup's rows of its latest signature.
        for record in records:
            earlier_row = found(record)
            assert earlier_row is not None  # every record was judged above, or earlier
            named_row: EvalRow = {**earlier_row, "setup": setup.name, "signature": signature}
            stored.pop(_stored_key(named_row), None)
            stored[_stored_key(named_row)] = named_row
        with writing(eval_path, MAKE_ROOM):  # as each setup ends: a later setup that fails loses none of these
            write_jsonl(eval_path, stored.values())
        # Rows judged before a record field became a group take the field from the record.
        judged = [with_record_fields(stored[(setup.name, signature, r.id, r.version)], r) for r in records]
        judged_rows[setup.name] = judged
        summary = grouped_means(judged, METRICS, GROUPS, SHARE_METRICS)
        summary["judges"] = (
            Judges(model=None, prompts=None, retrieval_only=True)
            if retrieval_only
            else Judges(model=judge_model, prompts=prompt_versions.EVALUATION_VERSION)
        )
        summary["scored_by"] = dict(Counter(by for row in judged if (by := row.get("scored_by"))))
        summary["unplaced_contexts"] = sum(row.get("evidence_unplaced") or 0 for row in judged)
        if files.skipped_lines is not None:
            summary["skipped_lines"] = files.skipped_lines
        if swept and setup.name in swept:
            summary["swept"] = swept[setup.name]
        summaries[setup.name] = summary
    comparisons = compare_setups(judged_rows, METRICS, GROUPS, detect)
    scored = Scored(judged_rows, summaries, comparisons, detect)
    summary_path, report_path = files.summary, files.report
    with writing(summary_path, MAKE_ROOM):
        write_atomically(summary_path, json.dumps(scored.summary_json(), indent=2) + "\n")
    with writing(report_path, MAKE_ROOM):
        write_atomically(report_path, render_eval_report(summaries, comparisons, detect))
    return scored


def with_record_fields(row: EvalRow, record: DatasetRecord) -> EvalRow:
    """A row with the groups and the cluster its record has now: a row judged before a record field became a
    group, or before rows kept their cluster, takes them from the record."""
    row = EvalRow(**row)
    for field in LATER_GROUPS:
        row[field] = group_value(record, field)
    row["cluster"] = record_cluster(record)
    return row


def _stored_key(row: EvalRow) -> tuple[str, str, str, int]:
    return (row.get("setup", ""), row["signature"], row["sample_id"], row.get("sample_version", 1))
