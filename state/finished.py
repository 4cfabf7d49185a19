"""A finished sample as a run's bookkeeping keeps it: the summary of its state that the funnel and the report
read, and the brief of its record; one type from the ledger's rows to every reader."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from state.draft import Draft
from state.usage import ModelCall


class VerdictBrief(TypedDict):
    """A verdict as the funnel counts it: which judge, its decision and reason, in which revision."""

    judge: str
    accepted: bool
    reason: str
    revision: int


class SampleSummary(TypedDict):
    """What the funnel and the report keep of a finished sample's state (the ledger's `summary`)."""

    question_type: str
    binary: bool
    language: str | None
    outcome: str
    end_reason: str
    drafts: list[Draft]
    revisions: int
    verdicts: list[VerdictBrief]
    restarts: int
    llm_calls: list[ModelCall]
    query_style: NotRequired[str]
    """The query style the sample was asked for, where the run asks for styles."""
    styled: NotRequired[str | None]
    """The style its record kept."""


class RecordBrief(TypedDict):
    """What the report, the coverage and the duplicate check read of an accepted record (the ledger's
    `FINISHED_SQL` builds it)."""

    question: str
    """The canonical question (the one asked before any query style)."""
    answer: str
    language: str | None
    difficulty: str | None
    n_relevant: int
    temporal: bool | None
    answerable: bool
    sources: list[str | None]
    """The `source` of each supporting chunk's metadata."""


class FinishedSample(TypedDict):
    """A finished sample of a run as the ledger lists it (`Ledger.finished`): its slot, how it ended, its summary,
    and the brief of its record (None unless accepted)."""

    n: int
    question_type: str
    binary: bool
    wanted: str | None
    outcome: str
    summary: SampleSummary | None
    brief: RecordBrief | None
