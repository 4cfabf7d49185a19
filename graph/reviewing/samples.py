"""A run's samples as a reviewer sees them, read from its run folder (dataset.jsonl and rejected.jsonl)."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from graph.config.errors import UserError
from graph.living.versions import read_run_json
from graph.reviewing.labels import RESTYLE_CRITERION, UNANSWERABLE_CRITERIA, criteria_for
from graph.runs.funnel import cell_name
from state.threads import slot_number

#: A sample reviewed before its record was refreshed: its review is of an earlier version.
CHANGED_SINCE_REVIEWED = "changed since reviewed"


@dataclass(frozen=True)
class ReviewSample:
    """One finished sample: its slot, how it ended, and its record or rejection line."""

    n: int
    outcome: str
    question_type: str
    binary: bool
    line: dict[str, Any]
    changed_at: str | None = None
    """When its record's current version was written (graph.refresh); None for a record as the run wrote it."""

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
    def accepted(self) -> bool:
        return self.outcome == "accepted"

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
        canonical = self.line.get("canonical_question")
        return self.accepted and bool(canonical) and canonical != self.line.get("question")

    @property
    def generated_unanswerable(self) -> bool:
        return criteria_for(self.question_type) == UNANSWERABLE_CRITERIA

    @property
    def language(self) -> str:
        """The question's language (ISO 639-1); empty when the sample never reached a draft."""
        return str(self.line.get("language") or "")

    @property
    def temporal(self) -> bool | None:
        return self.line.get("temporal") if self.accepted else None

    @property
    def difficulty(self) -> str | None:
        return self.line.get("difficulty") if self.accepted else None

    @property
    def contexts(self) -> list[dict[str, Any]]:
        return list(self.line.get("contexts", [])) if self.accepted else []

    @property
    def question(self) -> str:
        if self.accepted:
            return str(self.line.get("question", ""))
        drafts = self.line.get("drafts") or []
        return str(drafts[-1].get("question", "")) if drafts else ""

    @property
    def end_reason(self) -> str:
        return "" if self.accepted else str(self.line.get("end_reason", ""))


def current_reviews(samples: dict[int, ReviewSample], reviews: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reviews that are of their sample's current record: one saved before graph.refresh rewrote the
    record is of an earlier version, and left out."""
    return [
        review
        for review in reviews
        if (sample := samples.get(review["n"])) is None
        or sample.status(review.get("updated_at")) != CHANGED_SINCE_REVIEWED
    ]


def _slot(line: dict[str, Any]) -> int | None:
    return slot_number(str(line.get("id", "")))


def load_samples(folder: Path) -> dict[int, ReviewSample]:
    """Every finished sample of the run in `folder`, by slot; a run without any is a `UserError`."""
    if not folder.is_dir():
        raise UserError(f"no run folder {folder}; give a run id under --runs-dir")
    samples: dict[int, ReviewSample] = {}
    written = {entry.get("version"): entry.get("written_at") for entry in read_run_json(folder).get("versions", [])}
    for name in ("dataset.jsonl", "rejected.jsonl"):
        path = folder / name
        if not path.is_file():
            continue
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                line = json.loads(text)
            except ValueError:
                raise UserError(f"line {number} of {path} is not JSON; rebuild the files with --resume") from None
            slot = _slot(line)
            if slot is None:
                continue
            outcome = "accepted" if name == "dataset.jsonl" else str(line.get("outcome", "rejected"))
            changed_at = written.get(line.get("version")) if name == "dataset.jsonl" else None
            samples[slot] = ReviewSample(
                slot, outcome, str(line.get("question_type")), bool(line.get("binary")), line, changed_at
            )
    if not samples:
        raise UserError(f"run {folder.name} has no finished sample to review; run it first (python -m graph.run)")
    return dict(sorted(samples.items()))


def review_set(samples: dict[int, ReviewSample], size: int, seed: int) -> list[int]:
    """`size` samples drawn at random, spread evenly over the cells (type x binary), reproducible by `seed`."""
    rng = random.Random(seed)
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
