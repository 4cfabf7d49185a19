"""The evaluation as one Python function: everything `python -m graph.evaluate` does, returning what it prints.

    from graph.evaluation import evaluate

    result = evaluate("runs/docs-v1", ["k3=k=3", "k5=k=5"], retrieval_only=True)
    result.means.to_pandas()          # each setup's metric, overall and by group: mean, low, high, n, clusters
    result.comparisons.to_pandas()    # every pair, metric and group: difference, low, high, n, verdict
    result.rows.to_pandas()           # one row per setup and record

`dataset` is a run's folder, its dataset.jsonl, a run id (under the settings' runs folder) or a dataset file of
another layout (a RAGAS testset, a span CSV). The run's stored store settings are used unless `store_given` names
the ones set on purpose; the store-changed note, the answering models' checks and the pipelines' imports come
before the first setup is scored, as on the command line. `fail_under` and `baseline` make `checks`, and `passed`
says whether all of them pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.config.cli import run_async
from graph.config.errors import UserError
from graph.config.settings import Settings, resolve_settings
from graph.evaluation.confidence.comparisons import DEFAULT_DETECT, Comparison
from graph.evaluation.confidence.gate import (
    GATE_METRICS,
    Check,
    baseline_checks,
    baseline_notes,
    parse_gate_metrics,
    parse_thresholds,
    read_baseline,
    threshold_checks,
)
from graph.evaluation.external import InputFormat, is_saved_dataset, read_documents, read_external
from graph.evaluation.scoring.retrieval import DocumentsAtHand
from graph.evaluation.scoring.rows import GROUPS, METRICS, SetupSummary
from graph.evaluation.session import EvaluationFiles, Scored, evaluate_setups, load_pipelines
from graph.evaluation.setups import Setup, check_answering_model, parse_setup, parse_sweep, swept_setups
from graph.folder.run_settings import as_the_run_read_it, run_json_settings
from graph.living.staleness import store_changed
from graph.planning.languages import evaluation_note
from graph.running.dataset import read_dataset
from state.record import DatasetRecord


class Table(list[Mapping[str, object]]):
    """Rows of one kind (dicts of the same keys), with `to_pandas()` where pandas is installed."""

    def to_pandas(self) -> Any:
        try:
            import pandas
        except ImportError:
            raise UserError("to_pandas() needs pandas: pip install pandas") from None
        return pandas.DataFrame(list(self))


@dataclass
class Evaluation:
    """What an evaluation found, as the command prints it."""

    scored: Scored
    files: EvaluationFiles
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """The lines a reader should see beside the figures (the store changed, a baseline compared by means...)."""
    lines_scored: int | None = None
    """For a dataset file: its lines scored (the skipped ones are in `notes`)."""

    @property
    def summaries(self) -> dict[str, SetupSummary]:
        """Per setup, as eval-summary.json holds it."""
        return self.scored.summaries

    @property
    def rows(self) -> Table:
        return Table(row for rows in self.scored.rows.values() for row in rows)

    @property
    def means(self) -> Table:
        """One row per setup, group and metric: mean, low, high, n (records with the metric) and clusters."""
        found = Table()
        for setup, summary in self.summaries.items():
            slices = [("all", "", summary["all"])] + [
                (name, value, means) for name in GROUPS for value, means in (summary.get(name) or {}).items()
            ]
            for group, value, means in slices:
                for metric in METRICS:
                    if (mean := means.get(metric)) is None:
                        continue
                    low, high = (means.get("intervals") or {}).get(metric) or (None, None)
                    found.append(
                        {"setup": setup, "group": group, "value": value, "metric": metric, "mean": mean,
                         "low": low, "high": high, "n": (means.get("counts") or {}).get(metric),
                         "clusters": means.get("clusters")}
                    )  # fmt: skip
        return found

    @property
    def comparisons(self) -> Table:
        return Table(comparison.as_json() for comparison in self.scored.comparisons)

    @property
    def compared(self) -> list[Comparison]:
        return self.scored.comparisons

    @property
    def passed(self) -> bool:
        """Whether every check of the gate passes (true without a gate)."""
        return all(check.passed for check in self.checks)


def _quiet(line: str) -> None:
    """Lines nobody asked to see: they stay in the result's `notes`."""


def evaluate(
    dataset: str | Path,
    setups: Sequence[str] | str,
    *,
    settings: Settings | None = None,
    store_given: Collection[str] = (),
    input_format: InputFormat | None = None,
    documents: Path | None = None,
    retrieval_only: bool = False,
    judge_unlabelled: bool = False,
    sweeps: Sequence[str] | str = (),
    detect: float = DEFAULT_DETECT,
    seed: int | None = None,
    fail_under: str | None = None,
    baseline: Path | str | None = None,
    max_drop: float = 0.0,
    gate_metrics: Sequence[str] | str = GATE_METRICS,
    say: Callable[[str], None] = _quiet,
    warn: Callable[[str], None] = _quiet,
) -> Evaluation:
    """Score every setup (`NAME=key=value,...`, as `--setup` takes them) on the dataset, compare them, write
    eval.jsonl, eval-summary.json and eval-report.html, and hold them to the gate. `say` gets the progress lines
    and `warn` the notes (kept in the result's `notes` too); pass `print` to see them. Bad input raises
    `UserError`, one line naming the fix.
    """
    settings = settings or resolve_settings()
    setups = [setups] if isinstance(setups, str) else list(setups)
    sweeps = [sweeps] if isinstance(sweeps, str) else list(sweeps)
    if not setups:
        raise UserError("give a setup to evaluate: NAME=key=value,..., e.g. k5=k=5")
    if not 0 <= max_drop <= 1:
        raise UserError(f"--max-drop takes a value from 0 to 1, not {max_drop}")
    if not 0 < detect <= 1:
        raise UserError(f"--detect takes a difference above 0 and at most 1, not {detect}")
    if retrieval_only and judge_unlabelled:
        raise UserError("--judge-unlabelled asks a labeller model, which --retrieval-only does not: drop one of them")
    if sweeps and len(setups) != 1:
        raise UserError(f"--sweep expands one --setup into several; give one, not {len(setups)}")
    thresholds = parse_thresholds(fail_under) if fail_under else []
    metrics = parse_gate_metrics(gate_metrics if isinstance(gate_metrics, str) else ",".join(gate_metrics))
    earlier = read_baseline(Path(baseline)) if baseline is not None else None
    if seed is not None:  # anything random on the way (a team's pipeline, a sampling library) starts alike
        random.seed(seed)
        import numpy

        numpy.random.seed(seed)
    notes: list[str] = []

    def note(line: str) -> None:
        notes.append(line)
        warn(line)

    texts, swept = list(setups), None
    if sweeps:
        expanded = swept_setups(setups[0], [parse_sweep(text) for text in sweeps])
        texts = [text for text, _ in expanded]
        swept = {text.partition("=")[0]: point for text, point in expanded}
    options = _Options(judge_unlabelled, retrieval_only, detect, swept, seed, say, note)
    given = Path(dataset)
    if given.is_dir() and (given / "dataset.jsonl").is_file() and not is_saved_dataset(given):  # a run's folder
        given = given / "dataset.jsonl"
    path = given if given.suffix == ".jsonl" else settings.runs_dir / str(dataset) / "dataset.jsonl"
    if (given.is_file() and (given.name != "dataset.jsonl" or input_format is not None)) or is_saved_dataset(given):
        result = _evaluate_file(given, texts, settings, input_format, documents, options)
    else:
        if not given.suffix and not path.is_file():
            raise UserError(
                f"{dataset} is neither a file nor a run under {settings.runs_dir}; give a dataset file's path or a "
                "run id (--runs-dir names the runs' folder)"
            )
        records = read_dataset(path)
        stored = run_json_settings(path.parent / "run.json")
        settings = as_the_run_read_it(settings, stored, frozenset(store_given))
        if settings.collection and run_async(store_changed(settings, path.parent)):
            where = f" --runs-dir {path.parent.parent}" if given.suffix == ".jsonl" else ""
            note(
                "note: the store changed since this dataset was last checked; see which records went stale with "
                f"python -m graph.check {path.parent.name}{where}"
            )
        language = evaluation_note(records, settings.embedding)
        if language:
            note(language)
        scored = _score(records, texts, settings, EvaluationFiles(path.parent), retrieval_only, None, options)
        result = Evaluation(scored, EvaluationFiles(path.parent), notes=notes)
    if thresholds or earlier is not None:
        result.checks = threshold_checks(result.summaries, thresholds)
        if earlier is not None:
            checks, means_notes = baseline_checks(result.summaries, earlier, max_drop, result.scored.rows, metrics)
            result.checks += checks
            for line in [*baseline_notes(result.summaries, earlier.summaries), *means_notes]:
                note(line)
            held = {**(earlier.rows or {}), **(earlier.summaries or {})}
            for name in result.summaries:
                if name not in held:
                    note(f"note: the baseline has no setup {name!r}; it is held to the thresholds only")
    result.notes = notes
    return result


@dataclass(frozen=True)
class _Options:
    judge_unlabelled: bool
    retrieval_only: bool
    detect: float
    swept: dict[str, dict[str, str]] | None
    seed: int | None
    say: Callable[[str], None]
    note: Callable[[str], None]


def _evaluate_file(
    path: Path,
    texts: list[str],
    settings: Settings,
    input_format: InputFormat | None,
    documents_folder: Path | None,
    options: _Options,
) -> Evaluation:
    """A dataset file evaluated on its own: its lines read in their layout, bad ones named and skipped, the
    outputs beside it under names that start with its stem."""
    documents = read_documents(documents_folder)
    external = read_external(path, documents, input_format)
    for line in external.skipped:
        options.note(f"skipped {path.name} {line}")
    retrieval_only = options.retrieval_only or not external.answers
    if not external.answers and not options.retrieval_only:
        options.note(f"note: {path.name} holds no answers ({external.input_format}): only retrieval is scored")
    files = EvaluationFiles(path.parent, path.name, skipped_lines=len(external.skipped))
    # A triad dataset holds a store's chunk ids; another file's are made up. Its documents are those at hand, or
    # the setup's collection's.
    chunk_ids = external.input_format == "triad"
    at_hand = DocumentsAtHand(documents=documents or None, from_collection=not documents, chunk_ids=chunk_ids)
    scored = _score(external.records, texts, settings, files, retrieval_only, at_hand, options)
    return Evaluation(scored, files, lines_scored=len(external.records))


def _score(
    records: list[DatasetRecord],
    texts: list[str],
    settings: Settings,
    files: EvaluationFiles,
    retrieval_only: bool,
    at_hand: DocumentsAtHand | None,
    options: _Options,
) -> Scored:
    """Every setup checked (its answering model, its pipeline's import), then scored, compared and written."""
    setups: list[Setup] = [parse_setup(text, settings.collection, settings.embedding) for text in texts]
    names = [setup.name for setup in setups]
    if len(set(names)) < len(names):
        raise UserError(f"--setup names {', '.join(names)}: each setup needs a name of its own")
    if not retrieval_only:
        for setup in setups:
            check_answering_model(setup, settings)
    pipelines = load_pipelines(setups)
    return evaluate_setups(
        setups, records, settings, files.folder, options.judge_unlabelled, options.say, pipelines, retrieval_only,
        files, at_hand, detect=options.detect, swept=options.swept, seed=options.seed, note=options.note,
    )  # fmt: skip


def store_settings_given(values: Mapping[str, Any]) -> frozenset[str]:
    """The names of the store settings a command's flags set (those not None), which win over the run's."""
    return frozenset(name for name, value in values.items() if value is not None)
