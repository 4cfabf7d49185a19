"""A run's plan and its slots as workers see them: the cells with their quotas, a slot a worker holds,
and how a slot's sample ended (the rows of `triad_samples`, `graph.ledger.ledger`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.store.jsonb import jsonb
from state.finished import SampleSummary
from state.threads import ThreadId


@dataclass(frozen=True)
class Slot:
    """A sample slot a worker holds: thread `<run_id>/<n>` of one cell."""

    run_id: str
    n: int
    question_type: str
    binary: bool
    wanted: str | None = None
    """A yes/no slot's asked-for answer, "yes" or "no" (see CLAIM_SQL); None for the others."""
    query_style: str | None = None
    """The query style its question is to be asked in (see CLAIM_SQL); None when the run asks for none."""
    persona: str | None = None
    """The name of the persona who asks it (see CLAIM_SQL); None when the run has none."""
    fresh: bool = False
    """Opened just now: its thread has no checkpoint yet (a reclaimed slot continues from one)."""

    @property
    def thread_id(self) -> str:
        return str(ThreadId(self.run_id, self.n))


@dataclass(frozen=True)
class Completion:
    """How a slot's sample ended, for its row: the record when accepted, else the rejection."""

    slot: Slot
    outcome: str
    record: dict[str, Any] | None
    rejection: dict[str, Any] | None
    summary: SampleSummary
    """What the funnel and the report read."""


def completion_params(done: Completion) -> tuple[Any, ...]:
    return (
        done.outcome,
        jsonb(done.record) if done.record else None,
        jsonb(done.rejection) if done.rejection else None,
        jsonb(done.summary),
        done.record.get("query_style") if done.record else None,
        done.slot.run_id,
        done.slot.n,
    )


@dataclass(frozen=True)
class CellQuota:
    question_type: str
    binary: bool
    quota: int
    cap: int
