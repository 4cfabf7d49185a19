"""A run's samples as a reviewer sees them, read from its run folder (dataset.jsonl and rejected.jsonl)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from graph.config.errors import UserError
from graph.figures.funnel import cell_name
from graph.folder.run_document import read_run_document
from graph.reviewing.labels import RESTYLE_CRITERION, UNANSWERABLE_CRITERIA, SavedLabels, criteria_for
from graph.running.dataset import read_lines, tell_skipped
from state.record import ContextPassage, DatasetRecord, Rejection, SupportingChunk
from state.threads import slot_number

#: A sample reviewed before its record was refreshed: its review is of an earlier version.
CHANGED_SINCE_REVIEWED = "changed since reviewed"


@dataclass(frozen=True)
class ReviewSample:
    """One finished sample: its slot, and its record (accepted) or its rejection line."""

    n: int
    entry: DatasetRecord | Rejection
    changed_at: str | None = None
    """When its record's current version was written (graph.refresh); None for a record as the run wrote it."""
    fetched: tuple[SupportingChunk, ...] = ()
    """A rejected sample's supporting chunks as the store holds them (its line names only their ids)."""

    def status(self, reviewed_at: str | None) -> str:
        """to review; reviewed; or changed since reviewed (its record refreshed after the review, `reviewed_at`)."""
        if reviewed_at is None:
            return "to review"
        if self.changed_at is not None and datetime.fromisoformat(self.changed_at) > datetime.fromisoformat(
            reviewed_at
        ):
            return CHANGED_SINCE_REVIEWED
        return "reviewed"

    @property
    def record(self) -> DatasetRecord | None:
        return self.entry if isinstance(self.entry, DatasetRecord) else None

    @property
    def rejection(self) -> Rejection | None:
        return self.entry if isinstance(self.entry, Rejection) else None

    @property
    def outcome(self) -> str:
        return "accepted" if isinstance(self.entry, DatasetRecord) else self.entry.outcome

    @property
    def accepted(self) -> bool:
        return isinstance(self.entry, DatasetRecord)

    @property
    def question_type(self) -> str:
        return str(self.entry.question_type)

    @property
    def binary(self) -> bool:
        return bool(self.entry.binary)

    @property
    def cell(self) -> str:
        return cell_name(self.question_type, self.binary)

    @property
    def criteria(self) -> tuple[str, ...]:
        """What a reviewer ticks for it when accepted (a generated unanswerable question has criteria of its own; a
        question asked in a query style, whether the rewrite keeps its meaning)."""
        return criteria_for(self.question_type) + ((RESTYLE_CRITERION,) if self.restyled else ())

    @property
    def restyled(self) -> bool:
        """Whether the question as asked is a rewrite of the validated one (a query style)."""
        return self.record is not None and self.record.canonical_question != self.record.question

    @property
    def generated_unanswerable(self) -> bool:
        return criteria_for(self.question_type) == UNANSWERABLE_CRITERIA

    @property
    def language(self) -> str:
        """The question's language (ISO 639-1); empty when the sample never reached a draft."""
        return self.entry.language or ""

    @property
    def temporal(self) -> bool | None:
        return self.record.temporal if self.record is not None else None

    @property
    def difficulty(self) -> str | None:
        return self.record.difficulty if self.record is not None else None

    @property
    def contexts(self) -> list[ContextPassage]:
        return list(self.record.contexts) if self.record is not None else []

    @property
    def supporting(self) -> list[SupportingChunk]:
        """Its supporting chunks: the record's, or those fetched for a rejected sample."""
        return list(self.record.supporting) if self.record is not None else list(self.fetched)

    @property
    def question(self) -> str:
        if self.record is not None:
            return self.record.question
        drafts = self.rejection.drafts if self.rejection is not None else []
        return str(drafts[-1].get("question", "")) if drafts else ""

    @property
    def end_reason(self) -> str:
        return self.rejection.end_reason if self.rejection is not None else ""

    @property
    def thread_id(self) -> str:
        """The thread its last state is in: a record names it (a refreshed one's differs from its id)."""
        provenance = self.entry.provenance
        return provenance.thread_id if provenance is not None and provenance.thread_id else self.entry.id


def current_reviews(samples: dict[int, ReviewSample], reviews: Iterable[SavedLabels]) -> list[SavedLabels]:
    """The reviews that are of their sample's current record: one saved before graph.refresh rewrote the
    record is of an earlier version, and left out."""
    return [
        review
        for review in reviews
        if (sample := samples.get(review["n"])) is None
        or sample.status(review.get("updated_at")) != CHANGED_SINCE_REVIEWED
    ]


def load_samples(folder: Path) -> dict[int, ReviewSample]:
    """Every finished sample of the run in `folder`, by slot; a run without any is a `UserError`. A line that does
    not validate (edited by hand) is named with its number and left out."""
    if not folder.is_dir():
        raise UserError(f"no run folder {folder}; give a run id under --runs-dir")
    samples: dict[int, ReviewSample] = {}
    written = {entry.get("version"): entry.get("written_at") for entry in read_run_document(folder).get("versions", [])}
    skipped: list[str] = []
    dataset, rejected = folder / "dataset.jsonl", folder / "rejected.jsonl"
    entries: list[DatasetRecord | Rejection] = []
    if dataset.is_file():
        entries += [record for _, record in read_lines(dataset, DatasetRecord, skipped)]
    if rejected.is_file():
        entries += [rejection for _, rejection in read_lines(rejected, Rejection, skipped)]
    tell_skipped(skipped)
    for entry in entries:
        slot = slot_number(entry.id)
        if slot is not None:
            changed_at = written.get(entry.version) if isinstance(entry, DatasetRecord) else None
            samples[slot] = ReviewSample(slot, entry, changed_at)
    if not samples:
        raise UserError(f"run {folder.name} has no finished sample to review; run it first (python -m graph.run)")
    return dict(sorted(samples.items()))


def review_set(samples: dict[int, ReviewSample], size: int, random_seed: int) -> list[int]:
    """`size` samples drawn at random, spread evenly over the cells (type x binary), reproducible by `random_seed`."""
    rng = random.Random(random_seed)
    by_cell: dict[str, list[int]] = defaultdict(list)
    for sample in samples.values():
        by_cell[sample.cell].append(sample.n)
    for slots in by_cell.values():
        rng.shuffle(slots)
    chosen: list[int] = []
    while len(chosen) < size and any(by_cell.values()):
        for cell in sorted(by_cell):
            if by_cell[cell] and len(chosen) < size:
                chosen.append(by_cell[cell].pop())
    return chosen
