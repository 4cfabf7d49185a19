"""A run that cannot work: its first samples that reached a model all failed on the same error.

A model that is not served under its name, a context window too small for triad's prompts, a server that
answers every request with the same error: samples would fail one after another until every cell's
attempt cap is spent. When a worker's first `FAILED_ALIKE` samples that reached a model all failed on one
error (and none did better first), the run stops starting samples, for every worker, and says why. The
samples that failed on it are released, as if they never ran, so `--resume` after the fix does their work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Samples that must fail alike, with no other outcome among them, before a run is stopped.
FAILED_ALIKE = 5

_NUMBERS = re.compile(r"\d+")


def failure_kind(reason: str) -> str:
    """What two failures must share to be the same error: the reason with its numbers (attempts, ports, ids) and
    the node that met it left out."""
    _, colon, rest = reason.partition(": ")
    return _NUMBERS.sub("N", rest if colon else reason).strip()


@dataclass
class ReleasedSample:
    """A sample that failed on the run-wide error: its slot, thread and the seeds it drew."""

    slot: int
    thread_id: str
    seeds: list[str]


@dataclass
class SameFailure:
    """Watches a worker's samples for the first ones that reached a model."""

    first: list[str] = field(default_factory=list)
    """The failure kinds of the first samples that reached a model, while all of them failed."""
    settled: bool = False
    """A sample that reached a model ended otherwise, or the first ones failed on different errors."""
    reason: str | None = None
    """The error every one of the first samples failed on: the run cannot work."""
    released: list[ReleasedSample] = field(default_factory=list)
    """The samples that failed on it, the first ones and those in flight when it was found."""

    def note(self, slot: int, thread_id: str, outcome: str, state: dict[str, Any]) -> None:
        if not state.get("llm_calls"):
            return  # reached no model: says nothing of the models
        kind = failure_kind(str(state.get("end_reason") or "")) if outcome == "failed" else None
        if self.reason is not None:
            if kind == failure_kind(self.reason):
                self.released.append(released_sample(slot, thread_id, state))
            return
        if self.settled:
            return
        if kind is None:
            self.settled, self.released = True, []
            return
        self.first.append(kind)
        self.released.append(released_sample(slot, thread_id, state))
        if len(self.first) < FAILED_ALIKE:
            return
        if len(set(self.first)) == 1:
            self.reason = str(state.get("end_reason"))
        else:
            self.settled, self.released = True, []


def released_sample(slot: int, thread_id: str, state: dict[str, Any]) -> ReleasedSample:
    seeds = {str(attempt["seed_id"]) for attempt in state.get("bridge_attempts") or [] if attempt.get("seed_id")}
    if (state.get("seed") or {}).get("id"):
        seeds.add(str(state["seed"]["id"]))
    return ReleasedSample(slot, thread_id, sorted(seeds))
