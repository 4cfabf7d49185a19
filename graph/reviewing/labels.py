"""Review labels in the state database: one row per run, sample and reviewer, upserted on each change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict, cast

from psycopg_pool import AsyncConnectionPool

from graph.store.jsonb import jsonb
from nodes.question_types import SINGLE_HOP_TYPES
from state.sample import UNANSWERABLE

#: What a reviewer can tick yes or no: the criteria below, and whether a rejection was right.
Criterion = Literal[
    "answerable", "correct", "multi_hop", "unambiguous", "plausible", "unanswered", "restyle_right", "rejection_right"
]
#: The paper's four criteria for an accepted sample (SPEC section 10), in the order keys 1-4 toggle them.
CRITERIA: tuple[Criterion, ...] = ("answerable", "correct", "multi_hop", "unambiguous")
#: A generated unanswerable question's: a user of the collection could ask it, and nothing retrieved answers it.
UNANSWERABLE_CRITERIA: tuple[Criterion, ...] = ("plausible", "unanswered")
#: A single-hop question's (factual, procedural): the paper's criteria but multi-hop.
SINGLE_HOP_CRITERIA: tuple[Criterion, ...] = ("answerable", "correct", "unambiguous")


#: A sample asked in a query style: the question as asked means what the validated one means, with its answer.
RESTYLE_CRITERION: Criterion = "restyle_right"


class Labels(TypedDict, total=False):
    """What one reviewer said of one sample: only what they gave (`clean_labels` keeps nothing else)."""

    answerable: bool
    correct: bool
    multi_hop: bool
    unambiguous: bool
    plausible: bool
    unanswered: bool
    restyle_right: bool
    rejection_right: bool
    """A rejected sample: whether the run was right to reject it."""
    relevance: dict[str, bool]
    """Relevance flips: context id -> relevant."""
    evidence: dict[str, dict[str, str]]
    """Quote corrections: supporting chunk id -> the quote as the record has it -> the reviewer's."""
    note: str


class SavedLabels(TypedDict):
    """One reviewer's labels of one sample, as the state database keeps them."""

    n: int
    reviewer: str
    labels: Labels
    updated_at: str
    """When the labels were last saved (ISO 8601)."""


def criteria_for(question_type: str) -> tuple[Criterion, ...]:
    """The criteria a reviewer ticks for an accepted sample of this cell kind."""
    if question_type == UNANSWERABLE:
        return UNANSWERABLE_CRITERIA
    return SINGLE_HOP_CRITERIA if question_type in SINGLE_HOP_TYPES else CRITERIA


SCHEMA = """
CREATE TABLE IF NOT EXISTS triad_reviews (
    run_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    reviewer TEXT NOT NULL,
    labels JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, n, reviewer)
);
"""


def clean_labels(given: Mapping[str, object]) -> Labels:
    """What a review may hold (`Labels`), from what a reviewer's page sent: values of another type are left out,
    a note is cut to 4000 characters."""
    labels: Labels = {}
    for name in (*CRITERIA, *UNANSWERABLE_CRITERIA, RESTYLE_CRITERION, "rejection_right"):
        value = given.get(name)
        if isinstance(value, bool):
            labels[name] = value
    relevance = given.get("relevance")
    if isinstance(relevance, dict):
        labels["relevance"] = {str(k): v for k, v in relevance.items() if isinstance(v, bool)}
    evidence = given.get("evidence")
    if isinstance(evidence, dict):
        labels["evidence"] = {
            str(chunk_id): {str(quote): fixed for quote, fixed in fixes.items() if isinstance(fixed, str)}
            for chunk_id, fixes in evidence.items()
            if isinstance(fixes, dict)
        }
    note = given.get("note")
    if isinstance(note, str):
        labels["note"] = note[:4000]
    return labels


class ReviewLabels:
    """The labels of every reviewer of a run, kept in the state database."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.pool = pool

    async def setup(self) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(SCHEMA)

    async def save(self, run_id: str, n: int, reviewer: str, labels: Mapping[str, object]) -> Labels:
        cleaned = clean_labels(labels)
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO triad_reviews (run_id, n, reviewer, labels) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (run_id, n, reviewer) DO UPDATE SET labels = EXCLUDED.labels, updated_at = now()",
                (run_id, n, reviewer, jsonb(cleaned)),
            )
        return cleaned

    async def re_key(self, run_id: str, moved: dict[int, dict[str, str]]) -> None:
        """The labels of each sample `n` of `moved` re-keyed to the chunk ids its record holds now (old id -> new):
        a relevance flip or a quote correction of a chunk the record no longer holds is dropped. When the labels
        were given stays as it was."""
        async with self.pool.connection() as conn:
            for n, ids in moved.items():
                cursor = await conn.execute(
                    "SELECT reviewer, labels FROM triad_reviews WHERE run_id = %s AND n = %s", (run_id, n)
                )
                for reviewer, labels in await cursor.fetchall():
                    labels = dict(labels)
                    for key in ("relevance", "evidence"):
                        if isinstance(labels.get(key), dict):
                            kept = set(ids.values())  # keys re-keyed already (a refresh run again after a crash)
                            labels[key] = {
                                ids.get(old, old): value
                                for old, value in labels[key].items()
                                if old in ids or old in kept
                            }
                    await conn.execute(
                        "UPDATE triad_reviews SET labels = %s WHERE run_id = %s AND n = %s AND reviewer = %s",
                        (jsonb(labels), run_id, n, reviewer),
                    )

    async def of_run(self, run_id: str) -> list[SavedLabels]:
        """Every review of the run: n, reviewer, labels (as `save` cleaned them), updated_at (ISO), by sample then
        reviewer."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT n, reviewer, labels, updated_at FROM triad_reviews WHERE run_id = %s ORDER BY n, reviewer",
                (run_id,),
            )
            rows = await cursor.fetchall()
        return [
            SavedLabels(
                n=n, reviewer=reviewer, labels=cast(Labels, dict(labels)), updated_at=at.isoformat(timespec="seconds")
            )
            for n, reviewer, labels, at in rows
        ]
